/**
 * Who the request being served is, for the store's change records: the authentication middleware
 * runs the rest of the request inside `runAs`, and the store reads `currentActor` once per write.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller } from './caller.js';
import type { Actor } from '@ensign/core';

const storage = new AsyncLocalStorage<Actor>();

/** The actor of the request being served; undefined outside one, or when it is not authenticated. */
export const currentActor = (): Actor | undefined => storage.getStore();

/** Runs `work` as `actor`. */
export const runAs = <T>(actor: Actor, work: () => T): T => storage.run(actor, work);

/** The metadata keys that name a caller, most telling first (Flipt's spellings). */
const NAME_KEYS = [
  'io.flipt.auth.oidc.email',
  'io.flipt.auth.github.email',
  'io.flipt.auth.github.preferred_username',
  'io.flipt.auth.oidc.name',
  'io.flipt.auth.token.name',
  'io.flipt.auth.k8s.serviceaccount.name',
  'io.flipt.auth.jwt.email',
  'io.flipt.auth.jwt.name',
];

/** The actor a caller is recorded as. */
export function actorOf(caller: Caller): Actor {
  const authentication = caller.authentication;
  const metadata: Readonly<Record<string, string>> = authentication?.metadata ?? {};
  const name = NAME_KEYS.map((key) => metadata[key]).find((value) => value !== undefined && value !== '');
  return { authenticationId: authentication?.id ?? '', method: caller.method, ...(name === undefined ? {} : { name }) };
}
