/**
 * Seeds a running `ensign server` through /api/v1 with the benchmark namespace (http-namespace.ts),
 * then checks that /evaluate/v1 answers as the engine does on the same document, so a benchmark
 * never measures a broken route.
 */
import { compileSnapshot, evaluateBoolean, evaluateVariant, isFailure } from '@ensign/engine';
import type { KeepAliveClient } from '../propagation/keep-alive-client.js';
import { benchNamespaceDocument, NAMESPACE } from './http-namespace.js';
import { BATCH_SIZE, type EvaluationInput, type EvaluationKind, evaluationRequests } from './http-workload.js';

/** The management API spells comparison types without `_CONSTRAINT`. */
const apiComparisonType = (type: string) => type.replace('_CONSTRAINT_COMPARISON_TYPE', '_COMPARISON_TYPE');

/** Creates the document's segments, flags, variants, rules, distributions and rollouts, one call at a time. */
export async function seedBenchNamespace(api: KeepAliveClient): Promise<number> {
  const doc = benchNamespaceDocument();
  const ns = `/api/v1/namespaces/${NAMESPACE}`;
  let calls = 0;
  const send = (path: string, body: unknown) => {
    calls++;
    return api.json('POST', `${ns}${path}`, body);
  };
  const used = doc.flags.flatMap((f) => [...f.rules.flatMap((r) => r.segments), ...f.rollouts.flatMap((r) => r.segment?.segments ?? [])]);
  const segments = new Map(used.map((s) => [s.key, s]));
  for (const segment of segments.values()) {
    await send('/segments', { key: segment.key, name: segment.key, matchType: segment.matchType.replace('_SEGMENT', '') });
    for (const c of segment.constraints) {
      await send(`/segments/${segment.key}/constraints`, { type: apiComparisonType(c.type), property: c.property, operator: c.operator, value: c.value });
    }
  }
  for (const flag of doc.flags) {
    await send('/flags', { key: flag.key, name: flag.name, enabled: flag.enabled, type: flag.type });
    const variantIds = new Map<string, string>();
    for (const key of new Set(flag.rules.flatMap((r) => r.distributions.map((d) => d.variantKey)))) {
      variantIds.set(key, String((await send(`/flags/${flag.key}/variants`, { key, name: key }))['id']));
    }
    for (const rule of flag.rules) {
      const created = await send(`/flags/${flag.key}/rules`, { rank: rule.rank, segmentKeys: rule.segments.map((s) => s.key), segmentOperator: rule.segmentOperator });
      for (const d of rule.distributions) {
        await send(`/flags/${flag.key}/rules/${String(created['id'])}/distributions`, { variantId: variantIds.get(d.variantKey), rollout: d.rollout });
      }
    }
    for (const rollout of flag.rollouts) {
      const segment = rollout.segment!;
      await send(`/flags/${flag.key}/rollouts`, { rank: rollout.rank, segment: { segmentKeys: segment.segments.map((s) => s.key), segmentOperator: segment.segmentOperator, value: segment.value } });
    }
  }
  return calls;
}

const compiled = compileSnapshot(benchNamespaceDocument(), { hash: 'murmur3' });

/** The engine's answer to `request`, in the fields the wire response shares with it. */
function engineAnswer(kind: EvaluationKind, request: EvaluationInput): Record<string, unknown> {
  const env = { now: Date.now };
  if (kind === 'variant') {
    const want = evaluateVariant(compiled, request, env);
    if (isFailure(want)) throw new Error(want.message);
    return { match: want.match, reason: want.reason, variantKey: want.variantKey };
  }
  const want = evaluateBoolean(compiled, request, env);
  if (isFailure(want)) throw new Error(want.message);
  return { enabled: want.enabled, reason: want.reason };
}

function compare(kind: EvaluationKind, request: EvaluationInput, got: Record<string, unknown>): void {
  const want = engineAnswer(kind, request);
  for (const [field, value] of Object.entries(want)) {
    if (got[field] !== value) throw new Error(`server and engine disagree on ${field} for ${JSON.stringify(request)}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
  }
}

async function evaluate(client: KeepAliveClient, path: string, body: unknown): Promise<Record<string, unknown>> {
  const reply = await client.send('POST', path, body);
  if (reply.status !== 200) throw new Error(`POST ${path} → ${reply.status} ${reply.text}`);
  return JSON.parse(reply.text) as Record<string, unknown>;
}

/**
 * Evaluates `samples` requests of each kind one by one, and one batch of every variant flag, through
 * `client` and through the engine (murmur3, the server's default); throws on the first disagreement.
 */
export async function checkAgainstEngine(client: KeepAliveClient, samples = 100): Promise<void> {
  for (const kind of ['variant', 'boolean'] as const) {
    for (const request of evaluationRequests(kind, samples, 555)) compare(kind, request, await evaluate(client, `/evaluate/v1/${kind}`, request));
  }
  const batch = evaluationRequests('variant', BATCH_SIZE, 556);
  const answer = await evaluate(client, '/evaluate/v1/batch', { requests: batch });
  const responses = answer['responses'] as Array<{ variantResponse?: Record<string, unknown> }> | undefined;
  if (responses?.length !== batch.length) throw new Error(`POST /evaluate/v1/batch answered ${responses?.length} responses for ${batch.length} requests`);
  batch.forEach((request, i) => compare('variant', request, responses[i]?.variantResponse ?? {}));
}

/**
 * Evaluates `samples` variant requests as OFREP single evaluations through `client`; throws unless
 * each names its flag and, where the engine matches, its variant.
 */
export async function checkOfrepAgainstEngine(client: KeepAliveClient, samples = 50): Promise<void> {
  for (const request of evaluationRequests('variant', samples, 557)) {
    const got = await evaluate(client, `/ofrep/v1/evaluate/flags/${request.flagKey}`, { context: { targetingKey: request.entityId, ...request.context } });
    const want = engineAnswer('variant', request);
    if (got['key'] !== request.flagKey || (want['match'] === true && got['variant'] !== want['variantKey'])) {
      throw new Error(`OFREP and engine disagree for ${JSON.stringify(request)}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
    }
  }
}

/** Repeats the check until it passes (an evaluator may still be catching up with the seeding) or `timeoutMs` ends. */
export async function untilAgreesWithEngine(client: KeepAliveClient, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await checkAgainstEngine(client);
      await checkOfrepAgainstEngine(client);
      return;
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
