import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { type Actor, type ChangeRecord, notFound, unavailable } from '@ensign/core';
import { CommitListeners, DEFAULT_COMMIT_WAIT_MS } from './commit-listeners.js';
import { parseDatabaseUrl } from './database-url.js';
import { knexConfig } from './knex-config.js';
import { enablePreparedStatements } from './prepared-statements.js';
import { listNamespaceRevisions, readNamespaceState } from './loaders/namespace-state.loader.js';
import { listPending, migrateLatest } from './migrator.js';
import { NamespaceModel } from './models/namespace.model.js';
import { KnexAuditRepository } from './repositories/knex-audit.repository.js';
import { KnexAuthenticationRepository } from './repositories/knex-authentication.repository.js';
import { KnexChangePolicyRepository } from './repositories/knex-change-policy.repository.js';
import { KnexChangeRequestRepository } from './repositories/knex-change-request.repository.js';
import { KnexConstraintRepository } from './repositories/knex-constraint.repository.js';
import { KnexDistributionRepository } from './repositories/knex-distribution.repository.js';
import { KnexDocumentRepository } from './repositories/knex-document.repository.js';
import { KnexFlagRepository } from './repositories/knex-flag.repository.js';
import { KnexNamespaceRepository } from './repositories/knex-namespace.repository.js';
import { KnexRolloutRepository } from './repositories/knex-rollout.repository.js';
import { KnexRuleRepository } from './repositories/knex-rule.repository.js';
import { KnexScheduleRepository } from './repositories/knex-schedule.repository.js';
import { KnexSegmentRepository } from './repositories/knex-segment.repository.js';
import { KnexUsageRepository } from './repositories/knex-usage.repository.js';
import { KnexVariantRepository } from './repositories/knex-variant.repository.js';
import { Transactor } from './transactor.js';
import type { CommitListener, Dialect, NamespaceRevision, NamespaceState, StoreOptions } from './types.js';

/** The management store on one SQL database: every repository plus schema and health upkeep. */
export interface SqlStore {
  readonly dialect: Dialect;
  readonly namespaces: KnexNamespaceRepository;
  readonly flags: KnexFlagRepository;
  readonly variants: KnexVariantRepository;
  readonly segments: KnexSegmentRepository;
  readonly constraints: KnexConstraintRepository;
  readonly rules: KnexRuleRepository;
  readonly distributions: KnexDistributionRepository;
  readonly rollouts: KnexRolloutRepository;
  /** Flags' scheduled changes, and every step (schedule, window edge, ramp step) taken when its time comes. */
  readonly schedules: KnexScheduleRepository;
  /** Change requests: proposed changes reviewed, approved per digest, and applied as one revision. */
  readonly changeRequests: KnexChangeRequestRepository;
  /** Protected namespaces: approvals their change requests need; direct writes to them are refused. */
  readonly changePolicies: KnexChangePolicyRepository;
  /** Authentications of `/auth/v1`; not flag state, so their writes bump no namespace revision. */
  readonly authentications: KnexAuthenticationRepository;
  /** The history of changes, one entry per committed write. */
  readonly audit: KnexAuditRepository;
  /** Whole namespaces as Flipt documents: export, and import in one change per namespace. */
  readonly documents: KnexDocumentRepository;
  /** Evaluation counts sent by the processes that evaluate, per minute and per hour. */
  readonly usage: KnexUsageRepository;
  /** Applies pending migrations (safe when several instances start at once); returns their names. */
  migrate(): Promise<string[]>;
  /** Names of the migrations not applied yet. */
  pendingMigrations(): Promise<string[]>;
  /** Resolves when the database answers and no migration is pending; rejects otherwise. */
  ping(): Promise<void>;
  /**
   * Runs `work`, whose writes through the repositories (all to `namespaceKey`) commit as one
   * transaction and one revision, all or nothing; `revision` is undefined when nothing changed.
   */
  batch<T>(namespaceKey: string, work: () => Promise<T>, actor?: Actor): Promise<{ value: T; revision: number | undefined }>;
  /** Runs `work` as `batch` would and rolls it back: the change records it would make, nothing written. */
  trial<T>(namespaceKey: string, work: () => Promise<T>, actor?: Actor): Promise<{ value: T; records: ChangeRecord[] }>;
  /** The namespace's current revision; NotFound when there is no such namespace. */
  revision(namespaceKey: string): Promise<number>;
  /**
   * Everything a namespace's snapshot is built from, read in one consistent transaction so the
   * revision and the rows agree; undefined when the namespace does not exist.
   */
  readNamespaceState(namespaceKey: string): Promise<NamespaceState | undefined>;
  /** Every namespace with its current revision (start-up loading, reconciliation). */
  listNamespaceRevisions(): Promise<NamespaceRevision[]>;
  /**
   * Hears of every committed write with its change record and snapshot effect; the write answers
   * once its listeners settle (at most `commitWaitMs`). Returns the unsubscribe.
   */
  onCommit(listener: CommitListener): () => void;
  /**
   * Hears the SQL of every statement sent to the database (BEGIN and COMMIT included), as it is
   * sent, with its name when it goes as a prepared statement, and its bindings; returns the unsubscribe.
   */
  onStatement(listener: (sql: string, preparedAs: string | undefined, bindings: readonly unknown[]) => void): () => void;
  close(): Promise<void>;
}

