/**
 * One target measured: its streams opened by the client fleet, its memory read, an idle window as
 * long as the write phase, then the writes one at a time, each timed from its commit (or, for the
 * bare ceiling, from its signal) to the moment each stream had read the message carrying it.
 */
import { rssMb } from '../engine/process-memory.js';
import { cpuSeconds, measureCpuShares, type CpuShares } from '../propagation/process-cpu.js';
import { summarize, type Summary } from '../propagation/percentiles.js';
import type { ClientFleet, Closed, Opened } from './client-fleet.js';
import { userSystemSeconds } from './proc-stat.js';
import type { Probe, Reading } from './process-probe.js';
import { clock } from './seq-marker.js';

export interface StreamTarget {
  name: string;
  port: number;
  path: string;
  pid: number | undefined;
  probe: Probe;
  /** Makes the change carrying `seq`; `from` is the moment its latency counts from (commit, or the signal's arrival). */
  change(seq: number): Promise<{ sentAt: number; from: number }>;
  /** Other processes that work for it (the server an evaluator follows), for the CPU shares. */
  helperPids?: Array<number | undefined>;
}

export interface WriteSample {
  seq: number;
  /** Sent → from (a write's round trip; the IPC hop for the bare ceiling), ms. */
  roundTripMs: number;
  firstMs: number;
  lastMs: number;
  /** Sent → the last stream's message, ms. */
  sentToLastMs: number;
  lost: number;
  /** The target's RSS once every stream had the message (from /proc), MB. */
  rssMb: number | undefined;
}

