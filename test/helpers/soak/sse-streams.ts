/**
 * Many clients holding the namespace's snapshot stream open through the load balancer as Server-Sent
 * Events, as browsers and providers do: each keeps the last digest it was told of, and connects
 * again (after a short jittered pause) whenever its stream ends or fails.
 */
import { type ClientRequest, request } from 'node:http';

class SseClient {
  lastDigest = '';
  reconnects = 0;
  private req: ClientRequest | undefined;
  private closed = false;

  constructor(private readonly url: string) {
    this.connect();
  }

  private connect(): void {
    if (this.closed) return;
    let buffer = '';
    const req = request(this.url, { headers: { Accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
          if (data !== undefined) this.lastDigest = (JSON.parse(data) as { etag: string }).etag;
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      });
    });
    this.req = req;
    let again = false;
    const reconnect = (): void => {
      if (again || this.closed) return;
      again = true;
      this.reconnects++;
      setTimeout(() => this.connect(), 500 + Math.random() * 1000);
    };
    req.on('error', reconnect);
    req.on('close', reconnect);
    req.end();
  }

  close(): void {
    this.closed = true;
    this.req?.destroy();
  }
}

export class SseStreams {
  private readonly clients: SseClient[];

  constructor(url: string, count: number) {
    this.clients = Array.from({ length: count }, () => new SseClient(url));
  }

  get reconnects(): number {
    return this.clients.reduce((sum, c) => sum + c.reconnects, 0);
  }

  /** How many clients were last told of `digest`. */
  on(digest: string): number {
    return this.clients.filter((c) => c.lastDigest === digest).length;
  }

  get count(): number {
    return this.clients.length;
  }

  close(): void {
    for (const c of this.clients) c.close();
  }
}
