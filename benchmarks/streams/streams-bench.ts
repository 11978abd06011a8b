/**
 * Snapshot streams (`GET /client/v2/environments/default/namespaces/{ns}/stream`) held by many
 * clients, against a bare node:http ceiling measured in the same run. Starts `ensign server` (SQLite
 * in a temporary directory) publishing to a NATS bucket of the run and one `ensign evaluator`
 * following it, seeds the namespace `streams` through the server, and forks the client processes
 * (stream-client.ts, raw sockets). Then, one target at a time:
 *   1. `ensign server` alone: BENCH_STREAMS_SERVER streams (1,000), the writes through it;
 *   2. `ensign evaluator`: BENCH_STREAMS streams (10,000), the writes through the server;
 *   3. the bare server (bare-stream-server.ts): as many streams, the evaluator's message repeated
 *      on a signal.
 * For each: how long opening the streams took, every stream's first message, RSS before, with the
 * streams and after the writes, an idle window, then the writes one at a time (commit → each
 * stream's message), the CPU they cost over the idle window. Prints a table and one line of JSON;
 * writes benchmarks/results/streams.json. Run: `npm run bench:streams` (settings: options.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testBucket } from '@ensign/testkit';
import { pin, stop } from '../engine/child-processes.js';
import { machineOf, writeResults } from '../engine/results-file.js';
import { installSafetyNets, runToExit } from '../propagation/children.js';
import { type EnsignNode, startNode } from '../propagation/ensign-cluster.js';
import { RunScope } from '../writes/run-scope.js';
import type { SentReply } from './bare-stream-server.js';
import { ClientFleet } from './client-fleet.js';
import { forkTracked } from './ipc.js';
import { STREAMS_OPTIONS as O } from './options.js';
import { metricsProbe, procProbe } from './process-probe.js';
import { clock } from './seq-marker.js';
import { messageWithSeq, NAMESPACE, seedNamespace, STREAM_PATH, writeSeq } from './stream-namespace.js';
import { measurePhase, type PhaseFigures, type PhaseSettings, type StreamTarget } from './stream-phase.js';
import { headline, printAims, printCpuShares, printTable } from './streams-report.js';

const BARE_SERVER = fileURLToPath(new URL('./bare-stream-server.js', import.meta.url));

const clearTimeoutGuard = installSafetyNets(O.timeoutSeconds, 'streams benchmark');
const loadAverageBefore = os.loadavg();

/** Puts `target` on the CPU under test and every other process of the run on the other one (when pinning). */
function place(target: number | undefined, others: Array<number | undefined>): void {
  if (O.serverCpu === undefined) return;
  pin(target, O.serverCpu);
  for (const pid of [...others, process.pid]) pin(pid, O.clientCpu);
}

/** A target whose changes are writes through `server` (commit = the write's answer). */
function ensignTarget(name: string, node: EnsignNode, server: EnsignNode): StreamTarget {
  return {
    name,
    port: node.port,
    path: STREAM_PATH,
    pid: node.child.pid,
    probe: metricsProbe(node.client, node.child.pid),
    change: async (seq) => {
      const { sentAt, committedAt } = await writeSeq(server.client, seq);
      return { sentAt, from: committedAt };
    },
    helperPids: node === server ? [] : [server.child.pid],
  };
}

