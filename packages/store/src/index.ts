export { adaptDbError } from './adapt-db-error.js';
export type { DbErrorHints } from './adapt-db-error.js';
export { parseDatabaseUrl } from './database-url.js';
export type { ParsedDatabaseUrl } from './database-url.js';
export { MIGRATION_TABLE, MIGRATIONS } from './migrations/index.js';
export { openStore } from './open-store.js';
export type { SqlStore } from './open-store.js';
export { KnexAuthenticationRepository } from './repositories/knex-authentication.repository.js';
export { KnexConstraintRepository } from './repositories/knex-constraint.repository.js';
export { KnexDistributionRepository } from './repositories/knex-distribution.repository.js';
export { KnexFlagRepository } from './repositories/knex-flag.repository.js';
export { KnexNamespaceRepository } from './repositories/knex-namespace.repository.js';
export { KnexRolloutRepository } from './repositories/knex-rollout.repository.js';
export { KnexRuleRepository } from './repositories/knex-rule.repository.js';
export { KnexSegmentRepository } from './repositories/knex-segment.repository.js';
export { KnexVariantRepository } from './repositories/knex-variant.repository.js';
export type {
  AuthMethod,
  AuthenticationPage,
  AuthenticationQuery,
  LiveDigest,
  NewAuthentication,
  StoredAuthentication,
} from './authentication.types.js';
export type { CommitListener, CommittedChange, Dialect, FlagsState, SnapshotEffect, StoreOptions } from './types.js';
export type { NamespaceRevision, NamespaceState, NamespaceStateRollout, NamespaceStateRule } from './types.js';
