/** The README is executable documentation: its commands, walk-through and configuration table are checked here. */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, renderConfigMarkdown, SETTINGS } from '@ensign/cli';
import { jsonClient, repositoryRoot, scratchDir, startEnsign } from '@ensign/testkit';
import test from 'ava';
import { parse as parseYaml } from 'yaml';
import { ok } from '../helpers/api.js';

const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');

/** The text between `<!-- name:start -->` and `<!-- name:end -->`. */
function section(name: string): string {
  const match = new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)<!-- ${name}:end -->`).exec(readme);
  if (!match?.[1]) throw new Error(`README.md has no ${name} section`);
  return match[1];
}

/** The bodies of the ```sh blocks of a section, in order. */
const shellBlocks = (text: string): string[] => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');

const bash = (script: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, stdout, stderr });
    });
  });

test('the README opens with what Ensign is and the run and test commands', (t) => {
  const opening = readme.slice(0, readme.indexOf('\n## '));
  t.regex(opening, /feature-flag service/i);
  t.true(opening.includes('npm ci && npm start'));
  t.true(opening.includes('npm test'));
});

test('after npm ci, `npx ensign` runs from the repository root', async (t) => {
  // `--no`: never fall back to downloading a package of that name from the registry.
  const result = await bash('npx --no -- ensign --version', repositoryRoot);
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /^Version: \d+\.\d+\.\d+/m);
});

test('CI runs exactly the README\'s test command', (t) => {
  // The README's opening commands: install (the first of `npm ci && npm start`) and test.
  const opening = readme.slice(0, readme.indexOf('\n## '));
  const commands = (shellBlocks(opening)[0] ?? '').split('\n').map((line) => line.replace(/#.*$/, '').trim()).filter((line) => line !== '');
  const install = commands[0]?.split('&&')[0]?.trim();
  const testCommand = commands.find((line) => /^npm (run )?test\b/.test(line));
  t.is(install, 'npm ci');
  t.truthy(testCommand, `the README's commands: ${commands.join('; ')}`);
  // What .ci/run runs of npm, in order, ending with the test command.
  const ci = readFileSync(join(repositoryRoot, '.ci/run'), 'utf8');
  const npmCommands = ci.split('\n').map((line) => line.trim()).filter((line) => /^npm\b/.test(line));
  t.deepEqual(npmCommands, [install, testCommand]);
  const lastCommand = ci.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#')).at(-1);
  t.is(lastCommand, testCommand, 'the test command is the last thing CI runs');
});

test('the configuration reference in the README matches the schema', (t) => {
  t.is(section('config-reference').trim(), renderConfigMarkdown(), 'run `npm run readme:config` to regenerate the table');
});

test('deploy/ensign.example.yml is a complete, valid file showing every default', (t) => {
  const file = join(repositoryRoot, 'deploy/ensign.example.yml');
  const loaded = loadConfig({ configPath: file, env: {} });
  t.deepEqual(loaded.warnings, []);
  t.deepEqual(loaded.config, loadConfig({ env: {} }).config);
  const doc = parseYaml(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  for (const { key } of SETTINGS) {
    const [section = '', leaf = ''] = key.split('.');
    t.true(doc[section] !== undefined && leaf in doc[section], `${key} is shown`);
  }
});

test('the walk-through works exactly as printed against a fresh server started with the defaults', async (t) => {
  // A fresh checkout: no configuration at all, so the database is ./data/ensign.db under the working directory.
  const cwd = scratchDir();
  const server = await startEnsign({ cwd });
  t.teardown(() => server.stop());
  t.true(existsSync(join(cwd, 'data/ensign.db')), 'the default SQLite file is created on first start');
  t.like(ok(await jsonClient(server.baseUrl).get('/api/v1/namespaces/default')), { key: 'default', protected: true });

  const printed = shellBlocks(section('walkthrough')).join('\n');
  t.true(printed.includes('http://localhost:8080'));
  // Only the address changes: the test server listens on a free port. Each curl must succeed.
  const script = [
    'set -euo pipefail',
    'curl() { command curl --fail-with-body "$@"; }',
    printed.replaceAll('http://localhost:8080', server.baseUrl),
  ].join('\n');
  const result = await bash(script, cwd);
  t.is(result.code, 0, `${result.stderr}\n${result.stdout}`);

  const api = jsonClient(server.baseUrl);
  const base = '/api/v1/namespaces/shop';
  t.like(ok(await api.get(base)), { key: 'shop', name: 'Shop', protected: false });
  const flag = ok(await api.get(`${base}/flags/checkout-button`));
  t.like(flag, { key: 'checkout-button', enabled: true, type: 'VARIANT_FLAG_TYPE' });
  t.deepEqual(
    flag.variants.map((v: { key: string; attachment: string }) => [v.key, v.attachment]),
    [
      ['blue', '{"hex":"#0000ff"}'],
      ['green', '{"hex":"#00ff00"}'],
    ],
  );
  const segment = ok(await api.get(`${base}/segments/beta-testers`));
  t.like(segment.constraints[0], { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' });
  const rules = ok(await api.get(`${base}/flags/checkout-button/rules`)).rules;
  t.is(rules.length, 1);
  t.like(rules[0], { segmentKey: 'beta-testers', rank: 1 });
  t.deepEqual(
    rules[0].distributions.map((d: { variantId: string; rollout: number }) => d.rollout),
    [50, 50],
  );
  t.deepEqual(
    rules[0].distributions.map((d: { variantId: string }) => d.variantId),
    flag.variants.map((v: { id: string }) => v.id),
  );
});