async function main(): Promise<number> {
  const scope = new RunScope();
  const dir = mkdtempSync(join(os.tmpdir(), 'ensign-streams-bench-'));
  scope.add(async () => rmSync(dir, { recursive: true, force: true }));
  const bucket = testBucket('ensign_streams');
  scope.add(() => bucket.drop());

  const server = await startNode('ensign server', 'server', dir, { ...bucket.env(), ENSIGN_DB_URL: `file:${join(dir, 'ensign.db')}` }, O.serverNodeArgs);
  scope.add(() => stop(server.child, 5000));
  await seedNamespace(server.client, O.flags);
  const evaluator = await startNode('ensign evaluator', 'evaluator', dir, bucket.env(), O.serverNodeArgs);
  scope.add(() => stop(evaluator.child, 5000));
  const seeded = await messageWithSeq(evaluator.port, 0);
  console.log(
    `ensign server (SQLite) → NATS bucket ${bucket.bucket} → ensign evaluator; namespace \`${NAMESPACE}\` of ${O.flags} flags, ` +
      `a message of ${Buffer.byteLength(seeded)} bytes; ${O.clientProcesses} client processes; ` +
      (O.serverCpu === undefined ? 'processes not pinned' : `the process under test on CPU ${O.serverCpu}, everything else on CPU ${O.clientCpu}`),
  );

  const fleet = await ClientFleet.start(scope, O.clientProcesses, O.clientCpu);
  let seq = 0;
  const settings = (streams: number): PhaseSettings => ({
    streams,
    writes: O.writes,
    warmupWrites: O.warmupWrites,
    spacingMs: O.spacingMs,
    concurrency: O.openConcurrency,
    lostAfterMs: O.lostAfterMs,
    settleSeconds: O.settleSeconds,
    nextSeq: () => ++seq,
  });

  let serverFigures: PhaseFigures | undefined;
  if (O.serverStreams > 0) {
    place(server.child.pid, [evaluator.child.pid, ...fleet.pids]);
    serverFigures = await measurePhase(ensignTarget('ensign server', server, server), fleet, settings(O.serverStreams));
  }

  place(evaluator.child.pid, [server.child.pid, ...fleet.pids]);
  const evaluatorFigures = await measurePhase(ensignTarget('ensign evaluator', evaluator, server), fleet, settings(O.streams));
  const dropped = (await metricsProbe(evaluator.client, evaluator.child.pid)()).streamsDropped;

  // The ceiling repeats the evaluator's last message, its seq changed: the same bytes in size.
  const template = await messageWithSeq(evaluator.port, seq);
  const { peer: bare, first: bareListening } = await forkTracked<{ port: number }>(BARE_SERVER, 'bare stream server');
  scope.add(() => stop(bare.child, 3000));
  await bare.ask({ type: 'template', text: template }, 10_000);
  place(bare.pid, [server.child.pid, evaluator.child.pid, ...fleet.pids]);
  const bareTarget: StreamTarget = {
    name: 'bare node:http',
    port: bareListening.port,
    path: STREAM_PATH,
    pid: bare.pid,
    probe: procProbe(bare.pid),
    change: async (s) => {
      const sentAt = clock();
      const reply = await bare.ask<SentReply>({ type: 'send', seq: s }, 30_000);
      return { sentAt, from: reply.at };
    },
  };
  const bareFigures = await measurePhase(bareTarget, fleet, settings(O.streams));

  const phases = [serverFigures, evaluatorFigures, bareFigures].filter((f): f is PhaseFigures => f !== undefined);
  console.log(
    `\n${O.writes} measured writes per target (after ${O.warmupWrites} unmeasured), one at a time, ${O.spacingMs} ms from one's start to the next's; ` +
      `a message not read within ${O.lostAfterMs} ms counts as lost`,
  );
  printTable(evaluatorFigures, bareFigures, serverFigures);
  const aims = printAims(evaluatorFigures);
  console.log('');
  printCpuShares(phases);
  if (dropped !== undefined && dropped > 0) console.log(`the evaluator counted ${dropped} streams dropped as slow`);

  const summary = headline(evaluatorFigures, bareFigures, serverFigures);
  console.log(`\n${JSON.stringify(summary)}`);
  const path = writeResults('streams.json', { ...machineOf(loadAverageBefore), options: O, aims, summary, phases });
  console.log(`written ${path}`);

  await scope.close();
  const broken = phases.filter((f) => f.lost > 0 || f.closed.endedByServer > 0 || f.open.withFirstMessage < f.streams);
  for (const f of broken) console.error(`${f.target}: ${f.streams - f.open.withFirstMessage} streams never had a first message, ${f.lost} messages lost, ${f.closed.endedByServer} streams ended by the server; its figures are not valid`);
  return broken.length > 0 ? 1 : 0;
}

await runToExit('streams benchmark', main, clearTimeoutGuard);
