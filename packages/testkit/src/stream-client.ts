/**
 * A snapshot-stream client written to Flipt's framing, as its SDKs read it: NDJSON lines that must
 * each be `{"result": …}` (any other line, blank ones included, is what Flipt's FFI engine treats as
 * an error, so it is recorded as a bad line), or Server-Sent Events split on blank lines.
 */
import { request, type IncomingHttpHeaders } from 'node:http';

/** One SSE event: its fields by name. */
export interface SseEvent {
  id?: string;
  data?: string;
  event?: string;
}

export interface StreamClient<M> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Messages received so far, in order. */
  readonly messages: M[];
  /** NDJSON lines that were not a `{"result": …}` object. */
  readonly badLines: string[];
  /** Resolves with message number `index` (0-based) once it arrived; rejects after `timeoutMs`. */
  message(index: number, timeoutMs?: number): Promise<M>;
  /** Resolves true when no message beyond those received arrives within `ms`. */
  quietFor(ms: number): Promise<boolean>;
  /** Resolves when the server ended the stream. */
  readonly ended: Promise<void>;
  /** The body as received, for error answers. */
  readonly text: () => string;
  /** Stops reading the socket, as a stuck client would. */
  pause(): void;
  /** True once the stream ended or was cut. */
  destroyed(): boolean;
  close(): void;
}

/** Opens `url` and parses what arrives as NDJSON results (`{"result": …}` unwrapped) or SSE events. */
export function openStream(url: string, headers: Record<string, string> = {}, framing: 'ndjson' | 'sse' = headers.Accept === 'text/event-stream' ? 'sse' : 'ndjson'): Promise<StreamClient<any>> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const messages: unknown[] = [];
      const badLines: string[] = [];
      const waiters: Array<() => void> = [];
      let buffer = '';
      let all = '';
      const arrived = () => {
        for (const wake of waiters.splice(0)) wake();
      };
      const takeNdjson = () => {
        let nl = buffer.indexOf('\n');
        while (nl !== -1) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          try {
            const value = JSON.parse(line) as { result?: unknown };
            if (value === null || typeof value !== 'object' || !('result' in value)) badLines.push(line);
            else messages.push(value.result);
          } catch {
            badLines.push(line);
          }
          nl = buffer.indexOf('\n');
        }
      };
      const takeSse = () => {
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: Record<string, string> = {};
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon > 0) event[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
          }
          messages.push(event);
          end = buffer.indexOf('\n\n');
        }
      };
      let isEnded = false;
      let ended!: () => void;
      const endedPromise = new Promise<void>((done) => (ended = () => {
        isEnded = true;
        done();
      }));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        all += chunk;
        buffer += chunk;
        if (framing === 'sse') takeSse();
        else takeNdjson();
        arrived();
      });
      res.on('end', ended);
      res.on('close', ended);
      res.on('error', () => ended());
      const client: StreamClient<unknown> = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages,
        badLines,
        ended: endedPromise,
        text: () => all,
        message(index, timeoutMs = 5000) {
          return new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`stream message ${index} did not arrive within ${timeoutMs} ms (got ${messages.length})`)), timeoutMs);
            const check = () => {
              if (messages.length > index) {
                clearTimeout(timer);
                done(messages[index]);
              } else waiters.push(check);
            };
            check();
          });
        },
        quietFor(ms) {
          const count = messages.length;
          return new Promise((done) => setTimeout(() => done(messages.length === count), ms));
        },
        pause: () => res.pause(),
        destroyed: () => isEnded,
        close: () => req.destroy(),
      };
      resolve(client);
    });
    req.on('error', reject);
    req.end();
  });
}
