/**
 * `ensign change-request list|show|approve|apply` as a user runs it, against the control plane's
 * HTTP API on a port with tokens required: a request reviewed by another token and applied, the
 * readable and JSON views, and every refusal exiting 1 with the server's message.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { AccessPolicy, Authenticator, currentActor, issueToken } from '@ensign/auth';
import { createApp } from '@ensign/control-plane';
import { openStore, type SqlStore } from '@ensign/store';
import { freePort } from '@ensign/testkit';
import { pino } from 'pino';
import { run } from '../src/run.js';

const SESSION = { domain: '', secure: false, tokenLifetimeMs: 3_600_000, stateLifetimeMs: 600_000, csrfKey: 'test-csrf-key' };

let dir: string;
let store: SqlStore;
let server: Server;
let base: string;
const tokens = { alice: '', bob: '' };

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `ensign change-request <args…>` against the test server. */
async function ensign(...args: string[]): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const io = { env: {}, stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), waitForStop: () => new Promise<string>(() => undefined) };
  const code = await run(['change-request', ...args], io);
  return { code, stdout, stderr };
}

const as = (who: keyof typeof tokens): string[] => ['-a', base, '-t', tokens[who]];

async function api(method: string, path: string, who: keyof typeof tokens, json?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const body = (await res.json()) as unknown;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const requests = '/api/v1/namespaces/prod/change-requests';
const turnOn = { method: 'PUT', path: '/api/v1/namespaces/prod/flags/checkout', body: { name: 'Checkout', enabled: true } };
const newFlag = (key: string) => ({ method: 'POST', path: '/api/v1/namespaces/prod/flags', body: { key, name: key, type: 'BOOLEAN_FLAG_TYPE' } });

/** A request by alice, submitted for review. */
async function inReview(title: string, changes: object[]): Promise<{ id: string; digest: string }> {
  const made = await api('POST', requests, 'alice', { title, description: '', changes });
  await api('POST', `${requests}/${made.id}/submit`, 'alice', {});
  return made;
}

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ensign-cli-change-requests-'));
  store = await openStore({ url: `file:${join(dir, 'x.db')}`, actor: currentActor });
  await store.migrate();
  const policy = new AccessPolicy({ required: true, exclude: { management: false, evaluation: false, ofrep: false } });
  const methods = { token: true, github: false, oidcProviders: [], kubernetes: false, jwt: false };
  const auth = { store: store.authentications, authenticator: new Authenticator({ store: store.authentications }), policy, session: SESSION, methods };
  server = createServer(createApp({ store, logger: pino({ level: 'silent' }), auth, changeRequests: store }).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const who of ['alice', 'bob'] as const) tokens[who] = (await issueToken(store.authentications, { name: who, description: '' })).clientToken;
  await store.namespaces.create({ key: 'prod', name: 'Production', description: '' });
  await store.flags.create({ namespaceKey: 'prod', key: 'checkout', name: 'Checkout', description: '', enabled: false, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined });
});

