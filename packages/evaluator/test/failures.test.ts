/** Failures that are not the caller's: mapped once, logged, answered without crashing the server. */
import test from 'ava';
import { pino } from 'pino';
import { defaultDocument, readySource, snapshotOf } from '@ensign/testkit/snapshot-fixtures';
import { gatedSnapshot } from '../src/snapshot/gated-snapshot.js';
import { failureError } from '../src/operations/failure-error.js';
import { ofrepFailure } from '../src/ofrep/ofrep-errors.js';
import type { SnapshotSource } from '../src/snapshot-source.js';
import { assertError, startServer } from './helpers/server.js';

test('engine failures map to Flipt statuses and OFREP codes', (t) => {
  t.like(failureError({ errorCode: 'FLAG_NOT_FOUND', message: 'flag "default/x" not found' }), { code: 5, message: 'flag "default/x" not found' });
  t.like(failureError({ errorCode: 'TYPE_MISMATCH', message: 'flag type BOOLEAN_FLAG_TYPE invalid' }), { code: 3 });
  t.like(failureError({ errorCode: 'PARSE_ERROR', message: 'unknown constraint type' }), { code: 3 });
  t.like(failureError({ errorCode: 'GENERAL', message: 'boom' }), { code: 13, message: 'boom' });
  t.like(ofrepFailure('x', { errorCode: 'PARSE_ERROR', message: 'unknown constraint type' }), { httpStatus: 400, errorCode: 'INVALID_CONTEXT', key: 'x' });
  t.like(ofrepFailure('x', { errorCode: 'GENERAL', message: 'boom' }), { httpStatus: 500, errorCode: 'GENERAL' });
});

test('an unexpected exception is a logged 500 with a generic message, and the server keeps serving', async (t) => {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  let broken = true;
  const source: SnapshotSource = {
    ready: () => true,
    get: () => {
      if (broken) throw new Error('source exploded');
      return undefined;
    },
  };
  const api = await startServer(t, { source, logger });
  assertError(t, await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' }), 500, 13, 'internal error');
  const ofrep = await api.post('/ofrep/v1/evaluate/flags', {});
  t.is(ofrep.status, 500);
  t.deepEqual(ofrep.body, { errorCode: 'GENERAL', errorDetails: 'internal error' });
  t.true(lines.some((line) => line.includes('source exploded')));
  broken = false;
  assertError(t, await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' }), 404, 5, 'flag "default/color" not found');
});

test('evaluations log nothing at info level', async (t) => {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  const api = await startServer(t, { source: readySource(), logger });
  await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' });
  await api.post('/evaluate/v1/variant', { flagKey: 'nope', entityId: 'u1' });
  await api.post('/evaluate/v1/variant', '{bad');
  t.deepEqual(lines, []);
});

test('a gated snapshot is rendered once per snapshot and gate', (t) => {
  const snapshot = snapshotOf(defaultDocument());
  const clock = { now: () => 0 };
  const first = gatedSnapshot(snapshot, 'current', clock);
  t.is(gatedSnapshot(snapshot, 'current', clock), first);
  t.is(gatedSnapshot(snapshot, 'legacy', clock), gatedSnapshot(snapshot, 'legacy', clock));
  t.not(gatedSnapshot(snapshot, 'legacy', clock).etag, first.etag);
  t.is(first.body, JSON.stringify(snapshot.document));
  // A different snapshot object with the same checksum shares the tag but has its own rendering.
  const twin = snapshotOf(defaultDocument(), 2);
  t.is(gatedSnapshot(twin, 'current', clock).etag, first.etag);
});
