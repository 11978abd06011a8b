/**
 * Fuzzes every HTTP route of `ensign server` (from its route tables): odd paths, queries, headers,
 * bodies and encodings. No case may get a 5xx, go unanswered past its deadline, or be answered
 * with an unbounded error message; invalid cases change nothing; the process stays up and its
 * memory after a GC stays within 1.2x. `ENSIGN_FUZZ_CASES` sets the count (the soak: 100000),
 * `ENSIGN_FUZZ_SEED` and `ENSIGN_FUZZ_CASE` replay a failure.
 */
import test from 'ava';
import { caseIndexes, fuzzSettings, replayHint } from '../helpers/fuzz/fuzz-settings.js';
import { type FuzzServer, mib, type ServerMemory, startFuzzServer } from '../helpers/fuzz/fuzz-server.js';
import { runHttpCases } from '../helpers/fuzz/http-fuzz.js';
import { type HttpRoute, httpRoutes } from '../helpers/fuzz/http-routes.js';

const settings = fuzzSettings(1_500);
const DEADLINE_MS = 2_000;
const invalidCases = Math.ceil(settings.cases / 2);
const replay = (index: number) => replayHint('fuzz-http.test.js', settings, index);

let server: FuzzServer;
let routes: HttpRoute[];
let before: ServerMemory;

test.before(async () => {
  routes = await httpRoutes();
  server = await startFuzzServer();
  // Cases of another seed (every route at least three times) before memory is first measured, so
  // what is loaded on first use and the high-water mark of the largest bodies are not counted as growth.
  const warmUp = Math.max(3 * routes.length, Math.ceil(settings.cases / 10));
  await runHttpCases(server, routes, { seed: settings.seed ^ 1, indexes: [...Array(warmUp).keys()], valid: true, deadlineMs: 10_000, replay });
  await server.renewToken();
  before = await server.memory();
});
test.after.always(async () => {
  await server?.stop();
});

test.serial('invalid cases over every route are refused in time, without a server error or an unbounded message, and change nothing', async (t) => {
  t.timeout(30 * 60_000);
  const stored = await server.state();
  const started = performance.now();
  const run = await runHttpCases(server, routes, { seed: settings.seed, indexes: caseIndexes(settings, 0, invalidCases), valid: false, deadlineMs: DEADLINE_MS, replay });
  t.log(`seed ${settings.seed}: ${invalidCases} invalid cases over ${routes.length} routes in ${Math.round(performance.now() - started)} ms, slowest ${run.slowestMs} ms`);
  t.deepEqual(run.failures, [], `seed ${settings.seed}`);
  t.deepEqual(await server.state(), stored, `seed ${settings.seed}: invalid cases changed what the server stores`);
});

test.serial('any cases over every route are answered in time, without a server error or an unbounded message', async (t) => {
  t.timeout(30 * 60_000);
  const count = settings.cases - invalidCases;
  const started = performance.now();
  const run = await runHttpCases(server, routes, { seed: settings.seed, indexes: caseIndexes(settings, invalidCases, count), valid: true, deadlineMs: DEADLINE_MS, replay });
  t.log(`seed ${settings.seed}: ${count} cases in ${Math.round(performance.now() - started)} ms, slowest ${run.slowestMs} ms`);
  t.deepEqual(run.failures, [], `seed ${settings.seed}`);
});

test.serial('the server is still up, healthy, and holds at most 1.2x the memory it held before the cases', async (t) => {
  t.is((await fetch(`${server.process.baseUrl}/health`)).status, 200);
  const after = await server.memory();
  const grown = `RSS after a GC ${mib(before.rss)} → ${mib(after.rss)} (heap ${mib(before.heap)} → ${mib(after.heap)} of ${mib(before.committed)} → ${mib(after.committed)}, external ${mib(before.external)} → ${mib(after.external)})`;
  t.log(grown);
  t.true(after.rss <= before.rss * 1.2, `seed ${settings.seed}: ${grown}`);
});
