/**
 * The loop that keeps the database a mirror of the files: the first sync (fatal when it fails),
 * changes picked up from watch events (debounced) and from polling, an invalid set that keeps the
 * last good state and is reported once, a failing database retried, and the status /health shows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { pino } from 'pino';
import { type ApplyResult, DeclarativeError, DeclarativeStorage, type FeatureApplier, GitSource, LocalSource, namespaceDocuments, type StateFile, type SyncOutcome } from '../../src/declarative/index.js';
import { removeScratch, TestRepository } from './git-fixtures.js';

const dirs: string[] = [];
test.after.always(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  removeScratch();
});

const directory = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-declarative-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
  return dir;
};

const flag = (ns: string, key: string, enabled: boolean): string => `namespace: ${ns}\nflags:\n  - {key: ${key}, name: ${key}, type: BOOLEAN_FLAG_TYPE, enabled: ${enabled}}\n`;

/** An applier that decodes like the real one and records what it was given; `fail` makes it throw as a database would. */
class RecordingApplier implements FeatureApplier {
  readonly sets: Array<Record<string, boolean[]>> = [];
  fail: Error | undefined;

  async apply(files: readonly StateFile[]): Promise<ApplyResult> {
    const namespaces = namespaceDocuments(files);
    if (this.fail !== undefined) throw this.fail;
    const set: Record<string, boolean[]> = {};
    for (const [key, doc] of namespaces) set[key] = doc.flags.map((f) => f.enabled);
    this.sets.push(set);
    return { applied: [...namespaces.keys()], removed: [] };
  }
}

function logged(): { logger: ReturnType<typeof pino>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, logger: pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }) };
}

const until = async (check: () => boolean, timeoutMs = 5000): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
};

test('start applies the files once and reports the revision and the time', async (t) => {
  const dir = directory({ 'features.yml': flag('shop', 'new-ui', true) });
  const applier = new RecordingApplier();
  const now = new Date('2026-11-26T10:00:00Z');
  const storage = new DeclarativeStorage({ source: new LocalSource({ path: dir, pollIntervalMs: 60_000 }), applier, logger: logged().logger, now: () => now });
  await storage.start();
  t.teardown(() => storage.stop());
  t.deepEqual(applier.sets, [{ default: [], shop: [true] }]);
  const status = storage.status();
  t.is(status.type, 'local');
  t.deepEqual(status.metadata, { path: dir });
  t.regex(status.revision ?? '', /^[0-9a-f]{16}$/);
  t.deepEqual(status.lastSync, now);
  t.is(status.lastError, undefined);
});

test('a start on invalid files fails with the file and the reason; a missing directory too', async (t) => {
  const dir = directory({ 'features.yml': 'namespace: shop\nflags:\n  - {key: "bad key", name: x, type: BOOLEAN_FLAG_TYPE}\n' });
  const storage = new DeclarativeStorage({ source: new LocalSource({ path: dir, pollIntervalMs: 60_000 }), applier: new RecordingApplier(), logger: logged().logger });
  const err = await t.throwsAsync(storage.start(), { instanceOf: DeclarativeError });
  t.regex(err?.message ?? '', /^the local storage cannot be served: features\.yml: document 1 \(namespace "shop"\): flags\[0\]\.key: /);
  const missing = new DeclarativeStorage({ source: new LocalSource({ path: join(dir, 'nope'), pollIntervalMs: 60_000 }), applier: new RecordingApplier(), logger: logged().logger });
  await t.throwsAsync(missing.start(), { message: `storage.local.path: ${join(dir, 'nope')} is not a directory` });
});

test('an edit is picked up from the watch (the poll is a minute away), a burst of events makes one sync', async (t) => {
  const dir = directory({ 'features.yml': flag('shop', 'new-ui', false) });
  const applier = new RecordingApplier();
  const storage = new DeclarativeStorage({ source: new LocalSource({ path: dir, pollIntervalMs: 60_000 }), applier, logger: logged().logger, debounceMs: 200 });
  await storage.start();
  t.teardown(() => storage.stop());
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, 'features.yml'), flag('shop', 'new-ui', i % 2 === 0));
  t.true(await until(() => applier.sets.length >= 2, 10_000), 'the edit was applied');
  // Another sync of the burst would come before the sync of a later edit.
  writeFileSync(join(dir, 'billing.features.yml'), flag('billing', 'invoices', false));
  t.true(await until(() => applier.sets.some((set) => 'billing' in set), 10_000), 'the later edit was applied');
  t.deepEqual(
    applier.sets,
    [{ default: [], shop: [false] }, { default: [], shop: [true] }, { default: [], shop: [true], billing: [false] }],
    'the burst made one sync of the final content',
  );
});

