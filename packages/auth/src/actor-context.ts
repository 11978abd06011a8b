/**
 * Who the request being served is, for the store's change records: the authentication middleware
 * runs the rest of the request inside `runAs`, and the store reads `currentActor` once per write.
 * While any `runAs` is under way Node tracks every promise and async resource of the process to
 * carry the actor along; once the last one has settled the tracking is switched off again, so
 * evaluations served between writes do not pay for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller } from './caller.js';
import { SESSION_PARENT } from './browser-session.js';
import type { Actor } from '@ensign/core';

const storage = new AsyncLocalStorage<Actor>();

/** The actor of the request being served; undefined outside one, or when it is not authenticated. */
export const currentActor = (): Actor | undefined => storage.getStore();

let running = 0;

function settled(): void {
  running -= 1;
  if (running === 0) storage.disable();
}

/** Runs `work` as `actor`; when it returns a promise, `currentActor` holds until that settles. */
export function runAs<T>(actor: Actor, work: () => T): T {
  running += 1;
  let result: T;
  try {
    result = storage.run(actor, work);
  } catch (err) {
    settled();
    throw err;
  }
  if (result instanceof Promise) return result.finally(settled) as T;
  settled();
  return result;
}

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

/**
 * The actor a caller is recorded as. A browser session opened with a pasted credential acts as that
 * credential: whoever signs in again with the same token is the same actor (and an author stays
 * the author of their change requests).
 */
export function actorOf(caller: Caller): Actor {
  const authentication = caller.authentication;
  const metadata: Readonly<Record<string, string>> = authentication?.metadata ?? {};
  const name = NAME_KEYS.map((key) => metadata[key]).find((value) => value !== undefined && value !== '');
  const id = metadata[SESSION_PARENT] ?? authentication?.id ?? '';
  return { authenticationId: id, method: caller.method, ...(name === undefined ? {} : { name }) };
}