test.after.always(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

test.serial('list and show a request in review, approve it as another token, apply it: the flag is on', async (t) => {
  const made = await inReview('Launch checkout', [turnOn, newFlag('banner')]);

  const listed = await ensign('list', '-n', 'prod', ...as('alice'));
  t.is(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split('\n');
  t.regex(lines[0]!, /^ID\s+STATE\s+TITLE\s+AUTHOR\s+APPROVALS$/);
  t.true(lines.some((line) => new RegExp(`^${made.id}\\s+in_review\\s+Launch checkout\\s+alice\\s+0/1$`).test(line)), listed.stdout);
  t.is((await ensign('list', '-n', 'prod', '--state', 'applied,cancelled', ...as('alice'))).stdout, '(no change requests)\n');

  const shown = await ensign('show', made.id, '-n', 'prod', ...as('bob'));
  t.is(shown.code, 0, shown.stderr);
  t.true(shown.stdout.startsWith('Launch checkout\n'), shown.stdout);
  for (const line of [
    `  id:        ${made.id}`,
    '  state:     in_review',
    '  author:    alice',
    `  digest:    ${made.digest}`,
    '  approvals: 0/1',
    '  1. PUT /api/v1/namespaces/prod/flags/checkout',
    '     {"name":"Checkout","enabled":true}',
    '  2. POST /api/v1/namespaces/prod/flags',
    'Diff:',
    '  updated flag "checkout"',
    '      enabled: false → true',
    '  created flag "banner"',
  ]) {
    t.true(shown.stdout.split('\n').includes(line), `${line}\n${shown.stdout}`);
  }
  const raw = await ensign('show', made.id, '-n', 'prod', '--json', ...as('bob'));
  t.like(JSON.parse(raw.stdout), { id: made.id, digest: made.digest, state: 'in_review', diff: [{ action: 'updated', key: 'checkout' }, { action: 'created', key: 'banner' }] });

  const approved = await ensign('approve', made.id, '-n', 'prod', '--digest', made.digest, ...as('bob'));
  t.is(approved.code, 0, approved.stderr);
  t.is(approved.stdout, `approved change request ${made.id}: approved (1/1 approvals)\n`);

  const applied = await ensign('apply', made.id, '-n', 'prod', ...as('alice'));
  t.is(applied.code, 0, applied.stderr);
  t.regex(applied.stdout, new RegExp(`^applied change request ${made.id} at revision \\d+\\n$`));
  t.true((await api('GET', '/api/v1/namespaces/prod/flags/checkout', 'alice')).enabled);
  t.is((await api('GET', '/api/v1/namespaces/prod/flags/banner', 'alice')).key, 'banner');
  const after = await ensign('show', made.id, '-n', 'prod', ...as('alice'));
  t.regex(after.stdout, /^ {2}state: {5}applied$/m);
  t.regex(after.stdout, /^ {2}applied: {3}revision \d+$/m);
  t.regex(after.stdout, /^ {2}\S+ {2}approved by bob$/m);
});

test('apply --at schedules an approved request', async (t) => {
  const made = await inReview('Later', [newFlag('later')]);
  await api('POST', `${requests}/${made.id}/approvals`, 'bob', {});
  const scheduled = await ensign('apply', made.id, '-n', 'prod', '--at', '2999-01-01T00:00:00Z', ...as('alice'));
  t.is(scheduled.code, 0, scheduled.stderr);
  t.is(scheduled.stdout, `scheduled change request ${made.id} for 2999-01-01T00:00:00.000Z\n`);
});

test('what the server refuses exits 1 with its message; nothing is printed on stdout', async (t) => {
  const made = await inReview('Mine', [newFlag('mine')]);
  const own = await ensign('approve', made.id, '-n', 'prod', ...as('alice'));
  t.deepEqual(own, { code: 1, stdout: '', stderr: `ensign: POST ${requests}/${made.id}/approvals: the author of change request "${made.id}" cannot approve it\n` });
  const stale = await ensign('approve', made.id, '-n', 'prod', '--digest', '0'.repeat(64), ...as('bob'));
  t.is(stale.code, 1);
  t.regex(stale.stderr, /its changes were replaced; review them again\n$/);
  const early = await ensign('apply', made.id, '-n', 'prod', ...as('alice'));
  t.is(early.code, 1);
  t.regex(early.stderr, /^ensign: POST .*\/apply: change request ".*" is not approved/);
  t.deepEqual(await ensign('show', 'nope', '-n', 'prod', ...as('alice')), { code: 1, stdout: '', stderr: `ensign: GET ${requests}/nope: change request "prod/nope" not found\n` });
  t.deepEqual(await ensign('list', '-n', 'prod', '--state', 'drafted', ...as('alice')), {
    code: 1,
    stdout: '',
    stderr: `ensign: GET ${requests}: invalid field state: "drafted" is not one of draft, in_review, approved, scheduled, applied, rejected, cancelled\n`,
  });
  const anonymous = await ensign('list', '-n', 'prod', '-a', base);
  t.deepEqual(anonymous, { code: 1, stdout: '', stderr: `ensign: GET ${requests}: request was not authenticated\n` });
  const closed = `http://127.0.0.1:${await freePort()}`;
  const unreachable = await ensign('list', '-n', 'prod', '-a', closed);
  t.is(unreachable.code, 1);
  t.true(unreachable.stderr.startsWith(`ensign: cannot reach ${closed}: `), unreachable.stderr);
});

test('a bad command line exits 2 naming what is wrong', async (t) => {
  const usage = async (...args: string[]) => {
    const outcome = await ensign(...args);
    t.is(outcome.code, 2, args.join(' '));
    return outcome.stderr.split('\n')[0];
  };
  t.is(await usage(), 'ensign: missing subcommand (list, show, approve, apply)');
  t.is(await usage('merge', 'x', '-n', 'prod', '-a', 'http://h'), 'ensign: unknown subcommand "merge" (list, show, approve, apply)');
  t.is(await usage('show', '-n', 'prod', '-a', 'http://h'), 'ensign: show needs the change request\'s id');
  t.is(await usage('list', 'x', '-n', 'prod', '-a', 'http://h'), 'ensign: unexpected argument "x"');
  t.is(await usage('list', '-a', 'http://h'), 'ensign: list needs --namespace');
  t.is(await usage('list', '-n', 'prod'), 'ensign: list needs --address');
  t.is(await usage('apply', 'x', '-n', 'prod', '-a', 'http://h', '--digest', 'd'), 'ensign: --digest is not a flag of "change-request apply"');
  t.is(await usage('approve', 'x', '-n', 'prod', '-a', 'http://h', '--at', '2999-01-01T00:00:00Z'), 'ensign: --at is not a flag of "change-request approve"');
  t.is(await usage('list', '-n', 'prod', '-a', 'http://h', '--drop'), 'ensign: unknown flag --drop for "ensign change-request"');
});