test('polling picks up what no event announced; an unchanged directory is not applied again', async (t) => {
  const dir = directory({ 'features.yml': flag('shop', 'a', false) });
  const applier = new RecordingApplier();
  const source = new LocalSource({ path: dir, pollIntervalMs: 150 });
  // No watch: only the poll can notice.
  Object.defineProperty(source, 'watch', { value: undefined });
  const outcomes: SyncOutcome[] = [];
  const storage = new DeclarativeStorage({ source, applier, logger: logged().logger });
  storage.onSync((outcome) => outcomes.push(outcome));
  await storage.start();
  t.teardown(() => storage.stop());
  t.true(await until(() => outcomes.includes('unchanged')));
  t.is(applier.sets.length, 1);
  writeFileSync(join(dir, 'more.features.yml'), flag('billing', 'b', true));
  t.true(await until(() => applier.sets.length === 2));
  t.deepEqual(applier.sets[1], { default: [], shop: [false], billing: [true] });
});

test('an invalid edit keeps the last good state, is reported once with file and path, and a fix clears it', async (t) => {
  const dir = directory({ 'features.yml': flag('shop', 'a', true) });
  const applier = new RecordingApplier();
  const { logger, lines } = logged();
  const outcomes: SyncOutcome[] = [];
  const storage = new DeclarativeStorage({ source: new LocalSource({ path: dir, pollIntervalMs: 100 }), applier, logger });
  storage.onSync((outcome) => outcomes.push(outcome));
  await storage.start();
  t.teardown(() => storage.stop());
  const good = storage.status();

  writeFileSync(join(dir, 'features.yml'), 'namespace: shop\nflags:\n  - key: a\n    name: a\n    type: BOOLEAN_FLAG_TYPE\n    rollouts:\n      - segment: {key: nobody, value: true}\n');
  t.true(await until(() => outcomes.includes('invalid')));
  // The poll reads the same invalid files three more times.
  t.true(await until(() => outcomes.slice(outcomes.indexOf('invalid') + 1).filter((o) => o === 'unchanged').length >= 3));
  t.is(applier.sets.length, 1, 'nothing applied');
  const status = storage.status();
  t.is(status.revision, good.revision, 'the good state is what is served');
  t.deepEqual(status.lastSync, good.lastSync);
  t.is(status.lastError?.file, 'features.yml');
  t.is(status.lastError?.path, 'flags[0].rollouts[0].segment.key');
  t.regex(status.lastError?.message ?? '', /no segment "nobody" in namespace "shop"/);
  const warnings = lines.filter((line) => line.level === 40);
  t.is(warnings.length, 1, 'reported once, however often the same files are polled');
  t.is(warnings[0]?.file, 'features.yml');
  t.is(warnings[0]?.path, 'flags[0].rollouts[0].segment.key');
  t.true(outcomes.filter((o) => o === 'unchanged').length > 0);

  writeFileSync(join(dir, 'features.yml'), flag('shop', 'a', false));
  t.true(await until(() => applier.sets.length === 2));
  t.is(storage.status().lastError, undefined);
  t.not(storage.status().revision, good.revision);
});

test('a database failure is reported and retried on the next poll with the same files', async (t) => {
  const dir = directory({ 'features.yml': flag('shop', 'a', true) });
  const applier = new RecordingApplier();
  const outcomes: SyncOutcome[] = [];
  const storage = new DeclarativeStorage({ source: new LocalSource({ path: dir, pollIntervalMs: 100 }), applier, logger: logged().logger });
  storage.onSync((outcome) => outcomes.push(outcome));
  await storage.start();
  t.teardown(() => storage.stop());
  applier.fail = new Error('database is down');
  writeFileSync(join(dir, 'features.yml'), flag('shop', 'a', false));
  t.true(await until(() => outcomes.filter((o) => o === 'error').length >= 2), 'retried');
  t.is(storage.status().lastError?.message, 'database is down');
  applier.fail = undefined;
  t.true(await until(() => applier.sets.length === 2));
  t.is(storage.status().lastError, undefined);
});

test('git: a new commit on the ref is applied by the poll', async (t) => {
  const origin = new TestRepository();
  const first = origin.commit({ 'features.yml': flag('shop', 'a', false) });
  const applier = new RecordingApplier();
  const source = new GitSource({ repository: origin.dir, ref: 'main', directory: '', pollIntervalMs: 200, access: {} });
  const storage = new DeclarativeStorage({ source, applier, logger: logged().logger });
  await storage.start();
  t.teardown(() => storage.stop());
  t.is(storage.status().revision, first);
  t.deepEqual(storage.status().metadata, { repository: origin.dir, ref: 'main' });
  const second = origin.commit({ 'features.yml': flag('shop', 'a', true) });
  t.true(await until(() => applier.sets.length === 2, 20_000));
  t.deepEqual(applier.sets[1], { default: [], shop: [true] });
  t.is(storage.status().revision, second);
});
