/**
 * The ceiling: a bare node:http server that reads the request body and answers a fixed JSON body of
 * the size of a variant evaluation response. With the argument `json` it is the floor of any JSON
 * API instead: it also parses the body and stringifies an answer of that size naming the request's
 * flag, and does nothing else. Run as a child of http-bench; reports its port over IPC.
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

const parseAndStringify = process.argv[2] === 'json';

/** The answer a JSON API gives at the least: one stringify of a response-sized object, its time and flag filled in. */
function jsonAnswer(text: string): string {
  const request = JSON.parse(text) as { flagKey?: unknown };
  return JSON.stringify({
    ...ANSWER,
    requestDurationMillis: performance.now() % 1,
    timestamp: new Date().toISOString(),
    flagKey: typeof request.flagKey === 'string' ? request.flagKey : '',
  });
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = parseAndStringify ? jsonAnswer(Buffer.concat(chunks).toString('utf8')) : BODY;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});

server.listen(Number(process.env['BARE_PORT'] ?? 0), '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});

process.on('SIGTERM', () => server.close(() => process.exit(0)));
