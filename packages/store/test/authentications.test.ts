import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { Code } from '@ensign/core';
import type { AuthMethod, NewAuthentication } from '@ensign/core';
import { openStore } from '@ensign/store';
import type { SqlStore } from '@ensign/store';
import { createTestDatabase, TEST_DIALECTS } from '@ensign/testkit';
import type { TestDialect } from '@ensign/testkit';
import { rejects, steppingClock, useStore } from './helpers/store-harness.js';

const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NAMESPACE = 'io.flipt.auth.token.namespace';

/** A new client token's digest, as the auth package computes it. */
const newDigest = (): string => createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');

const token = (extra: Partial<NewAuthentication> = {}): NewAuthentication => ({
  digest: newDigest(),
  method: 'METHOD_TOKEN',
  metadata: { 'io.flipt.auth.token.name': 'ci' },
  ...extra,
});

const at = (iso: string): Date => new Date(iso);

/** Runs `work` on a migrated store of its own database, for assertions about the whole table. */
async function withOwnStore(
  dialect: TestDialect,
  now: () => Date,
  work: (store: SqlStore, url: string) => Promise<void>,
): Promise<void> {
  const db = await createTestDatabase(dialect);
  const store = await openStore({ url: db.url, now });
  try {
    await store.migrate();
    await work(store, db.url);
  } finally {
    await store.close();
    await db.drop();
  }
}

