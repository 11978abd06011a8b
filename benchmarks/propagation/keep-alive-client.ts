/**
 * A minimal JSON-over-HTTP client with one keep-alive connection per target, so that a poll or a
 * write costs one round trip and never a TCP handshake (which would inflate the figures measured).
 */
import { Agent, request } from 'node:http';

export interface Reply {
  status: number;
  text: string;
}

export class KeepAliveClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  /** `headers` go with every request (a credential, when the server requires one). */
  constructor(
    readonly port: number,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** Sends one request to 127.0.0.1 and resolves when the whole response body has arrived. */
  send(method: string, path: string, body?: unknown): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: {
            ...this.headers,
            ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Like `send`, but throws on a non-2xx answer and parses the body. */
  async json(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const reply = await this.send(method, path, body);
    if (reply.status < 200 || reply.status > 299) throw new Error(`${method} ${path} → ${reply.status} ${reply.text}`);
    return reply.text === '' ? {} : (JSON.parse(reply.text) as Record<string, unknown>);
  }
}
