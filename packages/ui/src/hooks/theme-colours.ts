/**
 * Colours of the style sheet's variables as a canvas needs them (`#4f46e5`, or `rgba(…)` when
 * translucent), read again whenever the theme changes: the chosen theme (`<html data-theme>`) or,
 * under "system", the system's scheme.
 */
import { useEffect, useMemo, useState } from 'react';

/**
 * The colour `var(name)` resolves to now: a hidden probe takes it, so `light-dark()` pairs resolve
 * too, and a canvas writes it the way canvases (and Chart.js) read colours.
 */
function resolveColour(name: string): string {
  const probe = document.createElement('span');
  probe.style.display = 'none';
  probe.style.color = `var(${name})`;
  document.body.appendChild(probe);
  const computed = getComputedStyle(probe).color;
  probe.remove();
  const context = document.createElement('canvas').getContext('2d');
  if (context === null) return computed;
  context.fillStyle = computed;
  return String(context.fillStyle);
}

/** A number that changes whenever the theme may have. */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      scheme.removeEventListener('change', bump);
    };
  }, []);
  return version;
}

/** `{ '--accent': 'rgb(79, 70, 229)', … }` for the variables named (a list made once, outside the component), in the theme shown. */
export function useThemeColours<Name extends string>(names: readonly Name[]): Record<Name, string> {
  const version = useThemeVersion();
  // Read again on each `version`: the same names resolve to other colours in the other theme.
  return useMemo(() => Object.fromEntries(names.map((name) => [name, resolveColour(name)])) as Record<Name, string>, [names, version]);
}
