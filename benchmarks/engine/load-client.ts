/**
 * The propagation benchmark's load generator, run as its own process so that it does not share an
 * event loop with the evaluator under test: autocannon POSTing evaluations of one flag with rotating
 * entity ids and contexts.
 * Usage: node load-client.js <base url> <seconds> <connections> [variant|boolean] [namespace] [flag];
 * the defaults evaluate the variant flag of the engine workload. Prints autocannon's result as JSON.
 */
import autocannon from 'autocannon';
import { VARIANT_FLAG, contexts, entityIds } from './fixtures.js';

/** Distinct request bodies each connection cycles through. */
const BODIES = 500;

const [url = 'http://127.0.0.1:8080', seconds = '10', connections = '50', kind = 'variant', namespaceKey = 'default', flagKey = VARIANT_FLAG] =
  process.argv.slice(2);
const ids = entityIds(BODIES, 1234);
const ctxs = contexts(BODIES, 99);
const requests = ids.map((entityId, i) => ({
  method: 'POST',
  path: `/evaluate/v1/${kind}`,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ namespaceKey, flagKey, entityId, context: ctxs[i] }),
}));

const result = await autocannon({
  url,
  connections: Number(connections),
  pipelining: 1,
  duration: Number(seconds),
  timeout: 10,
  requests,
});
process.stdout.write(JSON.stringify(result));
