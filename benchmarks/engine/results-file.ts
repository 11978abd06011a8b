/** Where benchmark results go: benchmarks/results/ (gitignored), next to the compiled scripts' source. */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/** Writes `name` (e.g. `engine.json`) under benchmarks/results and returns its path. */
export function writeResults(name: string, data: unknown): string {
  const dir = fileURLToPath(new URL('../../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const path = `${dir}${name}`;
  writeFileSync(path, JSON.stringify(data, null, 2) + '\n');
  return path;
}

/** The machine a run measured: when, which Node and CPU, and the load before and after it. */
export function machineOf(loadAverageBefore: number[]): Record<string, unknown> {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
    loadAverageBefore,
    loadAverageAfter: os.loadavg(),
  };
}
