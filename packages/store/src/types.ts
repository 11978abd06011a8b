import type { Flag, Namespace, Rollout, Rule, Segment } from '@ensign/core';

/** The SQL engines the store speaks to. */
export type Dialect = 'sqlite' | 'postgres' | 'mysql' | 'cockroach';

/** What a committed write did to a namespace; snapshot publishers key on it. */
export interface NamespaceChange {
  namespaceKey: string;
  /** The namespace's revision after the write. */
  revision: number;
  /** True when the write deleted the namespace itself. */
  deleted: boolean;
}

/** How to open a store; the CLI maps its `db.*` configuration onto this. */
export interface StoreOptions {
  /**
   * `file:…`, `sqlite:…`, `sqlite3:…`, `postgres://…`, `postgresql://…`, `mysql://…`,
   * `cockroach://…`, `cockroachdb://…` or `crdb://…`.
   */
  url: string;
  /** Pool maximum; 0 or undefined means the default (10). SQLite always uses one connection. */
  maxOpenConn?: number;
  /** Pool minimum (connections kept open while idle). */
  maxIdleConn?: number;
  /** Idle connections older than this are closed; 0 or undefined keeps them. */
  connMaxLifetimeMs?: number;
  /** Clock for createdAt/updatedAt; tests pass a fake one. */
  now?: () => Date;
  /** Called after every committed write, outside the transaction; its exceptions are ignored. */
  onCommit?: (change: NamespaceChange) => void;
  /**
   * The better-sqlite3 addon (its loaded exports) to use instead of the one in `node_modules`: a
   * single-file executable carries its own.
   */
  sqliteNativeBinding?: object;
}

/** A rule with its segment keys in request order, however many (the wire form puts one in `segmentKey`, several in `segmentKeys`). */
export interface NamespaceStateRule extends Rule {
  segmentKeysInOrder: string[];
}

/** A rollout with its segment keys in request order; `[]` for a threshold rollout. */
export interface NamespaceStateRollout extends Rollout {
  segmentKeysInOrder: string[];
}

/** Everything a namespace's snapshot is built from, read at one point in time. */
export interface NamespaceState {
  namespace: Namespace;
  /** The revision these rows are at. */
  revision: number;
  /** By creation, each with its variants (by creation) and `defaultVariant` when set. */
  flags: Flag[];
  /** Every rule of the namespace, by flag key then rank; distributions by creation. */
  rules: NamespaceStateRule[];
  /** Every rollout of the namespace, by flag key then rank. */
  rollouts: NamespaceStateRollout[];
  /** By creation, each with its constraints (by creation). */
  segments: Segment[];
}

/** A namespace and its current revision. */
export interface NamespaceRevision {
  key: string;
  revision: number;
}
