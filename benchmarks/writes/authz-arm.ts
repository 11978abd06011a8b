/**
 * One arm of the authorization comparison: a database seeded with the write benchmark's namespace,
 * `ensign server` on it requiring a token (the bootstrap one, role admin) with authorization on or
 * off, and an `ensign evaluator` following it over a NATS bucket of its own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore } from '@ensign/store';
import { FLIPT_EXAMPLE_ROLES, testBucket } from '@ensign/testkit';
import { bearerCredential } from '../engine/auth-credentials.js';
import { stop } from '../engine/child-processes.js';
import { type EnsignNode, startNode } from '../propagation/ensign-cluster.js';
import { KeepAliveClient } from '../propagation/keep-alive-client.js';
import { createBenchDatabase } from './bench-database.js';
import { untilRevision } from './held-revision.js';
import { inProcessApi } from './in-process-api.js';
import { seedNamespaceMix } from './namespace-mix.js';
import { OneFlagWrites } from './one-flag-writes.js';
import type { BenchDb } from './options.js';
import type { RunScope } from './run-scope.js';

export interface AuthzArm {
  authorization: boolean;
  /** Its server's client carries the admin token. */
  server: EnsignNode;
  evaluator: EnsignNode;
  /** The same seeded sequence of writes in both arms. */
  writes: OneFlagWrites;
  /** The namespace's revision before the next write. */
  revision: number;
  seedSeconds: number;
  /** A seeded flag, for the viewer's refused update. */
  flagKey: string;
}

/** Seeds `size` flags into a fresh database of `db` and starts the arm's server and evaluator; `scope` stops and drops all of it. */
export async function startAuthzArm(scope: RunScope, db: BenchDb, ns: string, size: number, authorization: boolean): Promise<AuthzArm> {
  const database = await createBenchDatabase(db);
  scope.add(() => database.drop());
  const seedStart = performance.now();
  const { seeded, revision } = await database.seeding(async () => {
    const store = await openStore({ url: database.url });
    try {
      await store.migrate();
      const made = await seedNamespaceMix(inProcessApi(store), ns, size);
      return { seeded: made, revision: await store.revision(ns) };
    } finally {
      await store.close();
    }
  });
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const cwd = mkdtempSync(join(os.tmpdir(), 'ensign-writes-authz-'));
  scope.add(async () => rmSync(cwd, { recursive: true, force: true }));
  const rolesPath = join(cwd, 'roles.json');
  writeFileSync(rolesPath, JSON.stringify(FLIPT_EXAMPLE_ROLES, null, 2));
  const streams = testBucket('ensign_z');
  scope.add(() => streams.drop());

  const credential = bearerCredential();
  const env: Record<string, string> = {
    ...streams.env(),
    ENSIGN_DB_URL: database.url,
    ...credential.env,
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_METADATA: JSON.stringify({ 'io.flipt.auth.role': 'admin' }),
    ...(authorization ? { ENSIGN_AUTHORIZATION_REQUIRED: 'true', ENSIGN_AUTHORIZATION_LOCAL_DATA_PATH: rolesPath } : {}),
  };
  const name = `ensign server (authorization ${authorization ? 'on' : 'off'})`;
  const bare = await startNode(name, 'server', cwd, env);
  scope.add(() => stop(bare.child, 3000));
  const server: EnsignNode = { ...bare, client: new KeepAliveClient(bare.port, { authorization: credential.authorization }) };
  const evaluator = await startNode(`evaluator of the ${name}`, 'evaluator', cwd, streams.env());
  scope.add(() => stop(evaluator.child, 3000));
  if ((await untilRevision(evaluator.client, ns, revision, 60_000, 20)) === undefined) {
    throw new Error(`${name}: the evaluator did not hold namespace ${ns} at revision ${revision} within 60 s`);
  }
  return { authorization, server, evaluator, writes: new OneFlagWrites(seeded), revision, seedSeconds, flagKey: seeded.flags[0]!.key };
}

/**
 * Proof that the arm decides as configured: a token of role viewer is refused a flag update (403)
 * when authorization is on. Resolves the status it got (not sent when off: it would write).
 */
export async function viewerUpdateStatus(arm: AuthzArm, ns: string): Promise<number | undefined> {
  if (!arm.authorization) return undefined;
  const made = await arm.server.client.json('POST', '/auth/v1/method/token', { name: 'bench viewer', description: 'bench:writes authorization arm', metadata: { 'io.flipt.auth.role': 'viewer' } });
  const viewer = new KeepAliveClient(arm.server.port, { authorization: `Bearer ${String(made['clientToken'])}` });
  return (await viewer.send('PUT', `/api/v1/namespaces/${ns}/flags/${arm.flagKey}`, { name: 'refused', enabled: true })).status;
}