/** Connects to `options.url` (creating a SQLite file and its directory when missing); does not migrate. */
export async function openStore(options: StoreOptions): Promise<SqlStore> {
  const parsed = parseDatabaseUrl(options.url);
  if (parsed.dialect === 'sqlite') {
    const { filename } = parsed.connection as Knex.BetterSqlite3ConnectionConfig;
    if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  }
  const knex = knexFactory(knexConfig(parsed, options));
  if (options.preparedStatements !== false) enablePreparedStatements(knex);
  try {
    await knex.raw('select 1');
  } catch (err) {
    await knex.destroy();
    throw err;
  }
  const listeners = new CommitListeners(options.commitWaitMs ?? DEFAULT_COMMIT_WAIT_MS);
  const actorOf = options.actor ?? (() => undefined);
  const tx = new Transactor(knex, parsed.dialect, options.now ?? (() => new Date()), actorOf, listeners);

  return {
    dialect: parsed.dialect,
    namespaces: new KnexNamespaceRepository(tx),
    flags: new KnexFlagRepository(tx),
    variants: new KnexVariantRepository(tx),
    segments: new KnexSegmentRepository(tx),
    constraints: new KnexConstraintRepository(tx),
    rules: new KnexRuleRepository(tx),
    distributions: new KnexDistributionRepository(tx),
    rollouts: new KnexRolloutRepository(tx),
    schedules: new KnexScheduleRepository(tx),
    changeRequests: new KnexChangeRequestRepository(tx),
    changePolicies: new KnexChangePolicyRepository(tx),
    authentications: new KnexAuthenticationRepository(tx),
    audit: new KnexAuditRepository(tx),
    documents: new KnexDocumentRepository(tx),
    usage: new KnexUsageRepository(tx),
    migrate: () => migrateLatest(knex),
    pendingMigrations: () => listPending(knex),
    async ping() {
      await knex.raw('select 1');
      const pending = await listPending(knex);
      if (pending.length > 0) {
        throw unavailable(`migrations pending, please backup your database and run \`ensign migrate\` (${pending.join(', ')})`);
      }
    },
    batch: (namespaceKey, work, actor) => tx.batch(namespaceKey, work, actor),
    trial: (namespaceKey, work, actor) => tx.trial(namespaceKey, work, actor),
    async revision(namespaceKey) {
      const row = await tx.read((db) => NamespaceModel.query(db).findById(namespaceKey));
      if (row === undefined) throw notFound(`namespace "${namespaceKey}" not found`);
      return Number(row.revision);
    },
    readNamespaceState: (namespaceKey) => tx.readConsistent((trx) => readNamespaceState(trx, namespaceKey)),
    listNamespaceRevisions: () => tx.read((db) => listNamespaceRevisions(db)),
    onCommit: (listener) => listeners.add(listener),
    onStatement(listener) {
      const heard = (query: { sql: string; options?: { name?: string }; bindings?: readonly unknown[] }) => listener(query.sql, query.options?.name, query.bindings ?? []);
      knex.on('query', heard);
      return () => void knex.off('query', heard);
    },
    close: () => knex.destroy(),
  };
}
