/**
 * Declarative storage on a real `ensign server`: flags served read-only from Flipt feature files,
 * in a directory (`storage.type: local`) and in a git repository (`storage.type: git`). Files are
 * discovered through `.flipt.yml`, namespaces come from several files, an edit changes evaluations
 * within seconds, an invalid edit keeps the last good state and shows in `/health` and the log,
 * and every management write is refused with Flipt's read-only error after its own validation.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { type EnsignProcess, jsonClient, type JsonClient, runEnsign, scratchDir, startEnsign } from '@ensign/testkit';
import test from 'ava';
import { serviceClient } from '../helpers/grpc-client.js';

const processes: EnsignProcess[] = [];
test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
});

const READ_ONLY = { code: 13, message: 'modification is not allowed in read-only mode', details: [] };

const INDEX = 'version: "1.0"\ninclude:\n  - "*.features.yml"\n  - "teams/**"\nexclude:\n  - "**/draft-*"\n';

/** The shop namespace: a variant flag whose rule sends pro users to `variant` (the default is red). */
const shop = (variant: 'blue' | 'green'): string => `version: "1.4"
namespace: {key: shop, name: Shop, description: The online shop}
flags:
  - key: color
    name: Color
    type: VARIANT_FLAG_TYPE
    enabled: true
    variants:
      - {key: red, name: Red, default: true}
      - {key: blue, name: Blue, attachment: {hex: "#00f"}}
      - {key: green, name: Green}
    rules:
      - segment: pro
        distributions:
          - {variant: ${variant}, rollout: 100}
segments:
  - key: pro
    name: Pro users
    match_type: ALL_MATCH_TYPE
    constraints:
      - {type: STRING_COMPARISON_TYPE, property: plan, operator: eq, value: pro}
`;

const BILLING = JSON.stringify({
  version: '1.4',
  namespace: 'billing',
  flags: [{ key: 'invoices-v2', name: 'Invoices v2', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ threshold: { percentage: 100, value: true } }] }],
});

