/**
 * The single-file executable, built here by the same script as `npm run package`, run the way a
 * user on a machine without Node would run it: copied alone into an empty directory, `PATH`
 * reduced to `/usr/bin:/bin`, and, inside a mount namespace, every `node` binary and the
 * repository's `node_modules` made unreachable. It serves /health, /api/v1, /evaluate/v1, the UI
 * and the gRPC health check, keeps its data across a restart, and runs `evaluator` and `migrate`.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type EnsignProcess, jsonClient, repositoryRoot, runEnsign, scratchDir, startEnsign, testBucket } from '@ensign/testkit';
import test from 'ava';
import { healthClient } from '../helpers/grpc-client.js';

const run = promisify(execFile);
const built = join(repositoryRoot, 'dist', `ensign-linux-${process.arch}`);
const home = scratchDir('ensign-exe-home-');
const workDir = scratchDir('ensign-exe-');
const executable = join(workDir, 'ensign');

/** Node binaries a careless executable could fall back to, hidden from the process under test. */
const NODE_BINARIES = ['/usr/bin/node', '/usr/local/bin/node'];
/** Runs the command in a mount namespace where those binaries and the repository's node_modules are gone. */
const HIDE = [
  `for f in ${NODE_BINARIES.join(' ')}; do if [ -e "$f" ]; then mount --bind /dev/null "$f"; fi; done`,
  `mount -t tmpfs none '${join(repositoryRoot, 'node_modules')}'`,
  'exec "$0" "$@"',
].join(' && ');
const launcher = ['unshare', '--mount', '--propagation', 'private', 'sh', '-c', HIDE, executable];
const env = { PATH: '/usr/bin:/bin', HOME: home, ENSIGN_LOG_LEVEL: 'warn' };
const options = { launcher, env, inheritEnv: false } as const;

test.before(async () => {
  await run(process.execPath, [join(repositoryRoot, 'packages/cli/dist/packaging/build-executable.js')], { cwd: repositoryRoot, timeout: 300_000 });
  copyFileSync(built, executable);
});

test.serial('inside the namespace no node is runnable and node_modules is empty', async (t) => {
  const probe = await run('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', `${HIDE.replace(' && exec "$0" "$@"', '')}; node --version || echo no-node; ls -A '${join(repositoryRoot, 'node_modules')}' | wc -l`], { env }).catch((err: { stdout: string }) => err);
  t.regex(probe.stdout, /no-node/);
  t.regex(probe.stdout, /^0$/m);
});

test.serial('--version names the version, the commit it was built from and the build date', async (t) => {
  const result = await runEnsign(['--version'], { ...options, cwd: workDir });
  t.is(result.code, 0, result.stderr);
  const version = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')).version as string;
  t.regex(result.stdout, new RegExp(`^Version: ${version.replace(/\./g, '\\.')}$`, 'm'));
  t.regex(result.stdout, /^Commit: [0-9a-f]{12}$/m);
  t.regex(result.stdout, /^Build Date: \d{4}-\d{2}-\d{2}T/m);
});

test.serial('migrate creates the schema once, then finds it up to date', async (t) => {
  const cwd = scratchDir('ensign-exe-migrate-');
  const first = await runEnsign(['migrate'], { ...options, cwd });
  t.is(first.code, 0, first.stderr);
  t.regex(first.stdout, /^applied 0001_initial_schema$/m);
  const second = await runEnsign(['migrate'], { ...options, cwd });
  t.is(second.stdout.trim(), 'database schema is up to date');
});

test.serial('a bad configuration is exit 2 naming the key, as from npm', async (t) => {
  const result = await runEnsign(['server'], { ...options, env: { ...env, ENSIGN_SERVER_HTTP_PORT: 'abc' }, cwd: workDir });
  t.is(result.code, 2);
  t.regex(result.stderr, /server\.http_port/);
});

test.serial('server: the APIs, the UI and gRPC health on the embedded SQLite, kept across a restart', async (t) => {
  const cwd = scratchDir('ensign-exe-server-');
  let server: EnsignProcess = await startEnsign({ ...options, cwd });
  const api = jsonClient(server.baseUrl);
  const exe = await run('readlink', [`/proc/${server.pid}/exe`]).catch(() => ({ stdout: '' }));
  t.is(exe.stdout.trim(), executable, 'the process is the executable itself, not node');

  t.is((await api.post('/api/v1/namespaces/default/flags', { key: 'beta', name: 'Beta', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status, 200);
  t.like((await api.post('/evaluate/v1/boolean', { flagKey: 'beta', entityId: 'u1' })).body, { enabled: true, flagKey: 'beta', reason: 'DEFAULT_EVALUATION_REASON' });

  const page = await fetch(`${server.baseUrl}/namespaces/default/flags`);
  t.is(page.status, 200);
  const html = await page.text();
  const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1] ?? '';
  t.not(script, '', 'the page names its script');
  const asset = await fetch(`${server.baseUrl}${script}`);
  t.is(asset.status, 200);
  t.regex(asset.headers.get('content-type') ?? '', /javascript/);

  const health = healthClient(server.grpcAddress);
  t.is(await health.check(), 'SERVING');
  t.is(await health.check('flipt.Flipt'), 'SERVING');
  health.close();

  t.is(await server.stop(), 0, server.logs());
  server = await startEnsign({ ...options, cwd });
  t.like((await jsonClient(server.baseUrl).get('/api/v1/namespaces/default/flags/beta')).body, { key: 'beta', enabled: true }, 'the flag survived the restart');
  t.is(await server.stop(), 0, server.logs());
});

test.serial('evaluator: evaluations from the NATS bucket the executable server publishes to', async (t) => {
  const nats = testBucket();
  const withNats = { ...options, env: { ...env, ...nats.env() } };
  const server = await startEnsign({ ...withNats, cwd: scratchDir('ensign-exe-nats-') });
  const evaluator = await startEnsign({ ...withNats, command: 'evaluator', cwd: scratchDir('ensign-exe-evaluator-') });
  try {
    await jsonClient(server.baseUrl).post('/api/v1/namespaces/default/flags', { key: 'gamma', name: 'Gamma', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    const evaluate = () => jsonClient(evaluator.baseUrl).post('/evaluate/v1/boolean', { flagKey: 'gamma', entityId: 'u1' });
    let answer = await evaluate();
    for (let i = 0; i < 100 && answer.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await evaluate();
    }
    t.like(answer.body, { enabled: true, flagKey: 'gamma' });
  } finally {
    t.is(await evaluator.stop(), 0, evaluator.logs());
    t.is(await server.stop(), 0, server.logs());
    await nats.drop();
  }
});
