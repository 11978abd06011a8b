/**
 * A revision that arrived is not yet proof that the write's content did: after each write, the flag it
 * touched is evaluated on the evaluator and on the server (which answers from the snapshot it updated
 * before acknowledging), for a few entities and contexts, and the answers must be the same.
 */
import type { KeepAliveClient } from '../propagation/keep-alive-client.js';

const ENTITIES = ['user-1', 'user-2', 'user-3'];
const MIX_CONTEXTS: Array<Record<string, string>> = [
  { plan: 'pro', seats: '20', country: 'de', beta: 'true', email: 'ann@corp.example', age_days: '3' },
  { plan: 'team', seats: '2', country: 'us' },
  {},
];

/** Fields that differ between any two answers. */
const VARYING = new Set(['requestId', 'timestamp', 'requestDurationMillis']);

const comparable = (text: string): string => JSON.stringify(JSON.parse(text, (key, value: unknown) => (VARYING.has(key) ? undefined : value)));

/** The batch request evaluating `flagKey` of `ns` for every entity and context. */
const batchOf = (ns: string, flagKey: string, contexts: Array<Record<string, string>>) => ({
  requests: ENTITIES.flatMap((entityId) => contexts.map((context) => ({ namespaceKey: ns, flagKey, entityId, context }))),
});

/** Undefined when both answer alike; otherwise both answers, for the report. The default contexts suit the seeded mix's segments. */
export async function compareAnswers(
  server: KeepAliveClient,
  evaluator: KeepAliveClient,
  ns: string,
  flagKey: string,
  contexts = MIX_CONTEXTS,
): Promise<string | undefined> {
  const batch = batchOf(ns, flagKey, contexts);
  const [expected, got] = await Promise.all([server.send('POST', '/evaluate/v1/batch', batch), evaluator.send('POST', '/evaluate/v1/batch', batch)]);
  if (expected.status === 200 && got.status === 200 && comparable(expected.text) === comparable(got.text)) return undefined;
  return `${flagKey}: server ${expected.status} ${expected.text.slice(0, 300)} / evaluator ${got.status} ${got.text.slice(0, 300)}`;
}
