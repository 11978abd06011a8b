/**
 * The access policy every transport applies: which surfaces need a credential under
 * `authentication.required` and `exclude.*`, what a refused or failing credential means on each,
 * and where a namespace-scoped token may go.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { AppError, Code, isAppError, unauthenticated, unavailable } from '@ensign/core';
import { AccessPolicy, type AccessOptions, type Caller, type ExcludableSurface, inNamespaces, type Resolved, type Surface, UNDETERMINED, UNSCOPED } from '../src/index.js';

const SURFACES: readonly Surface[] = ['management', 'evaluation', 'ofrep', 'auth', 'public'];
const EXCLUDABLE: readonly ExcludableSurface[] = ['management', 'evaluation', 'ofrep'];
const NO_EXCLUDE = { management: false, evaluation: false, ofrep: false };

const CALLER: Caller = { method: 'METHOD_TOKEN', via: 'bearer' };
const SCOPED: Caller = { method: 'METHOD_TOKEN', via: 'bearer', namespace: 'team' };

const policy = (options: Partial<AccessOptions> = {}): AccessPolicy => new AccessPolicy({ required: true, exclude: NO_EXCLUDE, ...options });

/** A resolver that counts its calls. */
function resolver(result: () => Resolved): { resolve: () => Resolved; calls: () => number } {
  let calls = 0;
  return {
    resolve: () => {
      calls++;
      return result();
    },
    calls: () => calls,
  };
}

const refused = (): never => {
  throw unauthenticated();
};

/** The code `work` fails with (synchronously or not); undefined when it succeeds. */
async function failureOf(t: ExecutionContext, work: () => Resolved): Promise<unknown> {
  try {
    await work();
    return undefined;
  } catch (err) {
    t.true(isAppError(err), `an AppError, not ${String(err)}`);
    return isAppError(err) ? err.code : err;
  }
}

test('required: every surface but public is guarded; not required: none is', (t) => {
  const required = policy();
  const open = policy({ required: false });
  for (const surface of SURFACES) {
    t.is(required.guards(surface), surface !== 'public', `required ${surface}`);
    t.false(open.guards(surface), `not required ${surface}`);
  }
  t.deepEqual(
    SURFACES.map((s) => AccessPolicy.OPEN.guards(s)),
    SURFACES.map(() => false),
    'the open policy guards nothing',
  );
});

test('each exclude opens its own surface only, and never the authentication API', (t) => {
  for (const excluded of EXCLUDABLE) {
    const p = policy({ exclude: { ...NO_EXCLUDE, [excluded]: true } });
    for (const surface of SURFACES) {
      t.is(p.guards(surface), surface !== 'public' && surface !== excluded, `exclude.${excluded}: ${surface}`);
    }
  }
  const all = policy({ exclude: { management: true, evaluation: true, ofrep: true } });
  t.true(all.guards('auth'), 'everything excluded: the authentication API is still guarded');
  t.false(policy({ required: false, exclude: { management: true, evaluation: true, ofrep: true } }).guards('auth'));
});

test('the credential is read where guarded, and always on the authentication API', (t) => {
  const open = policy({ required: false });
  const excluded = policy({ exclude: { ...NO_EXCLUDE, evaluation: true } });
  for (const surface of SURFACES) {
    t.is(open.readsCredential(surface), surface === 'auth', `not required ${surface}`);
    t.is(policy().readsCredential(surface), surface !== 'public', `required ${surface}`);
    t.is(excluded.readsCredential(surface), surface !== 'public' && surface !== 'evaluation', `exclude.evaluation ${surface}`);
  }
});

test('a credential that is not read is never resolved, even a bad one', (t) => {
  const bad = resolver(refused);
  t.is(policy().callerOf('public', bad.resolve), undefined);
  t.is(policy({ required: false }).callerOf('management', bad.resolve), undefined);
  t.is(policy({ exclude: { ...NO_EXCLUDE, ofrep: true } }).callerOf('ofrep', bad.resolve), undefined);
  t.is(bad.calls(), 0);
});

test('guarded: a valid credential is the caller; none or a refused one is a 401, on every guarded surface', async (t) => {
  const p = policy();
  for (const surface of SURFACES.filter((s) => s !== 'public')) {
    t.is(p.callerOf(surface, () => CALLER), CALLER, `${surface}: valid`);
    t.is(await failureOf(t, () => p.callerOf(surface, () => undefined)), Code.Unauthenticated, `${surface}: none`);
    t.is(await failureOf(t, () => p.callerOf(surface, refused)), Code.Unauthenticated, `${surface}: refused`);
  }
});

test('unguarded authentication API: a valid credential is still the caller, a refused one counts as none', (t) => {
  const open = policy({ required: false });
  t.is(open.callerOf('auth', () => CALLER), CALLER, '/auth/v1/self knows its caller');
  t.is(open.callerOf('auth', () => undefined), undefined);
  t.is(open.callerOf('auth', refused), undefined);
});

