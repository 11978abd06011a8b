/**
 * What a fuzz run is told by its environment: `ENSIGN_FUZZ_SEED` (a number, or `random` for a fresh
 * one; unset, a fixed one, so `npm test` runs the same cases every time and fails only for a
 * change of the code: `npm run fuzz` explores with fresh seeds),
 * `ENSIGN_FUZZ_CASES` (cases per transport; the soak passes 100000) and `ENSIGN_FUZZ_CASE` (run
 * only that case of the seed, to replay a failure).
 */

export interface FuzzSettings {
  seed: number;
  /** Cases per transport. */
  cases: number;
  /** Only this case index, when replaying. */
  only: number | undefined;
}

/** The seed of the cases `npm test` runs. */
const FIXED_SEED = 20261129;

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, not ${value}`);
  return n;
}

export function fuzzSettings(defaultCases: number, env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  return {
    seed: env.ENSIGN_FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : (integer('ENSIGN_FUZZ_SEED', env.ENSIGN_FUZZ_SEED) ?? FIXED_SEED),
    cases: integer('ENSIGN_FUZZ_CASES', env.ENSIGN_FUZZ_CASES) ?? defaultCases,
    only: integer('ENSIGN_FUZZ_CASE', env.ENSIGN_FUZZ_CASE),
  };
}

/** The case indexes of a phase: `[first, first + count)`, or just the replayed one when it falls in it. */
export function caseIndexes(settings: FuzzSettings, first: number, count: number): number[] {
  if (settings.only !== undefined) return settings.only >= first && settings.only < first + count ? [settings.only] : [];
  return Array.from({ length: count }, (_, i) => first + i);
}

/** How to run one case again, printed with every failure (the count too: it splits the phases). */
export const replayHint = (file: string, settings: FuzzSettings, index: number): string =>
  `replay: ENSIGN_FUZZ_SEED=${settings.seed} ENSIGN_FUZZ_CASES=${settings.cases} ENSIGN_FUZZ_CASE=${index} npx ava test/dist/e2e/${file}`;
