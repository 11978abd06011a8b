/** The HTTP API of a running server, for `export` and `import` with `--address`. */
import type { RemoteTarget } from '../transfer-flags.js';

/** A failed call: the server's own message when it sent Flipt's error body, else the status. */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';
  constructor(
    /** The server's message, or what went wrong reaching it. */
    readonly reason: string,
    /** The HTTP status; 0 when the server was not reached. */
    readonly status: number,
    /** `POST /api/v1/…` when the server answered. */
    readonly call?: string,
  ) {
    super(call === undefined ? reason : `${call}: ${reason}`);
  }
}

const REQUEST_TIMEOUT_MS = 60_000;

async function failure(method: string, url: string, response: Response): Promise<RemoteError> {
  const text = await response.text().catch(() => '');
  let message: unknown;
  try {
    message = (JSON.parse(text) as { message?: unknown }).message;
  } catch {
    message = undefined;
  }
  const reason = typeof message === 'string' && message !== '' ? message : `${response.status} ${response.statusText}`.trim();
  return new RemoteError(reason, response.status, `${method} ${new URL(url).pathname}`);
}

export class RemoteApi {
  constructor(private readonly target: RemoteTarget) {}

  private async call(method: 'GET' | 'POST', path: string, body?: { text: string; contentType: string }): Promise<unknown> {
    const url = `${this.target.address}${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.target.token !== undefined) headers.authorization = `Bearer ${this.target.token}`;
    if (body !== undefined) headers['content-type'] = body.contentType;
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: body?.text, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new RemoteError(`cannot reach ${this.target.address}: ${cause}`, 0);
    }
    if (!response.ok) throw await failure(method, url, response);
    return (await response.json()) as unknown;
  }

  get(path: string): Promise<unknown> {
    return this.call('GET', path);
  }

  postJson(path: string, value: unknown): Promise<unknown> {
    return this.call('POST', path, { text: JSON.stringify(value), contentType: 'application/json' });
  }
}