export interface PhaseFigures {
  target: string;
  streams: number;
  open: { spanSeconds: number; perSecond: number; connectToFirst: Summary; withFirstMessage: number; messageBytes: number; errors: string[] };
  rss: { before: Reading; open: Reading; after: Reading; settled: Reading | undefined };
  /** (RSS with the streams open − before) / streams, KB of 10^3 bytes. */
  rssPerStreamKb: number | undefined;
  cpu: { idleSeconds: number | undefined; writeSeconds: number | undefined; windowSeconds: { idle: number; writes: number }; msPerWrite: number | undefined; gcMsPerWrite: number | undefined; clientsMsPerWrite: number | undefined; kernelShare: number | undefined };
  cpuShares: { idle: CpuShares | undefined; writes: CpuShares | undefined };
  /** commit → each stream's message, over every stream and write. */
  each: Summary;
  /** Per write: commit → the first stream's message, → the last's, and first → last. */
  first: Summary;
  last: Summary;
  spread: Summary;
  sentToLast: Summary;
  roundTrip: Summary;
  writes: WriteSample[];
  lost: number;
  closed: Closed;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export interface PhaseSettings {
  streams: number;
  writes: number;
  warmupWrites: number;
  spacingMs: number;
  concurrency: number;
  lostAfterMs: number;
  /** Seconds after the last write before the memory is read once more (whether what the writes left is collected). */
  settleSeconds: number;
  /** Hands out the next seq (unique over the whole run). */
  nextSeq: () => number;
}

async function writeOne(target: StreamTarget, fleet: ClientFleet, seq: number, lostAfterMs: number): Promise<{ sample: WriteSample; latencies: number[] }> {
  const { sentAt, from } = await target.change(seq);
  const at = await fleet.collect(seq, lostAfterMs);
  const latencies: number[] = [];
  let lost = 0;
  for (const t of at) {
    if (t < 0) lost++;
    else latencies.push(t - from);
  }
  let first = Infinity;
  let last = -Infinity;
  for (const l of latencies) {
    if (l < first) first = l;
    if (l > last) last = l;
  }
  const sample = { seq, roundTripMs: round(from - sentAt), firstMs: round(first), lastMs: round(last), sentToLastMs: round(last + from - sentAt), lost, rssMb: rssMb(target.pid) };
  return { sample, latencies };
}

const cpuOf = (pids: Array<number | undefined>) => pids.reduce<number>((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);

export async function measurePhase(target: StreamTarget, fleet: ClientFleet, s: PhaseSettings): Promise<PhaseFigures> {
  console.log(`\n${target.name}: opening ${s.streams.toLocaleString('en-US')} streams from ${fleet.peers.length} client processes`);
  const before = await target.probe();
  const opened: Opened = await fleet.open(target.port, target.path, s.streams, { concurrency: s.concurrency, timeoutMs: 120_000 });
  const open = {
    spanSeconds: round(opened.spanMs / 1000, 3),
    perSecond: Math.round(opened.withFirstMessage / (opened.spanMs / 1000)),
    connectToFirst: summarize(opened.perStreamMs.filter((t) => t >= 0)),
    withFirstMessage: opened.withFirstMessage,
    messageBytes: opened.firstMessageBytes,
    errors: opened.errors,
  };
  console.log(`  ${opened.withFirstMessage.toLocaleString('en-US')} / ${s.streams.toLocaleString('en-US')} had their first message (${open.messageBytes} bytes) after ${open.spanSeconds} s`);
  if (opened.errors.length > 0) console.log(`  errors: ${opened.errors.join('; ')}`);
  await sleep(1000);
  const openReading = await target.probe();

  for (let i = 0; i < s.warmupWrites; i++) {
    const started = clock();
    await writeOne(target, fleet, s.nextSeq(), s.lostAfterMs);
    await sleep(started + s.spacingMs - clock());
  }

  // Idle: the streams open and nothing written, as long as the writes will take.
  const windowMs = s.writes * s.spacingMs;
  const pids = [target.pid, ...(target.helperPids ?? []), ...fleet.pids];
  const idleStart = { at: clock(), reading: await target.probe() };
  const endIdleShares = measureCpuShares(pids);
  await sleep(windowMs);
  const idleShares = endIdleShares();
  const idleEnd = { at: clock(), reading: await target.probe() };

  const writeStart = { at: clock(), reading: await target.probe(), clients: cpuOf(fleet.pids), split: userSystemSeconds(target.pid) };
  const endWriteShares = measureCpuShares(pids);
  const samples: WriteSample[] = [];
  const all: number[] = [];
  for (let i = 0; i < s.writes; i++) {
    const started = clock();
    const { sample, latencies } = await writeOne(target, fleet, s.nextSeq(), s.lostAfterMs);
    samples.push(sample);
    for (const l of latencies) all.push(l);
    if (sample.lost === s.streams) throw new Error(`${target.name}: no stream had the message of write ${sample.seq}`);
    await sleep(started + s.spacingMs - clock());
  }
  const writeShares = endWriteShares();
  const writeEnd = { at: clock(), reading: await target.probe(), clients: cpuOf(fleet.pids), split: userSystemSeconds(target.pid) };
  const after = await target.probe();
  let settled: Reading | undefined;
  if (s.settleSeconds > 0) {
    await sleep(s.settleSeconds * 1000);
    settled = await target.probe();
  }
  const closed = await fleet.close();
  const kernel = writeStart.split && writeEnd.split ? { user: writeEnd.split.user - writeStart.split.user, system: writeEnd.split.system - writeStart.split.system } : undefined;

  const windows = { idle: (idleEnd.at - idleStart.at) / 1000, writes: (writeEnd.at - writeStart.at) / 1000 };
  const diff = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : b - a);
  const idleCpu = diff(idleStart.reading.cpuSeconds, idleEnd.reading.cpuSeconds);
  const writeCpu = diff(writeStart.reading.cpuSeconds, writeEnd.reading.cpuSeconds);
  const writeGc = diff(writeStart.reading.gcSeconds, writeEnd.reading.gcSeconds);
  /** Per write, ms, of what the write window took over the idle one scaled to its length. */
  const perWrite = (w: number | undefined, idle: number | undefined) =>
    w === undefined || idle === undefined ? undefined : round(((w - (idle * windows.writes) / windows.idle) / s.writes) * 1000);
  const rssPerStreamKb = openReading.rssMb === undefined || before.rssMb === undefined ? undefined : round(((openReading.rssMb - before.rssMb) * 1000) / s.streams);

  return {
    target: target.name,
    streams: s.streams,
    open,
    rss: { before, open: openReading, after, settled },
    rssPerStreamKb,
    cpu: {
      idleSeconds: idleCpu === undefined ? undefined : round(idleCpu, 3),
      writeSeconds: writeCpu === undefined ? undefined : round(writeCpu, 3),
      windowSeconds: { idle: round(windows.idle, 3), writes: round(windows.writes, 3) },
      msPerWrite: perWrite(writeCpu, idleCpu),
      gcMsPerWrite: writeGc === undefined ? undefined : round((writeGc / s.writes) * 1000),
      clientsMsPerWrite: round(((writeEnd.clients - writeStart.clients) / s.writes) * 1000),
      kernelShare: kernel === undefined || kernel.user + kernel.system === 0 ? undefined : round(kernel.system / (kernel.user + kernel.system)),
    },
    cpuShares: { idle: idleShares, writes: writeShares },
    each: summarize(all),
    first: summarize(samples.map((w) => w.firstMs)),
    last: summarize(samples.map((w) => w.lastMs)),
    spread: summarize(samples.map((w) => w.lastMs - w.firstMs)),
    sentToLast: summarize(samples.map((w) => w.sentToLastMs)),
    roundTrip: summarize(samples.map((w) => w.roundTripMs)),
    writes: samples,
    lost: samples.reduce((sum, w) => sum + w.lost, 0),
    closed,
  };
}
