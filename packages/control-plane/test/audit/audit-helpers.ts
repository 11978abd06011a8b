/** Helpers of the audit tests: change records, a real HTTP receiver, metric readings. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChangeRecord } from '@ensign/core';
import type { Registry } from 'prom-client';

export const AT = '2026-03-01T12:00:00.123Z';

/** A flag created in `default` at revision `revision`, by a token named `ci`. */
export function flagCreated(key: string, revision = 1): ChangeRecord {
  return {
    namespaceKey: 'default',
    revision,
    resource: 'flag',
    key,
    action: 'created',
    after: { namespaceKey: 'default', key, name: key, description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE', createdAt: AT, updatedAt: AT, variants: [] },
    actor: { authenticationId: 'a1', method: 'METHOD_TOKEN', name: 'ci' },
    at: AT,
  };
}

/** One request as the receiver saw it, body as raw bytes. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What the receiver answered; undefined while it hangs. */
  status: number | undefined;
}

/** How the receiver answers its n-th request (from 0): a status, or `hang` (never answers). */
export type Answer = (n: number, body: Buffer) => number | 'hang' | Promise<number>;

export interface Receiver {
  url: string;
  requests: Received[];
  /** The keys (`payload.key`) of the events answered 2xx, in order. */
  acceptedKeys(): string[];
  /** Resolves once `n` requests were answered 2xx. */
  accepted(n: number): Promise<void>;
  close(): Promise<void>;
}

/** A local node:http server that records every request and answers as `answer` says. */
export async function startReceiver(answer: Answer = () => 200): Promise<Receiver> {
  const requests: Received[] = [];
  const hanging: ServerResponse[] = [];
  let waiter: (() => void) | undefined;
  const ok = () => requests.filter((r) => r.status !== undefined && r.status < 300);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), status: undefined };
      requests.push(seen);
      void Promise.resolve(answer(requests.length - 1, seen.body)).then((status) => {
        if (status === 'hang') return void hanging.push(res);
        seen.status = status;
        res.writeHead(status).end();
        waiter?.();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/audit`,
    requests,
    acceptedKeys: () => ok().map((r) => (JSON.parse(r.body.toString()) as { payload: { key: string } }).payload.key),
    accepted: (n) =>
      new Promise((resolve) => {
        const check = () => (ok().length >= n ? resolve() : undefined);
        waiter = check;
        check();
      }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A URL nothing listens on. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/audit`;
}

/** `ensign_audit_events_total{sink}` by outcome. */
export async function outcomes(registry: Registry, sink: string): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric('ensign_audit_events_total');
  const out: Record<string, number> = {};
  for (const v of (await metric?.get())?.values ?? []) if (v.labels.sink === sink) out[String(v.labels.outcome)] = v.value;
  return out;
}

/** `ensign_audit_queue_length{sink}`. */
export async function queueLength(registry: Registry, sink: string): Promise<number | undefined> {
  const metric = registry.getSingleMetric('ensign_audit_queue_length');
  return (await metric?.get())?.values.find((v) => v.labels.sink === sink)?.value;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
