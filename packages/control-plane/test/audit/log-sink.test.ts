/** The log sink: one JSON line per event appended to the file, as Flipt's log sink writes it. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createAuditTrail, toAuditEvent } from '../../src/audit/index.js';
import { capturingLogger } from '../snapshot-fakes.js';
import { flagCreated } from './audit-helpers.js';

async function tempDir(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-audit-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('each event is one parseable JSON line, Flipt field order, appended after what the file held', async (t) => {
  const file = join(await tempDir(t), 'nested', 'dir', 'audit.log');
  const { logger } = capturingLogger();
  const first = createAuditTrail({ events: ['*:*'], buffer: { capacity: 2, flushPeriodMs: 60_000 }, log: { file } }, { logger });
  first.record(flagCreated('before'));
  await first.close();
  const audit = createAuditTrail({ events: ['*:*'], buffer: { capacity: 2, flushPeriodMs: 60_000 }, log: { file } }, { logger });
  const changes = [flagCreated('a', 2), flagCreated('b', 3), flagCreated('c', 4)];
  for (const change of changes) audit.record(change);
  await audit.flush();
  await audit.close();

  const lines = (await readFile(file, 'utf8')).split('\n');
  t.is(lines.pop(), '', 'every line ends with a newline');
  t.is(lines.length, 4);
  const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  t.deepEqual(
    events.map((e) => (e.payload as { key: string }).key),
    ['before', 'a', 'b', 'c'],
  );
  // COMPAT(flipt): with a file, Flipt's encoder omits time, level and message: the line is the event.
  t.deepEqual(Object.keys(events[1] ?? {}), ['version', 'type', 'action', 'status', 'metadata', 'payload', 'timestamp', 'ensign']);
  const expected = JSON.parse(JSON.stringify(toAuditEvent(changes[0]!))) as Record<string, unknown>;
  t.deepEqual(events[1], expected);
  t.is(events[1]?.msg, undefined);
});

test('a log file that cannot be opened fails when the trail is created', async (t) => {
  const blocker = join(await tempDir(t), 'a-file');
  await writeFile(blocker, '');
  const { logger } = capturingLogger();
  t.throws(() => createAuditTrail({ events: ['*:*'], buffer: { capacity: 2, flushPeriodMs: 60_000 }, log: { file: join(blocker, 'audit.log') } }, { logger }), { message: /audit log: cannot open .*a-file\/audit.log/ });
});
