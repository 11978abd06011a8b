/**
 * What the providers of one process share per Ensign: one keep-alive agent per origin (polls and
 * count batches of every namespace reuse its sockets; each stream holds one of its own) and one
 * usage shipper per origin and credential (one batch a period for all their namespaces). Each is
 * made by the first provider that needs it, with that provider's settings, and closed with the last.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { EnsignEndpoint } from '../source/ensign-endpoint.js';
import { UsageShipper, type UsageShipperOptions } from '../usage/usage-shipper.js';

interface Shared<T> {
  value: T;
  users: number;
}

const agents = new Map<string, Shared<HttpAgent>>();
const shippers = new Map<string, Shared<UsageShipper>>();

/** A provider's hold on its shared agent (and shipper); `release` once, when it closes. */
export interface SharedConnection {
  endpoint: EnsignEndpoint;
  shipper: UsageShipper | undefined;
  release(stopTimeoutMs: number): Promise<void>;
}

export type ShipperSettings = Omit<UsageShipperOptions, 'endpoint'>;

function acquire<T>(map: Map<string, Shared<T>>, key: string, make: () => T): T {
  let shared = map.get(key);
  if (shared === undefined) {
    shared = { value: make(), users: 0 };
    map.set(key, shared);
  }
  shared.users++;
  return shared.value;
}

/** Drops a use of `key`; true when it was the last. */
function drop<T>(map: Map<string, Shared<T>>, key: string): boolean {
  const shared = map.get(key);
  if (shared === undefined || --shared.users > 0) return false;
  map.delete(key);
  return true;
}

/** The connection of a provider of `url` with `token`; `shipper` undefined leaves counts out. */
export function sharedConnection(url: string, token: string | undefined, shipper: ShipperSettings | undefined): SharedConnection {
  const base = url.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const agent = acquire(agents, origin, () => (origin.startsWith('https:') ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })));
  const endpoint: EnsignEndpoint = { base, token, agent };
  const shipperKey = `${base}\u0000${token ?? ''}`;
  const usage = shipper === undefined ? undefined : acquire(shippers, shipperKey, () => new UsageShipper({ ...shipper, endpoint }));
  let released = false;
  return {
    endpoint,
    shipper: usage,
    async release(stopTimeoutMs) {
      if (released) return;
      released = true;
      if (usage !== undefined && drop(shippers, shipperKey)) await usage.stop(stopTimeoutMs);
      if (drop(agents, origin)) agent.destroy();
    },
  };
}
