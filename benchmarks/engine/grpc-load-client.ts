/**
 * The gRPC load generator, in its own process like the HTTP one: `concurrency` unary
 * `flipt.evaluation.EvaluationService/Variant` calls always in flight over one channel (HTTP/2
 * multiplexes them), the same requests as the HTTP variant load (rotating flags, entity ids and
 * contexts), for a fixed time after a warm-up of its own: the client is a Node process started for
 * each load, and a client whose JIT is still cold would measure itself rather than the server. Usage:
 * node grpc-load-client.js <host:port> <seconds> <concurrency> [warm-up seconds, 1]; prints a
 * LoadResult of the measured time as JSON (a failed call counts among `errors`; gRPC has no HTTP
 * status to count).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { credentials, loadPackageDefinition, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { evaluationRequests } from './http-workload.js';

const PROTOS = fileURLToPath(new URL('../../../packages/grpc/protos', import.meta.url));

const [address = '127.0.0.1:9000', seconds = '10', concurrency = '32', warmupSeconds = '1'] = process.argv.slice(2);
const files = readdirSync(PROTOS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.proto'));
const definition = loadSync(files, { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true, includeDirs: [PROTOS] });
const flipt = loadPackageDefinition(definition) as unknown as {
  flipt: { evaluation: { EvaluationService: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => Client } };
};
const client = new flipt.flipt.evaluation.EvaluationService(address, credentials.createInsecure()) as Client & {
  variant(request: object, callback: (err: ServiceError | null) => void): void;
};

const requests = evaluationRequests('variant');

let latencies: number[] = [];
let errors = 0;
let next = 0;

/** One in-flight slot: issues the next call whenever the previous one answers, until `deadline`. */
function slot(deadline: number, done: () => void): void {
  if (performance.now() >= deadline) {
    done();
    return;
  }
  const request = requests[next++ % requests.length];
  const sent = performance.now();
  client.variant(request ?? {}, (err) => {
    latencies.push(performance.now() - sent);
    if (err !== null) errors++;
    slot(deadline, done);
  });
}

/** Keeps `concurrency` calls in flight for `loadSeconds`; returns the seconds it took. */
async function load(loadSeconds: number): Promise<number> {
  const started = performance.now();
  const deadline = started + loadSeconds * 1000;
  await Promise.all(Array.from({ length: Number(concurrency) }, () => new Promise<void>((resolve) => slot(deadline, resolve))));
  return (performance.now() - started) / 1000;
}

await new Promise<void>((resolve) => client.waitForReady(Date.now() + 10_000, (err) => (err ? process.exit(2) : resolve())));
await load(Number(warmupSeconds));
latencies = [];
errors = 0;
const durationSeconds = await load(Number(seconds));
client.close();

latencies.sort((a, b) => a - b);
const at = (q: number): number => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 100) / 100;
const average = latencies.reduce((sum, l) => sum + l, 0) / Math.max(1, latencies.length);
process.stdout.write(
  JSON.stringify({ requests: latencies.length, errors, durationSeconds, latencyP50Ms: at(0.5), latencyP99Ms: at(0.99), latencyAvgMs: Math.round(average * 100) / 100, non2xx: 0 }),
);
