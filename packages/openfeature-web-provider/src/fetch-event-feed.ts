/**
 * The change feed read with `fetch`, for a page that presents a token: `EventSource` cannot send
 * an `Authorization` header. It also sees the status, so a refusal (401, 403) is known at once.
 */
import { type ChangeFeed, type FeedHandlers, readEvent } from './change-feed.js';
import { authorizationOf } from './ensign-routes.js';
import { SseParser } from './sse-parser.js';

export function openFetchFeed(fetchImpl: typeof fetch, url: string, token: string | undefined, handlers: FeedHandlers): ChangeFeed {
  const abort = new AbortController();
  let open = true;
  const close = (): void => {
    open = false;
    abort.abort();
  };
  const reported: FeedHandlers = {
    opened: () => open && handlers.opened(),
    changed: (etag) => open && handlers.changed(etag),
    lost(message, status) {
      if (!open) return;
      close();
      handlers.lost(message, status);
    },
  };
  void read(fetchImpl, url, token, abort.signal, reported);
  return { close };
}

async function read(fetchImpl: typeof fetch, url: string, token: string | undefined, signal: AbortSignal, handlers: FeedHandlers): Promise<void> {
  try {
    // The stream answers in SSE only for an `Accept` of exactly this.
    const response = await fetchImpl(url, { headers: { Accept: 'text/event-stream', ...authorizationOf(token) }, cache: 'no-store', signal });
    if (response.status !== 200 || response.body === null) {
      await response.body?.cancel();
      handlers.lost(`the change stream was refused: HTTP ${response.status}`, response.status);
      return;
    }
    handlers.opened();
    const parser = new SseParser((data) => readEvent(data, handlers));
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    handlers.lost('the change stream ended');
  } catch (err) {
    handlers.lost(`the change stream was lost: ${err instanceof Error ? err.message : String(err)}`);
  }
}
