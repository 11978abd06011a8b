import type { Knex } from 'knex';
import * as initialSchema from './0001-initial-schema.js';
import * as namespaceTombstones from './0002-namespace-tombstones.js';
import * as authentications from './0003-authentications.js';
import * as auditEvents from './0004-audit-events.js';
import * as evaluationCounts from './0005-evaluation-counts.js';
import * as flagTiming from './0006-flag-timing.js';
import * as changeRequests from './0007-change-requests.js';
import * as changePolicies from './0008-change-policies.js';
import * as changeRequestBases from './0009-change-request-bases.js';
import * as constraintSegmentIndex from './0010-constraint-segment-index.js';

/** A migration module: a stable name and its up/down steps. */
export interface MigrationModule extends Knex.Migration {
  name: string;
}

/** Every migration, in the order they apply. Imported statically so a bundle carries them. */
export const MIGRATIONS: readonly MigrationModule[] = [initialSchema, namespaceTombstones, authentications, auditEvents, evaluationCounts, flagTiming, changeRequests, changePolicies, changeRequestBases, constraintSegmentIndex];

/** Hands knex the bundled migrations instead of reading a directory. */
export const migrationSource: Knex.MigrationSource<MigrationModule> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => migration,
};

/** The knex table that records applied migrations. */
export const MIGRATION_TABLE = 'ensign_migrations';
