import test from 'ava';
import type { ExecutionContext } from 'ava';
import { AppError } from '@ensign/core';
import type { Code } from '@ensign/core';
import { openStore } from '@ensign/store';
import type { NamespaceChange, SqlStore } from '@ensign/store';
import { createTestDatabase } from '@ensign/testkit';
import type { TestDatabase, TestDialect } from '@ensign/testkit';

/** A migrated store on a fresh database, plus every change it announced. */
export interface Harness {
  store: SqlStore;
  changes: NamespaceChange[];
  /** A namespace no other test uses. */
  namespace(): Promise<string>;
}

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
    const changes: NamespaceChange[] = [];
    const store = await openStore({ url: db.url, now: steppingClock(), onCommit: (c) => changes.push(c) });
    await store.migrate();
    harness = {
      store,
      changes,
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
export const changesOf = (h: Harness, namespaceKey: string): NamespaceChange[] =>
  h.changes.filter((c) => c.namespaceKey === namespaceKey);
