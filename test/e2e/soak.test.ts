/**
 * The chaos soak's short run, in CI: 90 seconds of mixed load through deploy/'s layout (nginx, two
 * control planes on PostgreSQL, a three-server NATS cluster, three evaluators, open streams) with
 * each kind of fault once: a NATS server killed, a control plane killed, PostgreSQL killed, an
 * evaluator killed, a NATS server stopped. `npm run soak` runs it for 10 minutes.
 */
import test from 'ava';
import { formatSoakReport, runSoak } from '../helpers/soak/soak.js';

test('90 s of faults under load: no failed evaluation, no lost write, every stream on the final digest, convergence p99 within 5 s', async (t) => {
  t.timeout(6 * 60_000);
  const report = await runSoak({
    durationMs: 90_000,
    // Every kind of fault once in 90 s (the full soak spaces them 30 s apart).
    faultEveryMs: 15_000,
    evaluators: 3,
    streams: 100,
    evaluationsPerSecond: 50,
    writesPerSecond: 5,
    log: (line) => t.log(line),
  });
  t.log(formatSoakReport(report));
  t.is(report.faults.length, 5);
  t.true(report.writes.acknowledged > 200, 'writes went on through the faults');
  t.deepEqual(report.problems, []);
});
