/**
 * What each HTTP load sends: POSTs of a fixed path cycling through pre-built bodies that rotate over
 * the namespace's flags, entity ids and contexts (deterministic, so every run sends the same ones).
 */
import { contexts, entityIds } from './fixtures.js';
import { booleanFlagKeys, NAMESPACE, variantFlagKeys } from './http-namespace.js';

/** Distinct single-evaluation bodies of a load. */
const BODIES = 500;
/** Distinct batch bodies; each holds one request for every variant flag. */
const BATCH_BODIES = 100;
export const BATCH_SIZE = variantFlagKeys.length;

export type EvaluationKind = 'variant' | 'boolean';

/** One evaluation as the wire carries it (`requestId` left out, as clients mostly do). */
export interface EvaluationInput {
  namespaceKey: string;
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

export interface HttpWorkload {
  path: string;
  /** A path per body, where the request's path varies (OFREP names the flag in it); `path` otherwise. */
  paths?: string[];
  headers: Record<string, string>;
  bodies: string[];
  /** Evaluations one request asks for (the batch size for a batch). */
  evaluationsPerRequest: number;
}

/** `count` evaluation requests, the i-th on flag i mod 50 of `kind` with its own entity id and context. */
export function evaluationRequests(kind: EvaluationKind, count = BODIES, seed = 1234): EvaluationInput[] {
  const flags = kind === 'variant' ? variantFlagKeys : booleanFlagKeys;
  const ids = entityIds(count, seed);
  const ctxs = contexts(count, seed + 1);
  return ids.map((entityId, i) => ({ namespaceKey: NAMESPACE, flagKey: flags[i % flags.length]!, entityId, context: ctxs[i]! }));
}

function headersWith(authorization: string | undefined): Record<string, string> {
  return { 'Content-Type': 'application/json', ...(authorization === undefined ? {} : { Authorization: authorization }) };
}

/** POST /evaluate/v1/<kind>, one evaluation per request. */
export function singleWorkload(kind: EvaluationKind, authorization?: string): HttpWorkload {
  return {
    path: `/evaluate/v1/${kind}`,
    headers: headersWith(authorization),
    bodies: evaluationRequests(kind).map((r) => JSON.stringify(r)),
    evaluationsPerRequest: 1,
  };
}

/** POST /evaluate/v1/batch, each body one variant evaluation of every variant flag for distinct entities. */
export function batchWorkload(): HttpWorkload {
  const requests = evaluationRequests('variant', BATCH_BODIES * BATCH_SIZE, 4321);
  const bodies = Array.from({ length: BATCH_BODIES }, (_, b) => JSON.stringify({ requests: requests.slice(b * BATCH_SIZE, (b + 1) * BATCH_SIZE) }));
  return { path: '/evaluate/v1/batch', headers: headersWith(undefined), bodies, evaluationsPerRequest: BATCH_SIZE };
}

/** Variant evaluations over `flagKeys` of `namespaceKey` (the large namespace), one body per flag. */
export function variantWorkloadOver(namespaceKey: string, flagKeys: string[]): HttpWorkload {
  const ids = entityIds(flagKeys.length, 77);
  const ctxs = contexts(flagKeys.length, 78);
  return {
    path: '/evaluate/v1/variant',
    headers: headersWith(undefined),
    bodies: flagKeys.map((flagKey, i) => JSON.stringify({ namespaceKey, flagKey, entityId: ids[i], context: ctxs[i] })),
    evaluationsPerRequest: 1,
  };
}

/**
 * POST /ofrep/v1/evaluate/flags/{key}: the variant requests as OFREP single evaluations, the flag in
 * the path and the entity id as the context's `targetingKey` (the namespace is the default one).
 */
export function ofrepWorkload(authorization?: string): HttpWorkload {
  const requests = evaluationRequests('variant');
  return {
    path: '/ofrep/v1/evaluate/flags',
    paths: requests.map((r) => `/ofrep/v1/evaluate/flags/${r.flagKey}`),
    headers: headersWith(authorization),
    bodies: requests.map((r) => JSON.stringify({ context: { targetingKey: r.entityId, ...r.context } })),
    evaluationsPerRequest: 1,
  };
}
