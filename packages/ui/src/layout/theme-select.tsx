/** The theme switch: the system's choice, light or dark. */
import { type Theme, useTheme } from './theme.js';

const THEMES: ReadonlyArray<[Theme, string]> = [
  ['system', 'System theme'],
  ['light', 'Light theme'],
  ['dark', 'Dark theme'],
];

export function ThemeSelect() {
  const [theme, setTheme] = useTheme();
  return (
    <select className="theme-select" aria-label="Theme" value={theme} onChange={(e) => setTheme(e.target.value as Theme)}>
      {THEMES.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </select>
  );
}
