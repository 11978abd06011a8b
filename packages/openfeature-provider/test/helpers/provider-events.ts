/** The provider events a client hears, in order, for tests that wait for them. */
import { eventually } from '@ensign/testkit';
import { type Client, OpenFeature, ProviderEvents } from '@openfeature/server-sdk';
import { EnsignProvider, type EnsignProviderOptions } from '../../src/index.js';

export interface HeardEvent {
  type: ProviderEvents;
  flagsChanged?: string[] | undefined;
  errorCode?: string | undefined;
  message?: string | undefined;
}

export interface Heard {
  readonly events: HeardEvent[];
  /** The types heard, in order. */
  types(): ProviderEvents[];
  /** Resolves once an event of `type` beyond the first `after` heard has come (false after ~10 s). */
  until(type: ProviderEvents, after?: number): Promise<HeardEvent | undefined>;
}

export function hear(client: Client): Heard {
  const events: HeardEvent[] = [];
  for (const type of [ProviderEvents.Ready, ProviderEvents.Stale, ProviderEvents.Error, ProviderEvents.ConfigurationChanged]) {
    client.addHandler(type, (details) =>
      events.push({ type, flagsChanged: details?.flagsChanged as string[] | undefined, errorCode: details?.errorCode as string | undefined, message: details?.message as string | undefined }),
    );
  }
  return {
    events,
    types: () => events.map((e) => e.type),
    async until(type, after = 0) {
      const found = () => events.slice(after).find((e) => e.type === type);
      await eventually(() => found() !== undefined);
      return found();
    },
  };
}

let domains = 0;

const quiet = (): void => undefined;
/** A logger that keeps the test output clean; tests that look at warnings pass their own. */
export const SILENT = { error: quiet, warn: quiet, info: quiet, debug: quiet };

/** A provider bound to a domain of its own, the client of that domain, and what it hears (handlers added before it is set). */
export async function providerClient(options: EnsignProviderOptions, wait = true): Promise<{ provider: EnsignProvider; client: Client; heard: Heard; domain: string; ready: Promise<void> }> {
  const domain = `test-${process.pid}-${++domains}`;
  const client = OpenFeature.getClient(domain);
  const heard = hear(client);
  const provider = new EnsignProvider({ counts: false, logger: SILENT, ...options });
  const ready = OpenFeature.setProviderAndWait(domain, provider);
  if (wait) await ready;
  else ready.catch(() => undefined);
  return { provider, client, heard, domain, ready };
}

/** Settings that make the lifecycle run in test time. */
export const FAST = {
  staleAfterMs: 300,
  errorAfterMs: 900,
  pollIntervalMs: 250,
  requestTimeoutMs: 1000,
  reconnect: { minMs: 50, initialMs: 100, maxMs: 200 },
} as const;
