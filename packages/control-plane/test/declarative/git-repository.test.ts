/**
 * Following a git repository with the git executable: the clone, a fetch that finds a new commit,
 * the tree of a commit (below a sub-directory), refs that do not exist, and credentials that reach
 * the server without ever being on a command line.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { GitCommandError, GitRepository, readStateFiles } from '../../src/declarative/index.js';
import { gitHttpServer, removeScratch, TestRepository } from './git-fixtures.js';

test.after.always(removeScratch);

const read = async (repository: GitRepository, commit: string): Promise<Record<string, string>> => {
  const tree = await repository.tree(commit);
  const out: Record<string, string> = {};
  for (const path of (await tree.paths()).sort()) out[path] = (await tree.read(path))?.toString('utf8') ?? '';
  return out;
};

test('clone, read a commit, fetch again: a new commit on the ref is found, removed files are gone', async (t) => {
  const origin = new TestRepository();
  const first = origin.commit({ 'features.yml': 'flags: []\n', 'team/a.features.yml': 'namespace: a\n' });
  const repository = await GitRepository.open({ url: `file://${origin.dir}`, ref: 'main', directory: '', access: {} });
  t.teardown(() => repository.close());
  t.is(await repository.fetch(), first);
  t.deepEqual(await read(repository, first), { 'features.yml': 'flags: []\n', 'team/a.features.yml': 'namespace: a\n' });
  t.is(await repository.fetch(), first, 'nothing moved');

  const second = origin.commit({ 'team/a.features.yml': null, 'b.features.yml': 'namespace: b\n' });
  t.is(await repository.fetch(), second);
  t.deepEqual(await read(repository, second), { 'b.features.yml': 'namespace: b\n', 'features.yml': 'flags: []\n' });
});

test('a local path works as the URL; a directory is read as the root, .flipt.yml included', async (t) => {
  const origin = new TestRepository();
  const commit = origin.commit({ 'flags/.flipt.yml': 'include: ["*.yaml"]\n', 'flags/prod.yaml': 'namespace: prod\n', 'flags/features.yml': 'ignored by the index\n', 'features.yml': 'outside' });
  const repository = await GitRepository.open({ url: origin.dir, ref: 'main', directory: 'flags', access: {} });
  t.teardown(() => repository.close());
  const files = await readStateFiles(await repository.tree(await repository.fetch()));
  t.true(files.indexFile);
  t.deepEqual(files.files.map((f) => [f.path, f.content.toString()]), [['prod.yaml', 'namespace: prod\n']]);
  t.is(commit.length, 40);
});

test('a tag and a fixed commit can be the ref', async (t) => {
  const origin = new TestRepository();
  const tagged = origin.commit({ 'features.yml': 'v1' });
  origin.git('tag', '-a', 'v1.0.0', '-m', 'release');
  origin.commit({ 'features.yml': 'v2' });
  const byTag = await GitRepository.open({ url: origin.dir, ref: 'v1.0.0', directory: '', access: {} });
  t.teardown(() => byTag.close());
  t.is(await byTag.fetch(), tagged);
  const byHash = await GitRepository.open({ url: origin.dir, ref: tagged, directory: '', access: {} });
  t.teardown(() => byHash.close());
  t.is(await byHash.fetch(), tagged);
});

test('a ref, a directory or a repository that does not exist is a clear error, and nothing is left behind', async (t) => {
  const origin = new TestRepository();
  const commit = origin.commit({ 'features.yml': 'x' });
  const parentDir = mkdtempSync(join(tmpdir(), 'ensign-git-parent-'));
  t.teardown(() => rmSync(parentDir, { recursive: true, force: true }));
  const missingRef = await t.throwsAsync(GitRepository.open({ url: origin.dir, ref: 'nope', directory: '', access: {}, parentDir }), { instanceOf: GitCommandError });
  t.regex(missingRef?.message ?? '', /^git fetch failed: .*nope/);
  const missingRepo = await t.throwsAsync(GitRepository.open({ url: join(origin.dir, 'missing'), ref: 'main', directory: '', access: {}, parentDir }), { instanceOf: GitCommandError });
  t.regex(missingRepo?.message ?? '', /^git fetch failed: /);
  t.deepEqual(readdirSync(parentDir), [], 'the failed clones were removed');

  const repository = await GitRepository.open({ url: origin.dir, ref: 'main', directory: 'flags', access: {} });
  t.teardown(() => repository.close());
  await t.throwsAsync(repository.tree(commit), { instanceOf: GitCommandError, message: `directory "flags" is not in commit ${commit.slice(0, 12)}` });
});

test('basic credentials and tokens reach the server through the environment, and a password in the URL is hidden in errors', async (t) => {
  const origin = new TestRepository();
  const commit = origin.commit({ 'features.yml': 'flags: []\n' });
  const basic = `Basic ${Buffer.from('flag-bot:s3cr3t').toString('base64')}`;
  const server = await gitHttpServer(join(origin.dir, '..'), (header) => header === basic || header === 'Bearer tok-123');
  t.teardown(() => server.close());
  const url = `${server.url}/${origin.dir.split('/').pop()}/.git`;

  const withBasic = await GitRepository.open({ url, ref: 'main', directory: '', access: { basic: { username: 'flag-bot', password: 's3cr3t' } } });
  t.teardown(() => withBasic.close());
  t.is(await withBasic.fetch(), commit);
  t.true(server.seen.includes(basic), 'git answered the 401 with the configured user and password');

  const withToken = await GitRepository.open({ url, ref: 'main', directory: '', access: { token: { accessToken: 'tok-123' } } });
  t.teardown(() => withToken.close());
  t.is(await withToken.fetch(), commit);
  t.true(server.seen.includes('Bearer tok-123'));

  const refused = await t.throwsAsync(GitRepository.open({ url, ref: 'main', directory: '', access: { basic: { username: 'flag-bot', password: 'wrong' } } }), { instanceOf: GitCommandError });
  t.regex(refused?.message ?? '', /^git fetch failed: /);
  t.false(refused?.message.includes('wrong'));

  const inUrl = url.replace('http://', 'http://flag-bot:hunter2@');
  const hidden = await t.throwsAsync(GitRepository.open({ url: inUrl.replace('/.git', '/missing.git'), ref: 'main', directory: '', access: {} }));
  t.false(hidden?.message.includes('hunter2'), hidden?.message);
});
