/** Light, dark, or the system's choice; remembered in this browser. */
import { useEffect, useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'ensign.theme';

const stored = (): Theme => {
  try {
    const value = window.localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
};

const apply = (theme: Theme): void => {
  if (theme === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', theme);
};

/** Sets the remembered theme before the first render, so a dark page never flashes light. */
export function applyStoredTheme(): void {
  apply(stored());
}

/** Applies the theme to `<html data-theme>`; the style sheet does the rest. */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(stored);
  useEffect(() => {
    apply(theme);
    try {
      if (theme === 'system') window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, theme);
    } catch {
      // Private windows may refuse storage; the choice then lasts for this page only.
    }
  }, [theme]);
  return [theme, setTheme];
}
