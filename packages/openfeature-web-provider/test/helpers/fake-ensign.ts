/**
 * Ensign as the provider sees it, in memory: the snapshot route (with entity tags and 304s), the
 * SSE stream as an `EventSource` or as a `fetch` body, and switches to take it down, bring it back
 * or make it refuse the credential.
 */
import type { SnapshotDocument } from '@ensign/engine';

type Listener = ((event: { data: string }) => void) | null;

export class FakeEnsign {
  reachable = true;
  /** 200, or the status every request is refused with (401, 403). */
  status = 200;
  readonly snapshotRequests: Array<{ url: string; headers: Headers }> = [];
  readonly streams: FakeStream[] = [];
  /** Every request and every stream opened, answered or refused. */
  attempts = 0;
  private version = 1;

  constructor(
    public document: (SnapshotDocument & { hash?: string }) | undefined,
    public etag: string | undefined = 'tag-1',
  ) {}

  /** Serves `document` as a new version and announces it on every open stream. */
  publish(document: SnapshotDocument): void {
    this.document = document;
    this.etag = `tag-${++this.version}`;
    for (const stream of this.open()) stream.send(JSON.stringify({ etag: this.etag, type: 'refetchEvaluation' }));
  }

  /** Refuses connections and breaks every open stream. */
  goDown(): void {
    this.reachable = false;
    for (const stream of this.open()) stream.fail();
  }

  open(): FakeStream[] {
    return this.streams.filter((stream) => !stream.closed);
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    this.attempts++;
    if (!this.reachable) throw new TypeError('Failed to fetch');
    if (this.status !== 200) return Response.json({ code: 16, message: 'request was not authenticated', details: [] }, { status: this.status });
    if (url.includes('/stream')) return this.fetchStream(url, init?.signal ?? undefined);
    this.snapshotRequests.push({ url, headers });
    if (this.etag !== undefined && headers.get('if-none-match') === this.etag) return new Response(null, { status: 304 });
    const document = this.document ?? { namespace: { key: 'shop' }, flags: [] };
    return Response.json(document, { headers: this.etag === undefined || this.document === undefined ? {} : { ETag: this.etag } });
  };

  /** An `EventSource` constructor whose instances are this server's streams. */
  get EventSource(): new (url: string) => EventSource {
    const server = this;
    return class {
      onopen: ((event: unknown) => void) | null = null;
      onmessage: Listener = null;
      onerror: ((event: unknown) => void) | null = null;
      private readonly stream: FakeStream;
      constructor(url: string) {
        this.stream = new FakeStream(url, {
          open: () => this.onopen?.({}),
          message: (data) => this.onmessage?.({ data }),
          error: () => this.onerror?.({}),
        });
        server.connect(this.stream);
      }
      close(): void {
        this.stream.close();
      }
    } as unknown as new (url: string) => EventSource;
  }

  private connect(stream: FakeStream): void {
    this.attempts++;
    this.streams.push(stream);
    setTimeout(() => {
      if (stream.closed) return;
      if (!this.reachable || this.status !== 200) return stream.fail();
      stream.opened();
      const digest = new URL(stream.url, 'http://ensign').searchParams.get('digest') ?? undefined;
      if (this.etag !== undefined && digest !== this.etag) stream.send(JSON.stringify({ etag: this.etag, type: 'refetchEvaluation' }));
    }, 1);
  }

  private fetchStream(url: string, signal: AbortSignal | undefined): Response {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const encoder = new TextEncoder();
    const stream = new FakeStream(url, {
      open: () => undefined,
      message: (data) => controller.enqueue(encoder.encode(`id: x\ndata: ${data}\n\n`)),
      error: () => controller.error(new TypeError('network error')),
    });
    signal?.addEventListener('abort', () => stream.close());
    this.streams.push(stream);
    const digest = new URL(url, 'http://ensign').searchParams.get('digest') ?? undefined;
    if (this.etag !== undefined && digest !== this.etag) queueMicrotask(() => stream.send(JSON.stringify({ etag: this.etag, type: 'refetchEvaluation' })));
    return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
  }
}

interface StreamSink {
  open(): void;
  message(data: string): void;
  error(): void;
}

export class FakeStream {
  closed = false;

  constructor(
    readonly url: string,
    private readonly sink: StreamSink,
  ) {}

  opened(): void {
    if (!this.closed) this.sink.open();
  }

  send(data: string): void {
    if (!this.closed) this.sink.message(data);
  }

  fail(): void {
    if (this.closed) return;
    this.sink.error();
    this.closed = true;
  }

  close(): void {
    this.closed = true;
  }
}

/** Resolves once `check` holds, polling; rejects after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
