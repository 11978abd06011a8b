/** A provider wired to a fake Ensign, recording the events it emits. */
import { ProviderEvents } from '@openfeature/web-sdk';
import type { ExecutionContext } from 'ava';
import { EnsignWebProvider, type EnsignWebProviderOptions } from '../../src/index.js';
import type { FakeEnsign } from './fake-ensign.js';

export interface RecordedEvent {
  type: ProviderEvents;
  flagsChanged?: string[];
  errorCode?: string;
}

export interface ProviderUnderTest {
  provider: EnsignWebProvider;
  events: RecordedEvent[];
  /** The events' types, in order. */
  types(): ProviderEvents[];
}

/** Short lifecycle timings, so a test sees STALE and ERROR within a second. */
export const FAST = { initTimeoutMs: 400, staleAfterMs: 60, errorAfterMs: 250, retry: { initialDelayMs: 20, maxDelayMs: 40 } } as const;

export function providerFor(t: ExecutionContext, server: FakeEnsign, options: EnsignWebProviderOptions = {}): ProviderUnderTest {
  const provider = new EnsignWebProvider({ url: 'http://ensign.test', namespace: 'shop', fetch: server.fetch, EventSource: server.EventSource, ...FAST, ...options });
  const events: RecordedEvent[] = [];
  for (const type of [ProviderEvents.Ready, ProviderEvents.Stale, ProviderEvents.Error, ProviderEvents.ConfigurationChanged]) {
    provider.events.addHandler(type, (details) => {
      const event: RecordedEvent = { type };
      const flagsChanged = details?.['flagsChanged'];
      const errorCode = details?.['errorCode'];
      if (Array.isArray(flagsChanged)) event.flagsChanged = flagsChanged as string[];
      if (typeof errorCode === 'string') event.errorCode = errorCode;
      events.push(event);
    });
  }
  t.teardown(() => provider.onClose());
  return { provider, events, types: () => events.map((event) => event.type) };
}
