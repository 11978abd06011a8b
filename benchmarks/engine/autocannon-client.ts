/**
 * The fallback HTTP load generator, run as its own process: autocannon POSTing a workload's bodies
 * in turn. Usage: node autocannon-client.js <base url> <seconds> <connections> <workload.json>;
 * prints a LoadResult as JSON.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { HttpWorkload } from './http-workload.js';
import type { LoadResult } from './load-generator.js';

const [url = '', seconds = '10', connections = '32', file = ''] = process.argv.slice(2);
const workload = JSON.parse(readFileSync(file, 'utf8')) as HttpWorkload;

const r = await autocannon({
  url,
  connections: Number(connections),
  pipelining: 1,
  duration: Number(seconds),
  timeout: 5,
  requests: workload.bodies.map((body, i) => ({ method: 'POST', path: workload.paths?.[i] ?? workload.path, headers: workload.headers, body })),
});
const result: LoadResult = {
  requests: r.requests.total,
  durationSeconds: r.duration,
  latencyP50Ms: r.latency.p50,
  latencyP99Ms: r.latency.p99,
  latencyAvgMs: r.latency.average,
  // autocannon counts timeouts among its errors.
  errors: r.errors,
  non2xx: r.non2xx,
};
process.stdout.write(JSON.stringify(result));
