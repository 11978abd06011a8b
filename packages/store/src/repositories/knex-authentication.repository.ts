import { randomUUID } from 'node:crypto';
import {
  AUTH_META,
  type AuthenticationPage,
  type AuthenticationQuery,
  type AuthMethod,
  invalid,
  invalidField,
  type LiveDigest,
  type NewAuthentication,
  type StoredAuthentication,
} from '@ensign/core';
import { AuthenticationModel, toAuthentication } from '../models/authentication.model.js';
import type { Transactor } from '../transactor.js';

const TABLE = 'authentications';

// COMPAT(flipt): `/auth/v1/tokens` pages hold 25 by default and 100 at most (storage.QueryParams).
const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

/** Stored timestamps compare as strings, which holds only while every one has a four-digit year. */
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** A Date as stored: UTC ISO-8601 with milliseconds, like every timestamp of the store. */
function stamp(field: string, date: Date): string {
  const ms = date.getTime();
  if (!(ms >= EARLIEST && ms <= LATEST)) throw invalidField(field, 'must be a timestamp between the years 0000 and 9999');
  return date.toISOString();
}

// COMPAT(flipt): the page token of `/auth/v1/tokens` is the decimal offset of the next page.
/** The offset a page token resumes at; '' is the first page. */
function offsetOf(pageToken: string): number {
  if (pageToken === '') return 0;
  const offset = /^\d{1,15}$/.test(pageToken) ? Number(pageToken) : NaN;
  if (!Number.isSafeInteger(offset)) throw invalid(`pageToken is not valid: ${JSON.stringify(pageToken)}`);
  return offset;
}

/** The namespace a token is tied to, or undefined when it is not (absent, empty or blank). */
function namespaceOf(metadataJson: string): string | undefined {
  const value = (JSON.parse(metadataJson) as Record<string, unknown>)[AUTH_META.tokenNamespace];
  const namespace = typeof value === 'string' ? value.trim() : '';
  return namespace === '' ? undefined : namespace;
}

/**
 * Authentications of the `/auth/v1` methods, keyed by the digest of their client token. They are
 * not flag state: writes here neither bump a namespace revision nor reach `onCommit`, but go through
 * the transactor's `statement` like every other write (retried when raced, errors translated).
 * Every method is one statement, so instances sharing the database need no coordination.
 */
export class KnexAuthenticationRepository {
  constructor(private readonly tx: Transactor) {}

  async create(input: NewAuthentication): Promise<StoredAuthentication> {
    const at = this.tx.now();
    const row = {
      id: randomUUID(),
      method: input.method,
      client_token_digest: input.digest,
      metadata: JSON.stringify(input.metadata),
      expires_at: input.expiresAt === undefined ? null : stamp('expiresAt', input.expiresAt),
      created_at: at,
      updated_at: at,
    };
    await this.tx.statement((db) => db(TABLE).insert(row), { notUnique: () => invalid('authentication is not unique') });
    return toAuthentication(row as AuthenticationModel);
  }

  /** The authentication of a client-token digest, expired or not; undefined when none. */
  async getByDigest(digest: string): Promise<StoredAuthentication | undefined> {
    const row = await this.tx.read((db) => AuthenticationModel.query(db).findOne({ client_token_digest: digest }));
    return row === undefined ? undefined : toAuthentication(row);
  }

  async get(id: string): Promise<StoredAuthentication | undefined> {
    const row = await this.tx.read((db) => AuthenticationModel.query(db).findById(id));
    return row === undefined ? undefined : toAuthentication(row);
  }

  /** A page, oldest first (Flipt's order); `limit` ≤ 0 means 25 and more than 100 means 100. */
  async list(query: AuthenticationQuery): Promise<AuthenticationPage> {
    const limit = query.limit > 0 ? Math.min(Math.trunc(query.limit), MAX_LIMIT) : DEFAULT_LIMIT;
    const offset = offsetOf(query.pageToken ?? '');
    const rows = await this.tx.read((db) => {
      const q = AuthenticationModel.query(db)
        .orderBy([
          { column: 'created_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(limit + 1)
        .offset(offset);
      return query.method === undefined ? q : q.where('method', query.method);
    });
    const more = rows.length > limit;
    return {
      authentications: (more ? rows.slice(0, limit) : rows).map(toAuthentication),
      nextPageToken: more ? String(offset + limit) : '',
    };
  }

  /** True when something was deleted. */
  async delete(id: string): Promise<boolean> {
    return (await this.tx.statement((db) => db(TABLE).where({ id }).delete())) > 0;
  }

  /** Sets `expiresAt` (to end a session now or later); an unknown id changes nothing. */
  async expire(id: string, at: Date): Promise<void> {
    const expiresAt = stamp('expiresAt', at);
    await this.tx.statement((db) => db(TABLE).where({ id }).update({ expires_at: expiresAt, updated_at: this.tx.now() }));
  }

  /**
   * Deletes the authentications that expired before `before` in one statement and resolves how
   * many. Instances running it at once each delete what the others have not: the loser of a race
   * for a row just does not count it.
   */
  deleteExpired(before: Date): Promise<number> {
    const cutoff = stamp('before', before);
    return this.tx.statement((db) => db(TABLE).whereNotNull('expires_at').where('expires_at', '<', cutoff).delete());
  }

  /** Whether any authentication of `method` exists. */
  async exists(method: AuthMethod): Promise<boolean> {
    const row: unknown = await this.tx.read((db) => db(TABLE).where({ method }).first('id'));
    return row !== undefined;
  }

  /**
   * What changes whenever an authentication is created, changed or deleted (their number and the
   * latest change), read in one small query, so servers sharing the database notice each other's.
   */
  async digestsFingerprint(): Promise<string> {
    const row = (await this.tx.read((db) => db(TABLE).count({ n: '*' }).max({ at: 'updated_at' }).first())) as { n: number | string; at: string | null } | undefined;
    return `${Number(row?.n ?? 0)}@${row?.at ?? ''}`;
  }

  /**
   * Every authentication, of any method, that has not expired at `now` (one expiring exactly at
   * `now` is still live, as Flipt checks `expiresAt` before now).
   */
  async listLiveDigests(now: Date): Promise<LiveDigest[]> {
    const at = stamp('now', now);
    const rows = (await this.tx.read((db) =>
      db(TABLE)
        .select('client_token_digest', 'method', 'metadata', 'expires_at')
        .where((w) => w.whereNull('expires_at').orWhere('expires_at', '>=', at)),
    )) as Array<Pick<AuthenticationModel, 'client_token_digest' | 'method' | 'metadata' | 'expires_at'>>;
    return rows.map((row) => {
      const namespace = namespaceOf(row.metadata);
      return {
        digest: row.client_token_digest,
        method: row.method,
        ...(namespace === undefined ? {} : { namespace }),
        ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
      };
    });
  }
}
