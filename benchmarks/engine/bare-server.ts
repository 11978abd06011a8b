/**
 * The bare node:http servers every ensign target is measured against. Run as a child of http-bench
 * with its mode as argument; reports its port over IPC. Each reads the request body, then:
 * - `fixed`, the ceiling: answers a fixed JSON body of the size of a variant evaluation response;
 * - `json`, the floor of any JSON API: parses the body and stringifies a response-sized answer
 *   naming the request's flag, and does nothing else;
 * - `batch`, the same floor for a batch: parses the batch body and stringifies a batch answer of
 *   Flipt's shape with one variant answer per request, naming each request's flag.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An answer the size of a variant evaluation response. */
const ANSWER = {
  match: true,
  segmentKeys: ['pro-users'],
  reason: 'MATCH_EVALUATION_REASON',
  variantKey: 'compact',
  variantAttachment: '',
  requestId: '0f8fad5b-d9cb-469f-a165-70867728950e',
  requestDurationMillis: 0.041,
  timestamp: '2025-06-01T00:00:00.123456Z',
  flagKey: 'checkout-layout',
};
const BODY = JSON.stringify(ANSWER);

type FlagRequest = { flagKey?: unknown };
const flagOf = (request: FlagRequest | undefined): string => (typeof request?.flagKey === 'string' ? request.flagKey : '');

/** The least a JSON API does for one evaluation: one stringify of a response-sized object, its time and flag filled in. */
function jsonAnswer(text: string): string {
  const request = JSON.parse(text) as FlagRequest;
  return JSON.stringify({ ...ANSWER, requestDurationMillis: performance.now() % 1, timestamp: new Date().toISOString(), flagKey: flagOf(request) });
}

/** The same for a batch: one answer per request, the batch's time in each. */
function batchAnswer(text: string): string {
  const batch = JSON.parse(text) as { requests?: FlagRequest[] };
  const requestDurationMillis = performance.now() % 1;
  const timestamp = new Date().toISOString();
  const responses = (batch.requests ?? []).map((request) => ({
    type: 'VARIANT_EVALUATION_RESPONSE_TYPE',
    variantResponse: { ...ANSWER, requestId: '', requestDurationMillis, timestamp, flagKey: flagOf(request) },
  }));
  return JSON.stringify({ requestId: ANSWER.requestId, responses, requestDurationMillis });
}

/** Each mode's answer to a body read as `chunks`; the ceiling never decodes them. */
const text = (chunks: Buffer[]): string => Buffer.concat(chunks).toString('utf8');
const ANSWERS: Record<string, (chunks: Buffer[]) => string> = {
  fixed: () => BODY,
  json: (chunks) => jsonAnswer(text(chunks)),
  batch: (chunks) => batchAnswer(text(chunks)),
};
const answer = ANSWERS[process.argv[2] ?? 'fixed'];
if (answer === undefined) throw new Error(`bare-server: unknown mode ${process.argv[2]}`);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = answer(chunks);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});

server.listen(Number(process.env['BARE_PORT'] ?? 0), '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});

process.on('SIGTERM', () => server.close(() => process.exit(0)));
