/**
 * One evaluation request's run: answered synchronously when its namespaces are held, with one await
 * (every missing namespace fetched at once) when they are not, the operation run exactly once, and
 * every failure answered as a value, never thrown.
 */
import test from 'ava';
import { AccessPolicy, type Caller } from '@ensign/auth';
import { AppError, type Fields, unavailable } from '@ensign/core';
import { hold, otherDocument, readySource } from '@ensign/testkit/snapshot-fixtures';
import { batchOperation, variantOperation } from '../src/operations/evaluate.operations.js';
import type { EvaluationInput, EvaluationOperation } from '../src/request/evaluation-operation.js';
import { evaluationRun, runEvaluation } from '../src/request/run-evaluation.js';
import type { HeldSnapshot, SnapshotSource } from '../src/snapshot-source.js';

const input = (body: Fields): EvaluationInput => ({ body, params: [], header: () => undefined });
const settings = { now: () => Date.UTC(2025, 0, 1), maxBatchSize: 10 };
const scoped = (namespace: string): Caller => ({ method: 'METHOD_TOKEN', namespace, via: 'bearer' });

/** A source that holds `default` and fetches `other` (and anything else) on request, counting its loads. */
function fetchingSource(fail = false) {
  const published = readySource();
  hold(published, otherDocument());
  const held = new Set(['default']);
  const loads: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const source: SnapshotSource = {
    ready: () => true,
    get: (key) => (held.has(key) ? published.get(key) : undefined),
    fetchable: (key) => !held.has(key),
    async load(key): Promise<HeldSnapshot | undefined> {
      loads.push(key);
      await released;
      if (fail) throw unavailable(`namespace "${key}" could not be fetched`);
      return published.get(key);
    },
  };
  return { source, loads, release };
}

/** Counts how often an operation's evaluate runs. */
function counted<R, A>(operation: EvaluationOperation<R, A>): EvaluationOperation<R, A> & { runs: number } {
  const wrapped = {
    ...operation,
    runs: 0,
    evaluate(...args: Parameters<EvaluationOperation<R, A>['evaluate']>) {
      wrapped.runs += 1;
      return operation.evaluate(...args);
    },
  };
  return wrapped;
}

test('held namespaces are answered synchronously', (t) => {
  const run = evaluationRun(readySource(), settings);
  const outcome = runEvaluation(run, variantOperation, input({ flagKey: 'color', entityId: 'u1' }), 'evaluation', undefined, performance.now());
  t.false(outcome instanceof Promise);
  t.like(outcome, { flagKey: 'color', match: false });
});

test('namespaces not held are fetched together before the one evaluation', async (t) => {
  const { source, loads, release } = fetchingSource();
  const operation = counted(batchOperation);
  const body = {
    requests: [
      { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' },
      { namespaceKey: 'default', flagKey: 'color', entityId: 'u1' },
      { namespaceKey: 'third', flagKey: 'color', entityId: 'u1' },
      { namespaceKey: 'other', flagKey: 'color', entityId: 'u2' },
    ],
  };
  const outcome = runEvaluation(evaluationRun(source, settings), operation, input(body), 'evaluation', undefined, performance.now());
  t.true(outcome instanceof Promise);
  t.deepEqual(loads, ['other', 'third'], 'every missing namespace is asked for at once, each once');
  t.is(operation.runs, 0);
  release();
  const answer = await outcome;
  t.is(operation.runs, 1, 'evaluated once, after the fetch');
  t.false(answer instanceof AppError);
  const types = (answer as { responses: Array<{ type: string }> }).responses.map((r) => r.type);
  t.deepEqual(types, ['VARIANT_EVALUATION_RESPONSE_TYPE', 'VARIANT_EVALUATION_RESPONSE_TYPE', 'ERROR_EVALUATION_RESPONSE_TYPE', 'VARIANT_EVALUATION_RESPONSE_TYPE']);
});

test('a fetch that fails is answered as its error, not thrown', async (t) => {
  const { source, release } = fetchingSource(true);
  const outcome = runEvaluation(evaluationRun(source, settings), variantOperation, input({ namespaceKey: 'other', flagKey: 'color', entityId: 'u1' }), 'evaluation', undefined, 0);
  release();
  t.like(await outcome, { code: 14, message: 'namespace "other" could not be fetched' });
});

test('bad input is a 400 naming the field; a scoped caller is refused before anything is fetched', async (t) => {
  const { source, loads } = fetchingSource();
  const run = evaluationRun(source, settings, new AccessPolicy({ required: true, exclude: { management: false, evaluation: false, ofrep: false } }));
  const bad = runEvaluation(run, variantOperation, input({ flagKey: 7 }), 'evaluation', undefined, 0);
  t.like(bad, { code: 3, httpStatus: 400, message: 'invalid field flagKey: must be a string' });
  // A scoped caller whose request cannot be read is refused like one outside its namespace.
  t.like(runEvaluation(run, variantOperation, input({ flagKey: 7 }), 'evaluation', scoped('default'), 0), { code: 16 });
  t.like(runEvaluation(run, variantOperation, input({ namespaceKey: 'other', flagKey: 'color' }), 'evaluation', scoped('default'), 0), { code: 16 });
  t.deepEqual(loads, [], 'nothing fetched for a request that is refused');
  t.like(runEvaluation(run, variantOperation, input({ flagKey: 'color', entityId: 'u1' }), 'evaluation', scoped('default'), 0), { flagKey: 'color' });
});

test('nothing is answered until the source is ready', (t) => {
  const source = readySource();
  const run = evaluationRun({ get: (key) => source.get(key), ready: () => false }, settings);
  t.like(runEvaluation(run, variantOperation, input({ flagKey: 'color' }), 'evaluation', undefined, 0), { code: 14, httpStatus: 503 });
});

test('an unexpected throw inside an evaluation is an internal error value keeping its cause', (t) => {
  const boom = new Error('boom');
  const run = evaluationRun({ get: () => { throw boom; }, ready: () => true }, settings);
  const outcome = runEvaluation(run, variantOperation, input({ flagKey: 'color' }), 'evaluation', undefined, 0) as AppError;
  t.like(outcome, { code: 13, message: 'internal error' });
  t.is(outcome.cause, boom);
});
