/**
 * The V8 young generation of `ensign evaluator` stays at its initial size (two 1 MB semi-spaces)
 * instead of growing to 16 MB each under load: some 30 MB less resident per evaluator, the unit
 * that is replicated, at no measurable cost for single evaluations. Large batches pay for it (more
 * scavenges, more promoted garbage), so `ensign server` keeps V8's default. Anyone who tunes the
 * semi-space themselves (`--max-semi-space-size`, `--semi-space-growth-factor`, on the command
 * line or in NODE_OPTIONS) keeps their setting.
 */
import v8 from 'node:v8';

export function keepYoungGenerationSmall(execArgv: readonly string[], nodeOptions: string | undefined): void {
  if ([...execArgv, nodeOptions ?? ''].some((arg) => arg.includes('semi-space'))) return;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}
