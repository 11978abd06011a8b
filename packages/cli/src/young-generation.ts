/**
 * How the long-running commands size V8's young generation. It is set at run time, the one way
 * that reaches the single executable too: on Node 20 that cannot carry V8 flags, and the
 * semi-space minimum cannot be raised once the heap exists. Anyone who tunes the semi-space
 * themselves (`--max-semi-space-size`, `--semi-space-growth-factor`, on the command line or in
 * NODE_OPTIONS) keeps their setting.
 *
 * - `small` (`ensign evaluator`, the unit that is replicated): the young generation stays at its
 *   initial size (two 1 MB semi-spaces) instead of growing to 16 MB each, some 25 MB less resident,
 *   at a cost in scavenges that batches feel most (see benchmarks/README.md).
 * - `regrow-at-once` (`ensign server`): V8 shrinks the young generation to its initial size at the
 *   first scavenge after an idle pause, and with its default factor of 2 regrows it through four
 *   doublings, each waiting for a semi-space's worth of survivors; the extra scavenges and
 *   promotions of that regrowth were what lifted the server's p99 after a pause to 5 times the
 *   JSON floor's. Grown back in one step, it stays near the floor's.
 */
import v8 from 'node:v8';

export type YoungGenerationPolicy = 'small' | 'regrow-at-once';

const GROWTH_FACTOR: Readonly<Record<YoungGenerationPolicy, number>> = { small: 1, 'regrow-at-once': 16 };

export function tuneYoungGeneration(policy: YoungGenerationPolicy, execArgv: readonly string[], nodeOptions: string | undefined): void {
  if ([...execArgv, nodeOptions ?? ''].some((arg) => arg.includes('semi-space'))) return;
  v8.setFlagsFromString(`--semi-space-growth-factor=${GROWTH_FACTOR[policy]}`);
}
