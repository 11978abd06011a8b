import { AsyncLocalStorage } from 'node:async_hooks';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { AppError } from '@ensign/core';
import type { Actor, ChangeRecord, Code } from '@ensign/core';
import { openStore } from '@ensign/store';
import type { CommittedChange, SqlStore } from '@ensign/store';
import { createTestDatabase } from '@ensign/testkit';
import type { TestDatabase, TestDialect } from '@ensign/testkit';

/** A migrated store on a fresh database, plus every change it announced. */
export interface Harness {
  store: SqlStore;
  changes: CommittedChange[];
  /** A namespace no other test uses. */
  namespace(): Promise<string>;
  /** Runs `work` with its writes made by `actor`, as a request's authentication would be. */
  as<T>(actor: Actor, work: () => Promise<T>): Promise<T>;
}

/** The actor of the writes running inside `Harness.as`, per async context so concurrent tests do not mix. */
const actors = new AsyncLocalStorage<Actor>();

/**
 * A clock that moves one second per reading, so every write has its own timestamp. It starts an
 * hour ahead so everything a test creates sorts after the namespace the migration seeded.
 */
export function steppingClock(start = Math.floor(Date.now() / 1000) * 1000 + 3_600_000): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}

let counter = 0;

/** Gives the dialect's tests of this file one migrated database, dropped when they are done. */
export function useStore(dialect: TestDialect): () => Harness {
  let db: TestDatabase | undefined;
  let harness: Harness | undefined;

  test.before(async () => {
    db = await createTestDatabase(dialect);
    const changes: CommittedChange[] = [];
    const store = await openStore({ url: db.url, now: steppingClock(), actor: () => actors.getStore() });
    store.onCommit((c) => {
      changes.push(c);
    });
    await store.migrate();
    harness = {
      store,
      changes,
      as: (actor, work) => actors.run(actor, work),
      async namespace() {
        const key = `ns-${process.pid}-${++counter}`;
        await store.namespaces.create({ key, name: key, description: '' });
        return key;
      },
    };
  });

  test.after.always(async () => {
    await harness?.store.close();
    await db?.drop();
  });

  return () => {
    if (harness === undefined) throw new Error('store not ready');
    return harness;
  };
}

/** Asserts that `promise` rejects with an AppError of this code and exact message. */
export async function rejects(t: ExecutionContext, promise: Promise<unknown>, code: Code, message: string): Promise<void> {
  const err = await t.throwsAsync(promise, { instanceOf: AppError, message });
  t.is((err as AppError | undefined)?.code, code);
}

/** The changes announced for one namespace. */
export const changesOf = (h: Harness, namespaceKey: string): CommittedChange[] =>
  h.changes.filter((c) => c.record.namespaceKey === namespaceKey);

/** The change records announced for one namespace. */
export const recordsOf = (h: Harness, namespaceKey: string): ChangeRecord[] => changesOf(h, namespaceKey).map((c) => c.record);

/** The last change announced for one namespace; throws (failing the test) when there is none. */
export function lastChange(h: Harness, namespaceKey: string): CommittedChange {
  const change = changesOf(h, namespaceKey).at(-1);
  if (change === undefined) throw new Error(`no change announced for ${namespaceKey}`);
  return change;
}
