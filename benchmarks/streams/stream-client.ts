/**
 * One client process of the stream benchmark (forked by client-fleet.ts, driven over IPC). It holds
 * its share of the streams on raw `node:net` sockets, all reading into one buffer of the process
 * (`onread`: no allocation per read): the GET is written by hand, the answer's head checked once
 * (200, chunked), and after that only the chunked framing is parsed and the `\n` ending each message
 * found, so a message costs a few buffer scans, not a JSON parse. Each message's write
 * is told by the seq marker in it (seq-marker.ts); the time its last byte was read is kept per
 * stream and per seq and sent to the parent when asked. Every stream reads its socket all the time,
 * as an SDK does, so the server never has a reason to drop one as slow.
 */
import { connect, type Socket } from 'node:net';
import { clock, MARKER, SEQ_DIGITS } from './seq-marker.js';

const NL = 0x0a;
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);
/** Bytes that must be kept across reads to find a marker and its digits split between two. */
const CARRY = MARKER.length + SEQ_DIGITS - 1;

export type ClientRequest =
  | { id: number; type: 'open'; port: number; path: string; accept: string; count: number; concurrency: number; timeoutMs: number }
  | { id: number; type: 'collect'; seq: number; timeoutMs: number }
  | { id: number; type: 'close' };

export interface OpenReply {
  id: number;
  type: 'opened';
  /** Per stream: when its connect began and when its first message had arrived (-1: never). */
  startedAt: number[];
  firstAt: number[];
  /** Bytes of each stream's first message (the first stream's; they are all the same). */
  firstMessageBytes: number;
  errors: string[];
}

export interface CollectReply {
  id: number;
  type: 'arrivals';
  seq: number;
  /** Per stream: when the message carrying `seq` had arrived (-1: not within the timeout). */
  at: number[];
}

export interface CloseReply {
  id: number;
  type: 'closed';
  /** Streams the server ended or reset before the benchmark closed them (dropped as slow, or a crash). */
  endedByServer: number;
  messages: number;
  errors: string[];
}

const enum State {
  Head,
  Size,
  Data,
  Crlf,
  Ended,
}

class Stream {
  state = State.Head;
  head: Buffer | undefined;
  sizeText = '';
  remaining = 0;
  crlfLeft = 0;
  /** Seq of the message being read, once its marker has been seen; -1 before. */
  lineSeq = -1;
  lineBytes = 0;
  carry: Buffer | undefined;
  messages = 0;
  firstAt = -1;
  firstBytes = 0;
  closing = false;
  endedByServer = false;
  readonly socket: Socket;

  constructor(
    readonly index: number,
    readonly client: Client,
    port: number,
    request: Buffer,
  ) {
    // Every socket reads into the one buffer of the process: a read is consumed before the next.
    const onread = {
      buffer: READ_BUFFER,
      callback: (n: number) => {
        this.read(READ_BUFFER.subarray(0, n));
        return true;
      },
    };
    this.socket = connect({ host: '127.0.0.1', port, onread }, () => this.socket.write(request));
    this.socket.on('error', (err) => client.error(`stream ${index}: ${err.message}`));
    this.socket.on('close', () => {
      if (!this.closing) {
        this.endedByServer = true;
        client.ended(this);
      }
    });
  }

  private read(buf: Buffer): void {
    const at = clock();
    let i = 0;
    while (i < buf.length) {
      switch (this.state) {
        case State.Head: {
          const all = this.head === undefined ? buf.subarray(i) : Buffer.concat([this.head, buf.subarray(i)]);
          const end = all.indexOf('\r\n\r\n');
          if (end < 0) {
            this.head = Buffer.from(all);
            return;
          }
          this.head = undefined;
          const head = all.toString('latin1', 0, end);
          if (!head.startsWith('HTTP/1.1 200') || !/\r\ntransfer-encoding: *chunked/i.test(head)) {
            this.client.error(`stream ${this.index}: unexpected answer ${head.split('\r\n')[0]}`);
            this.state = State.Ended;
            this.socket.destroy();
            return;
          }
          buf = all;
          i = end + 4;
          this.state = State.Size;
          break;
        }
        case State.Size: {
          const nl = buf.indexOf(NL, i);
          this.sizeText += buf.toString('latin1', i, nl < 0 ? buf.length : nl);
          if (nl < 0) return;
          i = nl + 1;
          const size = parseInt(this.sizeText, 16);
          this.sizeText = '';
          if (!(size > 0)) {
            this.state = State.Ended;
            return;
          }
          this.remaining = size;
          this.state = State.Data;
          break;
        }
        case State.Data: {
          const end = Math.min(buf.length, i + this.remaining);
          this.data(buf, i, end, at);
          this.remaining -= end - i;
          i = end;
          if (this.remaining === 0) {
            this.state = State.Crlf;
            this.crlfLeft = 2;
          }
          break;
        }
        case State.Crlf: {
          const n = Math.min(this.crlfLeft, buf.length - i);
          i += n;
          this.crlfLeft -= n;
          if (this.crlfLeft === 0) this.state = State.Size;
          break;
        }
        case State.Ended:
          return;
      }
    }
  }

  /** Message bytes `buf[start, end)`: finds the marker until seen, and each message's end. */
  private data(buf: Buffer, start: number, end: number, at: number): void {
    while (start < end) {
      let nl = buf.indexOf(NL, start);
      if (nl >= end) nl = -1;
      const segmentEnd = nl < 0 ? end : nl;
      if (this.lineSeq < 0 && segmentEnd > start) this.findSeq(buf.subarray(start, segmentEnd));
      this.lineBytes += (nl < 0 ? end : nl + 1) - start;
      if (nl < 0) return;
      this.message(at);
      start = nl + 1;
    }
  }