const variantOf = async (api: JsonClient): Promise<string | undefined> => {
  const res = await api.post('/evaluate/v1/variant', { namespaceKey: 'shop', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
  return res.status === 200 ? (res.body.variantKey as string) : `HTTP ${res.status} ${res.text}`;
};

/** Polls until `check` passes; resolves how long it took (or rejects with the last value). */
async function within<T>(ms: number, read: () => Promise<T>, check: (value: T) => boolean): Promise<number> {
  const started = Date.now();
  let value = await read();
  while (!check(value)) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return Date.now() - started;
}

async function assertReadOnly(t: import('ava').ExecutionContext, server: EnsignProcess): Promise<void> {
  const api = jsonClient(server.baseUrl);
  const refused = [
    await api.post('/api/v1/namespaces', { key: 'new-ns', name: 'New' }),
    await api.post('/api/v1/namespaces/shop/flags', { key: 'another', name: 'Another', type: 'BOOLEAN_FLAG_TYPE' }),
    await api.put('/api/v1/namespaces/shop/flags/color', { name: 'Colour', enabled: false }),
    await api.del('/api/v1/namespaces/shop/flags/color'),
    await api.del('/api/v1/namespaces/shop/flags/no-such-flag'),
    await api.post('/api/v1/namespaces/shop/segments', { key: 'vip', name: 'VIP', matchType: 'ANY_MATCH_TYPE' }),
    await api.put('/api/v1/namespaces/shop/flags/color/rules/order', { ruleIds: ['a', 'b'] }),
    await api.request('POST', '/api/v1/namespaces/shop/import', 'namespace: shop\nflags: []\n', { 'Content-Type': 'application/yaml' }),
  ];
  for (const res of refused) {
    t.is(res.status, 500, res.text);
    t.deepEqual(res.body, READ_ONLY);
  }
  // The request's own validation comes first, as in Flipt.
  const invalid = await api.post('/api/v1/namespaces/shop/flags', { name: 'No key', type: 'BOOLEAN_FLAG_TYPE' });
  t.is(invalid.status, 400, invalid.text);
  t.regex(invalid.body.message, /key/);
  // Reads work.
  t.is((await api.get('/api/v1/namespaces/shop/flags/color')).body.name, 'Color');
  t.deepEqual(((await api.get('/api/v1/namespaces')).body.namespaces as Array<{ key: string }>).map((n) => n.key).sort(), ['billing', 'default', 'shop']);
  // gRPC writes too.
  const grpc = serviceClient(server.grpcAddress, 'flipt.Flipt');
  t.teardown(() => grpc.close());
  const created = await grpc.call('CreateFlag', { namespaceKey: 'shop', key: 'grpc-flag', name: 'gRPC', type: 'BOOLEAN_FLAG_TYPE' });
  t.is(created.code, status.INTERNAL);
  t.is(created.details, READ_ONLY.message);
  t.is((await grpc.call('GetFlag', { namespaceKey: 'shop', key: 'color' })).code, status.OK);
}

test('local: flags from a directory of feature files, followed as they change, read-only', async (t) => {
  const dir = scratchDir('ensign-features-');
  writeFileSync(join(dir, '.flipt.yml'), INDEX);
  writeFileSync(join(dir, 'shop.features.yml'), shop('blue'));
  mkdirSync(join(dir, 'teams'));
  writeFileSync(join(dir, 'teams', 'billing.json'), BILLING);
  // Excluded by the index: it would not even parse.
  writeFileSync(join(dir, 'teams', 'draft-ideas.yml'), 'flags: [unfinished\n');
  const server = await startEnsign({ env: { ENSIGN_STORAGE_TYPE: 'local', ENSIGN_STORAGE_LOCAL_PATH: dir } });
  processes.push(server);
  const api = jsonClient(server.baseUrl);

  t.is(await variantOf(api), 'blue');
  const billing = await api.post('/evaluate/v1/boolean', { namespaceKey: 'billing', flagKey: 'invoices-v2', entityId: 'u1' });
  // As in Flipt, a boolean flag's rollouts are evaluated even while it is disabled.
  t.like(billing.body, { enabled: true, reason: 'MATCH_EVALUATION_REASON' });

  const info = await api.get('/meta/info');
  t.is(info.status, 200);
  t.like(info.body, { storage: { type: 'local', readOnly: true, metadata: { path: dir } } });
  t.regex(info.body.storage.metadata.revision, /^[0-9a-f]{16}$/);
  t.truthy(Date.parse(info.body.storage.metadata.lastSync));

  // An edit is picked up within seconds.
  writeFileSync(join(dir, 'shop.features.yml'), shop('green'));
  const tookMs = await within(20_000, () => variantOf(api), (v) => v === 'green');
  t.log(`edit served after ${tookMs} ms`);
  const good = (await api.get('/health')).body.storage.revision as string;
  t.not(good, info.body.storage.metadata.revision);

  // An invalid edit keeps the last good state, and says why in /health and in the log.
  writeFileSync(join(dir, 'shop.features.yml'), shop('green').replace('{variant: green, rollout: 100}', '{variant: purple, rollout: 100}'));
  await within(20_000, () => api.get('/health'), (res) => res.body.storage?.lastError !== undefined);
  const health = await api.get('/health');
  t.is(health.status, 200, 'still serving');
  t.is(health.body.status, 'SERVING');
  t.like(health.body.storage, { type: 'local', revision: good });
  t.is(health.body.storage.lastError.file, 'shop.features.yml');
  t.is(health.body.storage.lastError.path, 'flags[0].rules[0].distributions[0].variant');
  t.regex(health.body.storage.lastError.message, /^shop\.features\.yml: document 1 \(namespace "shop"\): flags\[0\]\.rules\[0\]\.distributions\[0\]\.variant: /);
  t.is(await variantOf(api), 'green', 'the last good state keeps serving');
  t.regex(server.logs(), /feature files not applied, the last good state keeps serving: shop\.features\.yml/);
  const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
  t.regex(metrics, /ensign_declarative_sync_total\{outcome="invalid"\} [1-9]/);
  t.regex(metrics, /ensign_declarative_last_success_timestamp_seconds \d{10}/);

  // Fixed: served again, the error is gone.
  writeFileSync(join(dir, 'shop.features.yml'), shop('blue'));
  await within(20_000, () => variantOf(api), (v) => v === 'blue');
  t.is((await api.get('/health')).body.storage.lastError, undefined);

  await assertReadOnly(t, server);

  // A namespace no file declares any more is removed.
  rmSync(join(dir, 'teams', 'billing.json'));
  await within(20_000, () => api.get('/api/v1/namespaces/billing'), (res) => res.status === 404);
  t.is(await variantOf(api), 'blue');
});

test('git: flags from a repository, a new commit served once the poll sees it', async (t) => {
  const repo = scratchDir('ensign-features-git-');
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } }).trim();
  git('init', '--quiet', '--initial-branch=main');
  mkdirSync(join(repo, 'flags'));
  writeFileSync(join(repo, 'flags', 'shop.features.yml'), shop('blue'));
  writeFileSync(join(repo, 'flags', '.flipt.yml'), 'include: ["*.features.yml", "*.json"]\n');
  writeFileSync(join(repo, 'flags', 'billing.json'), BILLING);
  writeFileSync(join(repo, 'README.md'), 'not a features file\n');
  git('add', '--all');
  git('commit', '--quiet', '-m', 'first');
  const first = git('rev-parse', 'HEAD');

  const server = await startEnsign({
    env: { ENSIGN_STORAGE_TYPE: 'git', ENSIGN_STORAGE_GIT_REPOSITORY: `file://${repo}`, ENSIGN_STORAGE_GIT_DIRECTORY: 'flags', ENSIGN_STORAGE_GIT_POLL_INTERVAL: '1s' },
  });
  processes.push(server);
  const api = jsonClient(server.baseUrl);
  t.is(await variantOf(api), 'blue');
  t.like((await api.get('/meta/info')).body.storage, { type: 'git', readOnly: true, metadata: { repository: `file://${repo}`, ref: 'main', directory: 'flags', commit: first } });
  t.like((await api.get('/health')).body, { status: 'SERVING', storage: { type: 'git', revision: first } });

  writeFileSync(join(repo, 'flags', 'shop.features.yml'), shop('green'));
  git('commit', '--quiet', '--all', '-m', 'green for pro users');
  const second = git('rev-parse', 'HEAD');
  const tookMs = await within(20_000, () => variantOf(api), (v) => v === 'green');
  t.log(`commit served after ${tookMs} ms`);
  t.is((await api.get('/health')).body.storage.revision, second);

  // A bad commit is reported with its file; the previous commit keeps serving.
  writeFileSync(join(repo, 'flags', 'billing.json'), '{"namespace": "billing", "flags": [{"key": "x", "type": "NOPE_FLAG_TYPE"}]}');
  git('commit', '--quiet', '--all', '-m', 'broken');
  await within(20_000, () => api.get('/health'), (res) => res.body.storage?.lastError !== undefined);
  const health = (await api.get('/health')).body;
  t.is(health.storage.revision, second);
  t.is(health.storage.lastError.file, 'billing.json');
  t.is(await variantOf(api), 'green');
  await assertReadOnly(t, server);
});

