/** Where benchmark results go: benchmarks/results/ (gitignored), next to the compiled scripts' source. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Writes `name` (e.g. `engine.json`) under benchmarks/results and returns its path. */
export function writeResults(name: string, data: unknown): string {
  const dir = fileURLToPath(new URL('../../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const path = `${dir}${name}`;
  writeFileSync(path, JSON.stringify(data, null, 2) + '\n');
  return path;
}
