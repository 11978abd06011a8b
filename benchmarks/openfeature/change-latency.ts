/**
 * How long a change made through the API takes to reach the provider, next to a bare stream reader
 * of the same server in a process of its own (the stream's own latency, without the provider's work).
 * Each write sets the description of one flag to its number; the provider's moment is its
 * PROVIDER_CONFIGURATION_CHANGED naming that flag, the reader's the arrival of the message carrying
 * the number. One write at a time, each waiting for both.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Client, ProviderEvents } from '@openfeature/server-sdk';
import { track } from '../propagation/children.js';
import type { KeepAliveClient } from '../propagation/keep-alive-client.js';

export interface WriteTiming {
  /** When the PUT was sent and when its answer (the commit) arrived; every time is on the machine-wide clock (ms). */
  sent: number;
  committed: number;
  provider: number;
  stream: number;
}

const seqText = (n: number): string => `seq-${String(n).padStart(6, '0')}`;

/** A bare stream reader in a process of its own, noting when each numbered message arrived (machine-wide clock). */
async function bareStreamReader(port: number, namespaceKey: string): Promise<{ arrivals: Map<number, number>; close(): void }> {
  const arrivals = new Map<number, number>();
  const child = track(fork(fileURLToPath(new URL('./stream-reader.js', import.meta.url)), [String(port), namespaceKey], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the stream reader exited with ${code}`)));
    child.on('message', (m: { open?: boolean; seq?: number; at?: number }) => {
      if (m.open === true) resolve();
      else if (m.seq !== undefined && !arrivals.has(m.seq)) arrivals.set(m.seq, m.at as number);
    });
  });
  return { arrivals, close: () => child.kill() };
}

/** Now on the machine-wide clock the reader's times are on. */
const now = (): number => performance.timeOrigin + performance.now();

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return true;
}

/** `writes` numbered writes of `flagKey`, `spacingMs` from one's start to the next's (after `warmup` unmeasured ones). */
export async function changeLatency(options: {
  api: KeepAliveClient;
  port: number;
  client: Client;
  namespaceKey: string;
  flagKey: string;
  writes: number;
  warmup: number;
  spacingMs: number;
}): Promise<WriteTiming[]> {
  const { api, client, namespaceKey, flagKey } = options;
  const reader = await bareStreamReader(options.port, namespaceKey);
  const changed: { at: number | undefined } = { at: undefined };
  client.addHandler(ProviderEvents.ConfigurationChanged, (details) => {
    if (details?.flagsChanged?.includes(flagKey) === true) changed.at ??= now();
  });
  const timings: WriteTiming[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let n = 1; n <= options.warmup + options.writes; n++) {
      const start = performance.now();
      changed.at = undefined;
      const sent = now();
      const reply = await api.send('PUT', `/api/v1/namespaces/${namespaceKey}/flags/${flagKey}`, { name: flagKey, description: seqText(n), enabled: true });
      const committed = now();
      if (reply.status !== 200) throw new Error(`write ${n} answered ${reply.status}: ${reply.text}`);
      if (!(await until(() => changed.at !== undefined && reader.arrivals.has(n), 5000))) throw new Error(`write ${n} did not reach the provider and the stream within 5 s`);
      if (n > options.warmup) timings.push({ sent, committed, provider: changed.at ?? NaN, stream: reader.arrivals.get(n) as number });
      const wait = options.spacingMs - (performance.now() - start);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } finally {
    reader.close();
  }
  return timings;
}
