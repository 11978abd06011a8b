/**
 * The in-process cases, all over the 50-flag benchmark namespace (engine/http-namespace.ts) and the
 * HTTP benchmark's inputs (engine/http-workload.ts: 500 evaluations rotating over the flags, entity
 * ids and contexts of the engine workload):
 * - the bare engine on the same document (the floor);
 * - the provider's own answers without the SDK (`provider.direct`): context conversion, evaluation,
 *   counting, reason and metadata;
 * - OpenFeature's client over `EnsignProvider`, one evaluation awaited after the other;
 * - OpenFeature's client over `@openfeature/flipt-provider` against the same `ensign server`, one
 *   in flight and `concurrency` in flight (an HTTP round trip per evaluation).
 */
import { type CompiledSnapshot, evaluateBoolean, evaluateVariant, type FlagInput, isFailure } from '@ensign/engine';
import type { EnsignProvider } from '@ensign/openfeature-provider';
import type { Client, EvaluationContext } from '@openfeature/server-sdk';
import { evaluationRequests, type EvaluationKind } from '../engine/http-workload.js';
import { type AsyncCase, measured } from './async-rounds.js';

/** Iterations between clock reads in the synchronous loops. */
const CHUNK = 2000;
/** Evaluations between clock reads in the awaiting loops. */
const AWAITED_CHUNK = 200;

interface Inputs {
  engine: FlagInput[];
  openFeature: Array<{ flagKey: string; context: EvaluationContext }>;
}

function inputsOf(kind: EvaluationKind): Inputs {
  // Parsed from JSON as a caller would hold them: plain objects of strings.
  const requests = evaluationRequests(kind).map((r) => JSON.parse(JSON.stringify(r)) as FlagInput & { namespaceKey: string });
  return {
    engine: requests.map(({ flagKey, entityId, context }) => ({ flagKey, entityId, context })),
    openFeature: requests.map(({ flagKey, entityId, context }) => ({ flagKey, context: { targetingKey: entityId, ...context } })),
  };
}

/** Calls `step(i)` until `ms` have passed; returns how many calls were made. */
function syncLoop(ms: number, step: (i: number) => void): number {
  const deadline = performance.now() + ms;
  let n = 0;
  while (performance.now() < deadline) for (let i = 0; i < CHUNK; i++) step(n++);
  return n;
}

/** Awaits `step(i)` one after the other until `ms` have passed, `lanes` at a time. */
async function awaitedLoop(ms: number, lanes: number, step: (i: number) => Promise<unknown>): Promise<number> {
  const deadline = performance.now() + ms;
  let n = 0;
  const lane = async () => {
    while (performance.now() < deadline) for (let i = 0; i < AWAITED_CHUNK; i++) await step(n++);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return n;
}

const ENV = { now: Date.now };
let sink = 0;

/** What the cases need: the compiled document, the provider, and a client of each provider. */
export interface CaseTargets {
  compiled: CompiledSnapshot;
  provider: EnsignProvider;
  ensign: Client;
  flipt: Client;
  concurrency: number;
}

export function evaluationCases(targets: CaseTargets): AsyncCase[] {
  const variant = inputsOf('variant');
  const boolean = inputsOf('boolean');
  const at = <T>(list: T[], i: number): T => list[i % list.length]!;
  const { compiled, provider, ensign, flipt, concurrency } = targets;
  return [
    {
      name: 'engine, variant',
      run: (ms) =>
        measured(() =>
          syncLoop(ms, (i) => {
            const r = evaluateVariant(compiled, at(variant.engine, i), ENV);
            if (!isFailure(r)) sink += r.variantKey.length;
          }),
        ),
    },
    {
      name: 'engine, boolean',
      run: (ms) =>
        measured(() =>
          syncLoop(ms, (i) => {
            const r = evaluateBoolean(compiled, at(boolean.engine, i), ENV);
            if (!isFailure(r) && r.enabled) sink++;
          }),
        ),
    },
    {
      name: 'provider without the SDK, variant',
      run: (ms) =>
        measured(() =>
          syncLoop(ms, (i) => {
            const input = at(variant.openFeature, i);
            sink += provider.direct.string(input.flagKey, 'none', input.context).value.length;
          }),
        ),
    },
    {
      name: 'provider without the SDK, boolean',
      run: (ms) =>
        measured(() =>
          syncLoop(ms, (i) => {
            const input = at(boolean.openFeature, i);
            if (provider.direct.boolean(input.flagKey, false, input.context).value) sink++;
          }),
        ),
    },
    {
      name: 'OpenFeature client → EnsignProvider, variant',
      run: (ms) => measured(() => awaitedLoop(ms, 1, (i) => ensign.getStringValue(at(variant.openFeature, i).flagKey, 'none', at(variant.openFeature, i).context))),
    },
    {
      name: 'OpenFeature client → EnsignProvider, boolean',
      run: (ms) => measured(() => awaitedLoop(ms, 1, (i) => ensign.getBooleanValue(at(boolean.openFeature, i).flagKey, false, at(boolean.openFeature, i).context))),
    },
    {
      name: 'OpenFeature client → flipt-provider (HTTP), variant, 1 in flight',
      run: (ms) => measured(() => awaitedLoop(ms, 1, (i) => flipt.getStringValue(at(variant.openFeature, i).flagKey, 'none', at(variant.openFeature, i).context))),
    },
    {
      name: `OpenFeature client → flipt-provider (HTTP), variant, ${concurrency} in flight`,
      run: (ms) => measured(() => awaitedLoop(ms, concurrency, (i) => flipt.getStringValue(at(variant.openFeature, i).flagKey, 'none', at(variant.openFeature, i).context))),
    },
  ];
}

/** Keeps the loops' results alive, so nothing is optimised away. */
export const consumed = (): number => sink;