test('a failure that is not a refused credential stands, guarded or not', async (t) => {
  const down = (): never => {
    throw unavailable('database unavailable');
  };
  const crash = (): never => {
    throw new TypeError('boom');
  };
  const open = policy({ required: false });
  t.is(await failureOf(t, () => open.callerOf('auth', down)), Code.Unavailable, 'the store being down is not "no credential"');
  t.is(await failureOf(t, () => policy().callerOf('management', down)), Code.Unavailable);
  t.throws(() => open.callerOf('auth', crash), { instanceOf: TypeError });
  t.throws(() => policy().callerOf('evaluation', crash), { instanceOf: TypeError });
});

test('an asynchronous resolver (a JWT) is judged the same way once it settles', async (t) => {
  const p = policy();
  const later = (caller: Caller | undefined): Resolved => Promise.resolve(caller);
  const laterRefused = (): Resolved => Promise.reject(unauthenticated());
  const laterDown = (): Resolved => Promise.reject(unavailable('database unavailable'));

  const resolved = p.callerOf('evaluation', () => later(CALLER));
  t.true(resolved instanceof Promise, 'a promise when the resolver returns one');
  t.is(await resolved, CALLER);
  await t.throwsAsync(Promise.resolve(p.callerOf('evaluation', () => later(undefined))), { instanceOf: AppError, message: 'request was not authenticated' });
  t.is(await failureOf(t, () => p.callerOf('management', laterRefused)), Code.Unauthenticated);

  const open = policy({ required: false });
  t.is(await open.callerOf('auth', laterRefused), undefined, 'unguarded: refused later still counts as none');
  t.is(await failureOf(t, () => open.callerOf('auth', laterDown)), Code.Unavailable);
  t.is(await failureOf(t, () => open.callerOf('auth', () => later(SCOPED))), Code.Unauthenticated, 'a scoped token resolved later is refused on the authentication API');
});

test('a synchronous resolver gives a synchronous answer', (t) => {
  const result = policy().callerOf('management', () => CALLER);
  t.false(result instanceof Promise);
  t.throws(() => policy().callerOf('management', () => undefined), { instanceOf: AppError });
});

test('a namespace-scoped token may not use the authentication API, required or not', async (t) => {
  for (const p of [policy(), policy({ required: false })]) {
    t.is(await failureOf(t, () => p.callerOf('auth', () => SCOPED)), Code.Unauthenticated);
    t.throws(() => p.assertScope('auth', SCOPED, inNamespaces('team')), { instanceOf: AppError }, 'not even naming its own namespace');
  }
  t.is(policy().callerOf('management', () => SCOPED), SCOPED, 'elsewhere it is a caller, held to its namespace later');
});

test('a namespace-scoped token may not use OFREP, whatever the request names', (t) => {
  const p = policy();
  t.is(p.callerOf('ofrep', () => SCOPED), SCOPED);
  const err = t.throws(() => p.assertScope('ofrep', SCOPED, inNamespaces('team')));
  t.like(err, { code: Code.Unauthenticated, message: 'request was not authenticated' });
});

test('on namespaced surfaces a scoped token is held to its namespace', (t) => {
  const p = policy();
  for (const surface of ['management', 'evaluation'] as const) {
    t.notThrows(() => p.assertScope(surface, SCOPED, inNamespaces('team')), `${surface}: own namespace`);
    t.notThrows(() => p.assertScope(surface, SCOPED, inNamespaces('team', 'team')), `${surface}: a batch within it`);
    t.throws(() => p.assertScope(surface, SCOPED, inNamespaces('other')), { instanceOf: AppError }, `${surface}: another namespace`);
    t.throws(() => p.assertScope(surface, SCOPED, inNamespaces('team', 'other')), { instanceOf: AppError }, `${surface}: a batch leaving it`);
    t.throws(() => p.assertScope(surface, SCOPED, UNSCOPED), { instanceOf: AppError }, `${surface}: no single namespace`);
    t.throws(() => p.assertScope(surface, SCOPED, UNDETERMINED), { instanceOf: AppError }, `${surface}: namespace unreadable`);
    t.throws(() => p.assertScope(surface, SCOPED), { instanceOf: AppError }, `${surface}: a route that names no scope`);
  }
  t.notThrows(() => policy().assertScope('management', { ...SCOPED, namespace: 'default' }, inNamespaces('')), 'an empty namespace is default');
});

test('unscoped callers and anonymous requests pass every scope check', (t) => {
  const p = policy();
  for (const surface of SURFACES) {
    for (const caller of [CALLER, undefined]) {
      t.notThrows(() => p.assertScope(surface, caller, inNamespaces('any')), `${surface}`);
      t.notThrows(() => p.assertScope(surface, caller, UNSCOPED), `${surface}`);
      t.notThrows(() => p.assertScope(surface, caller), `${surface}`);
    }
  }
});
