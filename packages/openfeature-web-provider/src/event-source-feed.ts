/**
 * The change feed over the browser's `EventSource`. Its own reconnection (a fixed delay, no
 * backoff) is not used: the first error closes it and the sync reconnects with backoff. An
 * `EventSource` cannot tell why it failed, so a refusal is learnt from the snapshot fetch that
 * comes first on every reconnection.
 */
import { type ChangeFeed, type FeedHandlers, readEvent } from './change-feed.js';
import type { EventSourceConstructor } from './provider-options.js';

export function openEventSourceFeed(EventSourceImpl: EventSourceConstructor, url: string, handlers: FeedHandlers): ChangeFeed {
  const source = new EventSourceImpl(url);
  let open = true;
  const close = (): void => {
    open = false;
    source.close();
  };
  const reported: FeedHandlers = {
    opened: () => open && handlers.opened(),
    changed: (etag) => open && handlers.changed(etag),
    lost(message) {
      if (!open) return;
      close();
      handlers.lost(message);
    },
  };
  source.onopen = () => reported.opened();
  source.onmessage = (event: MessageEvent<string>) => readEvent(event.data, reported);
  source.onerror = () => reported.lost('the change stream was lost');
  return { close };
}
