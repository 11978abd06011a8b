import type { Actor, ChangeRecord, Flag, Namespace, Rollout, Rule, Segment } from '@ensign/core';

/** The SQL engines the store speaks to. */
export type Dialect = 'sqlite' | 'postgres' | 'mysql' | 'cockroach';

/** The flags a write touched, read inside its transaction at the revision it committed. */
export interface FlagsState {
  /** The touched flags that still exist, each with its variants (by creation) and `defaultVariant`. */
  flags: Flag[];
  /** Every rule of those flags, by flag key then rank; distributions by creation. */
  rules: NamespaceStateRule[];
  /** Every rollout of those flags, by flag key then rank. */
  rollouts: NamespaceStateRollout[];
  /** The segments those rules and rollouts reference, each with its constraints (by creation). */
  segments: Segment[];
  /** The pending schedules of those flags, by time. */
  schedules: PendingSchedule[];
}

/** A schedule still to take effect, as a snapshot carries it so evaluators flip on their own clock. */
export interface PendingSchedule {
  flagKey: string;
  /** UTC ISO-8601. */
  at: string;
  enabled: boolean;
}

/** What a committed write means for its namespace's evaluation snapshot. */
export type SnapshotEffect =
  /** Flags changed: `state` holds the touched flags that exist, `removed` the keys of touched flags that no longer do. */
  | { kind: 'flags'; state: FlagsState; removed: string[] }
  | { kind: 'namespace-created' }
  | { kind: 'namespace-deleted' }
  /** Nothing evaluation sees changed (a namespace's name, a segment no flag uses); the revision still moves. */
  | { kind: 'none' };

/** One committed write: its change record and what it does to the snapshot, both at `record.revision`. */
export interface CommittedChange {
  record: ChangeRecord;
  effect: SnapshotEffect;
  /** Every change record of a batch of writes committed together (`record` is its last); absent for a single write. */
  batch?: ChangeRecord[];
  /** How long the write took to commit, retries of a raced transaction included. */
  durationMs: number;
}

/**
 * Hears of each committed write, after commit. The write answers once every listener's promise has
 * settled (bounded by `StoreOptions.commitWaitMs`); a listener's failure never fails the write.
 */
export type CommitListener = (change: CommittedChange) => void | Promise<void>;

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
  /** PostgreSQL: send the statements of every write as named prepared statements (true when not set). */
  preparedStatements?: boolean;
  /** Clock for createdAt/updatedAt; tests pass a fake one. */
  now?: () => Date;
  /** Who is writing: read once per write, from the request being served (absent when unauthenticated). */
  actor?: () => Actor | undefined;
  /** How long a write waits for its commit listeners before answering anyway; 5,000 ms when not set. */
  commitWaitMs?: number;
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
  /** Every pending schedule of the namespace, by time. */
  schedules: PendingSchedule[];
}

/** A namespace and its current revision. */
export interface NamespaceRevision {
  key: string;
  revision: number;
}