test('start-up: invalid files, a repository that cannot be cloned and read_only: false are refused', async (t) => {
  const dir = scratchDir('ensign-features-bad-');
  writeFileSync(join(dir, 'features.yml'), 'namespace: shop\nflags:\n  - key: "not a key"\n    name: x\n    type: BOOLEAN_FLAG_TYPE\n');
  const invalid = await runEnsign(['server'], { env: { ENSIGN_STORAGE_TYPE: 'local', ENSIGN_STORAGE_LOCAL_PATH: dir} });
  t.is(invalid.code, 1, invalid.stdout + invalid.stderr);
  const failure = invalid.stdout.split('\n').filter((line) => line.includes('start-up failed')).map((line) => JSON.parse(line) as { msg: string });
  t.regex(failure[0]?.msg ?? invalid.stdout, /^start-up failed: the local storage cannot be served: features\.yml: document 1 \(namespace "shop"\): flags\[0\]\.key: /);
  t.false(invalid.stdout.includes('last good state'), 'at start there is no good state to keep');

  const unreachable = await runEnsign(['server'], { env: { ENSIGN_STORAGE_TYPE: 'git', ENSIGN_STORAGE_GIT_REPOSITORY: `file://${join(dir, 'no-such-repo')}`} });
  t.is(unreachable.code, 1);
  t.regex(unreachable.stdout, /start-up failed: git fetch failed: /);

  const readWrite = await runEnsign(['server'], { env: { ENSIGN_STORAGE_TYPE: 'local', ENSIGN_STORAGE_READ_ONLY: 'false' } });
  t.is(readWrite.code, 2);
  t.is(readWrite.stderr.trim().split('\n').at(-1), 'ensign: invalid configuration: storage.read_only: setting read only mode is only supported with database storage');
  const semver = await runEnsign(['server'], { env: { ENSIGN_STORAGE_TYPE: 'git', ENSIGN_STORAGE_GIT_REPOSITORY: 'https://example.com/flags.git', ENSIGN_STORAGE_GIT_REF_TYPE: 'semver' } });
  t.is(semver.code, 2);
  t.regex(semver.stderr, /storage\.git\.ref_type: semver is not supported/);
});