  private findSeq(segment: Buffer): void {
    let found = -1;
    let source = segment;
    if (this.carry !== undefined) {
      const joint = Buffer.concat([this.carry, segment.subarray(0, MARKER.length + SEQ_DIGITS)]);
      const j = joint.indexOf(MARKER);
      if (j >= 0 && j + MARKER.length + SEQ_DIGITS <= joint.length) {
        found = j;
        source = joint;
      }
    }
    if (found < 0) {
      const j = segment.indexOf(MARKER);
      if (j >= 0 && j + MARKER.length + SEQ_DIGITS <= segment.length) found = j;
    }
    if (found >= 0) {
      this.lineSeq = Number(source.toString('latin1', found + MARKER.length, found + MARKER.length + SEQ_DIGITS));
      this.carry = undefined;
      return;
    }
    const kept = this.carry === undefined ? segment : Buffer.concat([this.carry, segment]);
    this.carry = Buffer.from(kept.subarray(Math.max(0, kept.length - CARRY)));
  }

  private message(at: number): void {
    this.messages++;
    if (this.messages === 1) {
      this.firstAt = at;
      this.firstBytes = this.lineBytes;
      this.client.first(this);
    }
    if (this.lineSeq >= 0) this.client.arrived(this, this.lineSeq, at);
    this.lineSeq = -1;
    this.lineBytes = 0;
    this.carry = undefined;
  }

  close(): void {
    this.closing = true;
    this.socket.destroy();
  }
}

/** A seq's arrivals over this process's streams. */
interface Arrivals {
  at: Float64Array;
  count: number;
}

class Client {
  private streams: Stream[] = [];
  private arrivals = new Map<number, Arrivals>();
  private errors: string[] = [];
  private errorCount = 0;
  private endedByServer = 0;
  private waiting: { seq: number; done: () => void } | undefined;
  private opening: { next: () => void } | undefined;

  error(message: string): void {
    this.errorCount++;
    if (this.errors.length < 5) this.errors.push(message);
  }

  ended(stream: Stream): void {
    this.endedByServer++;
    if (stream.firstAt < 0) this.first(stream);
  }

  first(_stream: Stream): void {
    this.opening?.next();
  }

  arrived(stream: Stream, seq: number, at: number): void {
    let arrivals = this.arrivals.get(seq);
    if (arrivals === undefined) {
      arrivals = { at: new Float64Array(this.streams.length).fill(-1), count: 0 };
      this.arrivals.set(seq, arrivals);
    }
    if (arrivals.at[stream.index]! >= 0) return;
    arrivals.at[stream.index] = at;
    arrivals.count++;
    if (this.waiting?.seq === seq && arrivals.count === this.streams.length) this.waiting.done();
  }

  /** Opens `count` streams, `concurrency` at a time: one is open once its first message arrived. */
  async open(req: Extract<ClientRequest, { type: 'open' }>): Promise<OpenReply> {
    const request = Buffer.from(`GET ${req.path} HTTP/1.1\r\nHost: 127.0.0.1:${req.port}\r\nAccept: ${req.accept}\r\nUser-Agent: ensign-streams-bench\r\n\r\n`, 'latin1');
    const startedAt: number[] = [];
    this.streams = [];
    this.arrivals.clear();
    await new Promise<void>((resolve) => {
      let started = 0;
      let done = 0;
      const timer = setTimeout(() => {
        this.error(`open: ${req.count - done} of ${req.count} streams had no first message after ${req.timeoutMs} ms`);
        resolve();
      }, req.timeoutMs);
      const startOne = () => {
        startedAt.push(clock());
        this.streams.push(new Stream(started++, this, req.port, request));
      };
      this.opening = {
        next: () => {
          done++;
          if (started < req.count) startOne();
          if (done === req.count) {
            clearTimeout(timer);
            resolve();
          }
        },
      };
      for (let i = 0; i < Math.min(req.concurrency, req.count); i++) startOne();
    });
    this.opening = undefined;
    return {
      id: req.id,
      type: 'opened',
      startedAt,
      firstAt: this.streams.map((s) => s.firstAt),
      firstMessageBytes: this.streams[0]?.firstBytes ?? 0,
      errors: this.errors.splice(0),
    };
  }

  /** Resolves once every stream has had the message of `seq`, or after `timeoutMs`. */
  async collect(req: Extract<ClientRequest, { type: 'collect' }>): Promise<CollectReply> {
    const complete = () => (this.arrivals.get(req.seq)?.count ?? 0) === this.streams.length;
    if (!complete()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, req.timeoutMs);
        this.waiting = {
          seq: req.seq,
          done: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      });
      this.waiting = undefined;
    }
    const arrivals = this.arrivals.get(req.seq);
    this.arrivals.delete(req.seq);
    return { id: req.id, type: 'arrivals', seq: req.seq, at: arrivals === undefined ? this.streams.map(() => -1) : Array.from(arrivals.at) };
  }

  close(req: Extract<ClientRequest, { type: 'close' }>): CloseReply {
    const messages = this.streams.reduce((sum, s) => sum + s.messages, 0);
    for (const stream of this.streams) stream.close();
    const reply: CloseReply = { id: req.id, type: 'closed', endedByServer: this.endedByServer, messages, errors: this.errors.splice(0) };
    if (this.errorCount > reply.errors.length) reply.errors.push(`… ${this.errorCount} errors in all`);
    this.streams = [];
    this.arrivals.clear();
    this.endedByServer = 0;
    this.errorCount = 0;
    return reply;
  }
}

const client = new Client();
process.on('message', (req: ClientRequest) => {
  const reply = req.type === 'open' ? client.open(req) : req.type === 'collect' ? client.collect(req) : Promise.resolve(client.close(req));
  void reply.then((r) => process.send?.(r));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
