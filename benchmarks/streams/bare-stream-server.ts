/**
 * The ceiling of the stream benchmark: a minimal node:http server in a process of its own that
 * answers every GET as ensign answers a stream (200, the same headers, chunked), writes the current
 * message at once and keeps the response; on a signal from the parent (IPC `{type:'send', seq}`)
 * it writes one message to every response it holds, the same bytes for all, encoded once. The
 * messages are the line ensign sent for the namespace (`{type:'template', text}`) with the write's
 * seq in it, so they have the same size. No routing, no snapshot, no slow-client handling.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clock, withSeq } from './seq-marker.js';

export type BareRequest = { id: number; type: 'template'; text: string } | { id: number; type: 'send'; seq: number };

export interface SentReply {
  id: number;
  type: 'sent';
  seq: number;
  /** When the signal arrived, and when the last response had been written to. */
  at: number;
  doneAt: number;
  streams: number;
}

const responses = new Set<ServerResponse>();
let template = '';
let current = Buffer.alloc(0);

const server = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  res.socket?.setKeepAlive(true, 30_000);
  responses.add(res);
  res.once('close', () => responses.delete(res));
  req.resume();
  res.write(current);
});

process.on('message', (req: BareRequest) => {
  if (req.type === 'template') {
    template = req.text;
    current = Buffer.from(withSeq(template, 0));
    process.send?.({ id: req.id, type: 'ready' });
    return;
  }
  const at = clock();
  current = Buffer.from(withSeq(template, req.seq));
  for (const res of responses) res.write(current);
  const reply: SentReply = { id: req.id, type: 'sent', seq: req.seq, at, doneAt: clock(), streams: responses.size };
  process.send?.(reply);
});

server.listen(0, '127.0.0.1', 511, () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