/** Every page of a listing, following nextPageToken. */
async function allPages(t: ExecutionContext, store: SqlStore, method: AuthMethod | undefined, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let pageToken = '';
  do {
    const page = await store.authentications.list({ ...(method === undefined ? {} : { method }), limit, pageToken });
    pages.push(page.authentications.map((a) => a.id));
    pageToken = page.nextPageToken;
    t.true(pages.length <= 10, 'the listing ends');
  } while (pageToken !== '' && pages.length <= 10);
  return pages;
}

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: an authentication is created and read back by id and by digest`, async (t) => {
    const { store } = h();
    const input = token({
      metadata: { 'io.flipt.auth.token.name': 'deploy bot', 'io.flipt.auth.token.description': 'ünïcode "quoted"\n' },
      expiresAt: at('2099-05-06T07:08:09.123Z'),
    });
    const created = await store.authentications.create(input);
    t.regex(created.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    t.regex(created.createdAt, STAMP);
    t.deepEqual(created, {
      id: created.id,
      method: 'METHOD_TOKEN',
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
      expiresAt: '2099-05-06T07:08:09.123Z',
      metadata: input.metadata,
    });
    t.deepEqual(await store.authentications.get(created.id), created);
    t.deepEqual(await store.authentications.getByDigest(input.digest), created);

    const forever = await store.authentications.create(token({ method: 'METHOD_OIDC', metadata: {} }));
    t.false('expiresAt' in forever);
    t.deepEqual(await store.authentications.get(forever.id), forever);

    t.is(await store.authentications.get('00000000-0000-4000-8000-000000000000'), undefined);
    t.is(await store.authentications.getByDigest(newDigest()), undefined);
  });

  test(`${dialect}: a digest is stored once; a second authentication with it is refused`, async (t) => {
    const { store } = h();
    const input = token();
    const first = await store.authentications.create(input);
    const again = token({ digest: input.digest, method: 'METHOD_OIDC' });
    await rejects(t, store.authentications.create(again), Code.InvalidArgument, 'authentication is not unique');
    t.deepEqual(await store.authentications.getByDigest(input.digest), first);
  });

  test(`${dialect}: timestamps outside what RFC 3339 can write are refused`, async (t) => {
    const { store } = h();
    const before = await store.authentications.create(token());
    const message = 'invalid field expiresAt: must be a timestamp between the years 0000 and 9999';
    await rejects(t, store.authentications.create(token({ expiresAt: new Date(NaN) })), Code.InvalidArgument, message);
    await rejects(t, store.authentications.create(token({ expiresAt: at('+010000-01-01T00:00:00.000Z') })), Code.InvalidArgument, message);
    await rejects(t, store.authentications.expire(before.id, new Date(NaN)), Code.InvalidArgument, message);
    t.deepEqual(await store.authentications.get(before.id), before);
  });

  test(`${dialect}: expire sets expiresAt and updatedAt; delete reports whether it deleted`, async (t) => {
    const { store } = h();
    const created = await store.authentications.create(token());
    await store.authentications.expire(created.id, at('2030-01-02T03:04:05.006Z'));
    const expired = await store.authentications.get(created.id);
    t.like(expired, { id: created.id, createdAt: created.createdAt, expiresAt: '2030-01-02T03:04:05.006Z', metadata: created.metadata });
    t.true((expired?.updatedAt ?? '') > created.updatedAt);
    t.regex(expired?.updatedAt ?? '', STAMP);

    await t.notThrowsAsync(store.authentications.expire('00000000-0000-4000-8000-000000000000', new Date()));
    t.true(await store.authentications.delete(created.id));
    t.is(await store.authentications.get(created.id), undefined);
    t.false(await store.authentications.delete(created.id));
  });

  test(`${dialect}: authentication writes bump no namespace revision and announce no change`, async (t) => {
    const { store, changes } = h();
    const revision = await store.revision('default');
    const created = await store.authentications.create(token({ metadata: { [NAMESPACE]: 'default' } }));
    await store.authentications.expire(created.id, at('2000-01-01T00:00:00.000Z'));
    await store.authentications.deleteExpired(at('2001-01-01T00:00:00.000Z'));
    t.is(await store.revision('default'), revision);
    t.deepEqual(changes, []);
  });

  test(`${dialect}: list pages oldest first, filters by method and rejects a foreign page token`, async (t) => {
    await withOwnStore(dialect, steppingClock(), async (store) => {
      const tokens: string[] = [];
      const sessions: string[] = [];
      for (let i = 0; i < 5; i++) {
        tokens.push((await store.authentications.create(token())).id);
        sessions.push((await store.authentications.create(token({ method: 'METHOD_GITHUB' }))).id);
      }
      const oldestFirst = (ids: string[]) => [...ids];
      const everything = oldestFirst(tokens.flatMap((id, i) => [id, sessions[i] ?? '']));

      t.deepEqual(await allPages(t, store, undefined, 4), [everything.slice(0, 4), everything.slice(4, 8), everything.slice(8)]);
      const oldestTokens = oldestFirst(tokens);
      t.deepEqual(await allPages(t, store, 'METHOD_TOKEN', 2), [oldestTokens.slice(0, 2), oldestTokens.slice(2, 4), oldestTokens.slice(4)]);
      t.deepEqual(await allPages(t, store, 'METHOD_GITHUB', 5), [oldestFirst(sessions)]);
      t.deepEqual(await allPages(t, store, 'METHOD_KUBERNETES', 5), [[]]);

      const page = await store.authentications.list({ limit: 3, pageToken: '3' });
      t.deepEqual(page.authentications.map((a) => a.id), everything.slice(3, 6));
      t.is(page.nextPageToken, '6');
      t.deepEqual(await store.authentications.list({ limit: 3, pageToken: '50' }), { authentications: [], nextPageToken: '' });
      for (const bad of ['abc', '-1', '1.5', 'eyJrZXkiOiIiLCJvZmZzZXQiOjJ9']) {
        await rejects(t, store.authentications.list({ limit: 3, pageToken: bad }), Code.InvalidArgument, `pageToken is not valid: ${JSON.stringify(bad)}`);
      }
    });
  });

  test(`${dialect}: list holds 25 by default and 100 at most; equal creation times order by id`, async (t) => {
    const fixed = at('2030-01-01T00:00:00.000Z');
    await withOwnStore(dialect, () => fixed, async (store) => {
      const ids: string[] = [];
      for (let i = 0; i < 101; i++) ids.push((await store.authentications.create(token())).id);
      const byId = [...ids].sort();

      const byDefault = await store.authentications.list({ limit: 0 });
      t.deepEqual(byDefault.authentications.map((a) => a.id), byId.slice(0, 25));
      t.is(byDefault.nextPageToken, '25');
      const capped = await store.authentications.list({ limit: 1000 });
      t.deepEqual(capped.authentications.map((a) => a.id), byId.slice(0, 100));
      t.is(capped.nextPageToken, '100');
      const rest = await store.authentications.list({ limit: 1000, pageToken: capped.nextPageToken });
      t.deepEqual(rest, { authentications: [await mustGet(store, byId[100])], nextPageToken: '' });
    });
  });

  test(`${dialect}: exists tells whether any authentication of a method is stored`, async (t) => {
    await withOwnStore(dialect, steppingClock(), async (store) => {
      t.false(await store.authentications.exists('METHOD_TOKEN'));
      const session = await store.authentications.create(token({ method: 'METHOD_OIDC' }));
      t.false(await store.authentications.exists('METHOD_TOKEN'));
      t.true(await store.authentications.exists('METHOD_OIDC'));
      // An expired authentication still exists until it is cleaned up.
      await store.authentications.expire(session.id, at('2000-01-01T00:00:00.000Z'));
      t.true(await store.authentications.exists('METHOD_OIDC'));
      await store.authentications.delete(session.id);
      t.false(await store.authentications.exists('METHOD_OIDC'));
    });
  });

  test(`${dialect}: deleteExpired removes only what expired before the cutoff`, async (t) => {
    await withOwnStore(dialect, steppingClock(), async (store) => {
      const cutoff = at('2030-06-01T00:00:00.000Z');
      const old = await store.authentications.create(token({ expiresAt: at('2030-05-31T23:59:59.999Z') }));
      const older = await store.authentications.create(token({ method: 'METHOD_KUBERNETES', expiresAt: at('2001-01-01T00:00:00.000Z') }));
      const atCutoff = await store.authentications.create(token({ expiresAt: cutoff }));
      const later = await store.authentications.create(token({ method: 'METHOD_OIDC', expiresAt: at('2030-06-01T00:00:00.001Z') }));
      const never = await store.authentications.create(token());

      t.is(await store.authentications.deleteExpired(cutoff), 2);
      t.is(await store.authentications.get(old.id), undefined);
      t.is(await store.authentications.get(older.id), undefined);
      for (const kept of [atCutoff, later, never]) t.deepEqual(await store.authentications.get(kept.id), kept);
      t.is(await store.authentications.deleteExpired(cutoff), 0);
    });
  });

  // In one process, better-sqlite3 waits for a lock synchronously, so SQLite instances run in turn.
  const together = dialect !== 'sqlite';
  test(`${dialect}: two instances cleaning up ${together ? 'at once' : 'in turn'} both succeed and delete each row once`, async (t) => {
    await withOwnStore(dialect, steppingClock(), async (store, url) => {
      const other = await openStore({ url });
      try {
        const cutoff = at('2030-06-01T00:00:00.000Z');
        for (let i = 0; i < 40; i++) await store.authentications.create(token({ expiresAt: at(`2030-05-0${1 + (i % 9)}T00:00:00.000Z`) }));
        const live = await store.authentications.create(token({ expiresAt: at('2030-07-01T00:00:00.000Z') }));
        const cleanUp = (instance: SqlStore) => instance.authentications.deleteExpired(cutoff);
        const [a, b] = together ? await Promise.all([cleanUp(store), cleanUp(other)]) : [await cleanUp(store), await cleanUp(other)];
        t.is(a + b, 40);
        t.deepEqual((await other.authentications.list({ limit: 100 })).authentications, [live]);
      } finally {
        await other.close();
      }
    });
  });

  test(`${dialect}: the digests' fingerprint moves with every create, expiry and delete, as any store on the database reads it`, async (t) => {
    await withOwnStore(dialect, steppingClock(), async (store, url) => {
      const other = await openStore({ url });
      try {
        const empty = await store.authentications.digestsFingerprint();
        t.is(await other.authentications.digestsFingerprint(), empty, 'an unchanged table reads the same');
        const seen = [empty];
        const created = await store.authentications.create(token());
        seen.push(await other.authentications.digestsFingerprint());
        await store.authentications.expire(created.id, at('2031-01-01T00:00:00.000Z'));
        seen.push(await other.authentications.digestsFingerprint());
        await store.authentications.create(token());
        seen.push(await other.authentications.digestsFingerprint());
        await store.authentications.delete(created.id);
        const last = await other.authentications.digestsFingerprint();
        seen.push(last);
        t.is(new Set(seen).size, seen.length, seen.join(' '));
        t.is(await store.authentications.digestsFingerprint(), last);
      } finally {
        await other.close();
      }
    });
  });

  test(`${dialect}: listLiveDigests holds every unexpired authentication with its namespace`, async (t) => {
    await withOwnStore(dialect, steppingClock(), async (store) => {
      const now = at('2030-06-01T12:00:00.000Z');
      const scoped = token({ metadata: { [NAMESPACE]: '  team-a ' } });
      const blank = token({ metadata: { [NAMESPACE]: '   ' }, expiresAt: at('2030-06-02T00:00:00.000Z') });
      const session = token({ method: 'METHOD_OIDC', metadata: { 'io.flipt.auth.email': 'a@example.com' }, expiresAt: now });
      const pod = token({ method: 'METHOD_KUBERNETES', metadata: {}, expiresAt: at('2030-06-01T12:30:00.000Z') });
      const expired = token({ metadata: { [NAMESPACE]: 'team-b' }, expiresAt: at('2030-06-01T11:59:59.999Z') });
      const expiredPod = token({ method: 'METHOD_KUBERNETES', metadata: {}, expiresAt: at('2029-01-01T00:00:00.000Z') });
      for (const input of [scoped, blank, session, pod, expired, expiredPod]) await store.authentications.create(input);

      const live = await store.authentications.listLiveDigests(now);
      const byDigest = (a: { digest: string }, b: { digest: string }) => (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0);
      t.deepEqual(
        [...live].sort(byDigest),
        [
          { digest: scoped.digest, method: 'METHOD_TOKEN', namespace: 'team-a' },
          { digest: blank.digest, method: 'METHOD_TOKEN', expiresAt: '2030-06-02T00:00:00.000Z' },
          { digest: session.digest, method: 'METHOD_OIDC', expiresAt: '2030-06-01T12:00:00.000Z' },
          { digest: pod.digest, method: 'METHOD_KUBERNETES', expiresAt: '2030-06-01T12:30:00.000Z' },
        ].sort(byDigest),
      );
      t.deepEqual(await store.authentications.listLiveDigests(at('2040-01-01T00:00:00.000Z')), [
        { digest: scoped.digest, method: 'METHOD_TOKEN', namespace: 'team-a' },
      ]);
    });
  });
}

async function mustGet(store: SqlStore, id: string | undefined): Promise<unknown> {
  const found = id === undefined ? undefined : await store.authentications.get(id);
  if (found === undefined) throw new Error(`authentication ${String(id)} not found`);
  return found;
}
