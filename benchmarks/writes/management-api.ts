/**
 * One management call of `/api/v1`, whoever carries it: the HTTP API of a running server, or the same
 * decoders and services in this process (seeding), so seeding code is written once against the API.
 */
import type { KeepAliveClient } from '../propagation/keep-alive-client.js';

export type Json = Record<string, unknown>;

export interface ManagementApi {
  /** Sends `method path` with a JSON body; resolves the answer's body, throws on anything but success. */
  send(method: 'POST' | 'PUT', path: string, body: Json): Promise<Json>;
}

/** The API of a running server, over one keep-alive connection. */
export function httpApi(client: KeepAliveClient): ManagementApi {
  return { send: (method, path, body) => client.json(method, path, body) };
}
