/**
 * The ceiling of the stream benchmark: a minimal node:http server in a process of its own that
 * answers every GET as ensign answers a stream (200, the same headers, chunked), writes the current
 * message at once and keeps the response; on a signal from the parent (IPC `{type:'send', seq}`)
 * it writes one message to every response it holds, the same bytes for all, encoded once. The
 * messages are the line ensign sent for the namespace (`{type:'template', text}`) with the write's
 * seq in it, so they have the same size. Each message is framed as an HTTP chunk once and the
 * same bytes are written on every socket, the cheapest a Node process can fan out (and what ensign
 * does). No routing, no snapshot, no slow-client handling.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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

const sockets = new Set<Socket>();
let template = '';
let current: Buffer = Buffer.alloc(0);

/** `text` as one HTTP/1.1 chunk. */
const chunkOf = (text: string): Buffer => {
  const bytes = Buffer.from(text);
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
};

const server = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  const { socket } = res;
  if (socket === null) return;
  socket.setKeepAlive(true, 30_000);
  sockets.add(socket);
  res.once('close', () => sockets.delete(socket));
  req.resume();
  socket.write(current);
});

process.on('message', (req: BareRequest) => {
  if (req.type === 'template') {
    template = req.text;
    current = chunkOf(withSeq(template, 0));
    process.send?.({ id: req.id, type: 'ready' });
    return;
  }
  const at = clock();
  current = chunkOf(withSeq(template, req.seq));
  for (const socket of sockets) socket.write(current);
  const reply: SentReply = { id: req.id, type: 'sent', seq: req.seq, at, doneAt: clock(), streams: sockets.size };
  process.send?.(reply);
});

server.listen(0, '127.0.0.1', 511, () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
