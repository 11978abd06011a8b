/** The stream benchmark's console output: one table, the aims, the CPU use, and one line of JSON. */
import os from 'node:os';
import type { CpuShares } from '../propagation/process-cpu.js';
import { AIM_LAST_P99_MS, AIM_RSS_MB, STREAMS_OPTIONS } from './options.js';
import type { PhaseFigures } from './stream-phase.js';

type Cell = number | undefined;
const text = (v: Cell, digits = 1) => (v === undefined || !Number.isFinite(v) ? '–' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const ratio = (a: Cell, b: Cell) => (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0 ? undefined : a / b);

interface Row {
  label: string;
  pick: (f: PhaseFigures) => Cell;
  digits?: number;
  /** No ratio to bare for this row. */
  noRatio?: boolean;
}

const ROWS: Row[] = [
  { label: 'streams with a first message', pick: (f) => f.open.withFirstMessage, digits: 0, noRatio: true },
  { label: 'message bytes', pick: (f) => f.open.messageBytes, digits: 0, noRatio: true },
  { label: 'opening them all, s', pick: (f) => f.open.spanSeconds, digits: 2 },
  { label: 'connect → first message p50, ms', pick: (f) => f.open.connectToFirst.p50, digits: 2 },
  { label: 'connect → first message p99, ms', pick: (f) => f.open.connectToFirst.p99, digits: 2 },
  { label: 'commit → each stream p50, ms', pick: (f) => f.each.p50, digits: 1 },
  { label: 'commit → each stream p99, ms', pick: (f) => f.each.p99, digits: 1 },
  { label: 'commit → each stream max, ms', pick: (f) => f.each.max, digits: 1 },
  { label: 'commit → first stream p50, ms', pick: (f) => f.first.p50, digits: 1 },
  { label: 'commit → last stream p50, ms', pick: (f) => f.last.p50, digits: 1 },
  { label: 'commit → last stream p99, ms', pick: (f) => f.last.p99, digits: 1 },
  { label: 'first → last stream p50, ms', pick: (f) => f.spread.p50, digits: 1 },
  { label: 'first → last stream p99, ms', pick: (f) => f.spread.p99, digits: 1 },
  { label: 'write sent → commit p50, ms', pick: (f) => f.roundTrip.p50, digits: 1, noRatio: true },
  { label: 'write sent → last stream p99, ms', pick: (f) => f.sentToLast.p99, digits: 1, noRatio: true },
  { label: 'RSS before the streams, MB', pick: (f) => f.rss.before.rssMb, digits: 1 },
  { label: 'RSS with the streams open, MB', pick: (f) => f.rss.open.rssMb, digits: 1 },
  { label: 'RSS after the writes, MB', pick: (f) => f.rss.after.rssMb, digits: 1 },
  { label: `RSS ${STREAMS_OPTIONS.settleSeconds} s after the writes, MB`, pick: (f) => f.rss.settled?.rssMb, digits: 1 },
  { label: 'peak RSS (VmHWM), MB', pick: (f) => f.rss.after.peakRssMb, digits: 1 },
  { label: 'V8 heap used after the writes, MB', pick: (f) => f.rss.after.heapUsedMb, digits: 1, noRatio: true },
  { label: 'external (Buffers…) after the writes, MB', pick: (f) => f.rss.after.externalMb, digits: 1, noRatio: true },
  { label: 'RSS per stream, KB', pick: (f) => f.rssPerStreamKb, digits: 1 },
  { label: 'CPU per write (− idle), ms', pick: (f) => f.cpu.msPerWrite, digits: 1 },
  { label: 'GC pauses per write, ms', pick: (f) => f.cpu.gcMsPerWrite, digits: 1, noRatio: true },
  { label: 'of its CPU while writing: kernel, %', pick: (f) => (f.cpu.kernelShare === undefined ? undefined : f.cpu.kernelShare * 100), digits: 0, noRatio: true },
  { label: 'client processes\' CPU per write, ms', pick: (f) => f.cpu.clientsMsPerWrite, digits: 1 },
  { label: 'messages lost (not within the limit)', pick: (f) => f.lost, digits: 0, noRatio: true },
  { label: 'streams ended by the server', pick: (f) => f.closed.endedByServer, digits: 0, noRatio: true },
];

/** The table: evaluator, bare, evaluator ÷ bare, server. */
export function printTable(evaluator: PhaseFigures, bare: PhaseFigures | undefined, server: PhaseFigures | undefined): void {
  const head = [`ensign evaluator (${evaluator.streams.toLocaleString('en-US')})`, ...(bare ? [`bare node:http (${bare.streams.toLocaleString('en-US')})`, 'evaluator ÷ bare'] : []), ...(server ? [`ensign server (${server.streams.toLocaleString('en-US')})`] : [])];
  const widths = head.map((h) => Math.max(h.length + 2, 12));
  const labelWidth = 40;
  const line = (label: string, cells: string[]) => console.log(`${label.padEnd(labelWidth)}${cells.map((c, i) => c.padStart(widths[i]!)).join('')}`);
  console.log('');
  line('', head);
  for (const row of ROWS) {
    const e = row.pick(evaluator);
    const cells = [text(e, row.digits)];
    if (bare) {
      const b = row.pick(bare);
      cells.push(text(b, row.digits), row.noRatio ? '' : `${text(ratio(e, b), 2)}${ratio(e, b) === undefined ? '' : '×'}`);
    }
    if (server) cells.push(text(row.pick(server), row.digits));
    line(row.label, cells);
  }
  if (bare) console.log('(for the bare server, "commit" is the moment it got the signal to write)');
}

export function printAims(evaluator: PhaseFigures): { lastP99Met: boolean; rssOpenMet: boolean; rssPeakMet: boolean } {
  const full = evaluator.streams >= 10_000 ? '' : ` (with ${evaluator.streams.toLocaleString('en-US')} streams, not the aim's 10,000)`;
  const lastP99Met = evaluator.lost === 0 && evaluator.last.p99 < AIM_LAST_P99_MS;
  const open = evaluator.rss.open.rssMb ?? Infinity;
  const peak = Math.max(evaluator.rss.after.peakRssMb ?? -Infinity, evaluator.rss.after.rssMb ?? -Infinity);
  const rssOpenMet = open < AIM_RSS_MB;
  const rssPeakMet = peak < AIM_RSS_MB;
  const met = (yes: boolean) => (yes ? 'met' : 'NOT met');
  console.log(`\naim: p99 commit → last stream < ${AIM_LAST_P99_MS} ms: ${met(lastP99Met)} (${evaluator.last.p99} ms)${full}`);
  console.log(
    `aim: evaluator RSS < ${AIM_RSS_MB} MB: with the streams open ${met(rssOpenMet)} (${text(open)} MB); ` +
      `through the writes ${met(rssPeakMet)} (peak ${text(peak)} MB, ${text(evaluator.rss.after.rssMb)} MB after the last)${full}`,
  );
  return { lastP99Met, rssOpenMet, rssPeakMet };
}

export function printCpuShares(phases: PhaseFigures[]): void {
  const show = (s: CpuShares | undefined) => (s === undefined ? '–' : `${s.machine} of ${os.cpus().length} busy (the benchmark's processes ${s.benchmark}, other work ${s.other}${s.other > 0.2 ? ': not a quiet machine' : ''})`);
  for (const f of phases) console.log(`${f.target}: idle window ${show(f.cpuShares.idle)}; writes ${show(f.cpuShares.writes)}`);
}

/** The figures of the one-line JSON. */
export function headline(evaluator: PhaseFigures, bare: PhaseFigures | undefined, server: PhaseFigures | undefined): Record<string, unknown> {
  const pick = (f: PhaseFigures) => ({
    streams: f.streams,
    withFirstMessage: f.open.withFirstMessage,
    messageBytes: f.open.messageBytes,
    openSeconds: f.open.spanSeconds,
    eachP50Ms: f.each.p50,
    eachP99Ms: f.each.p99,
    eachMaxMs: f.each.max,
    lastP50Ms: f.last.p50,
    lastP99Ms: f.last.p99,
    spreadP50Ms: f.spread.p50,
    rssBeforeMb: f.rss.before.rssMb,
    rssOpenMb: f.rss.open.rssMb,
    rssAfterMb: f.rss.after.rssMb,
    rssSettledMb: f.rss.settled?.rssMb,
    peakRssMb: f.rss.after.peakRssMb,
    cpuMsPerWrite: f.cpu.msPerWrite,
    gcMsPerWrite: f.cpu.gcMsPerWrite,
    clientsCpuMsPerWrite: f.cpu.clientsMsPerWrite,
    otherWorkCpusWhileWriting: f.cpuShares.writes?.other,
    lost: f.lost,
    endedByServer: f.closed.endedByServer,
  });
  const r = (a: Cell, b: Cell) => {
    const v = ratio(a, b);
    return v === undefined ? undefined : Math.round(v * 100) / 100;
  };
  return {
    evaluator: pick(evaluator),
    ...(bare
      ? {
          bare: pick(bare),
          ratioToBare: {
            lastP99: r(evaluator.last.p99, bare.last.p99),
            eachP99: r(evaluator.each.p99, bare.each.p99),
            spreadP50: r(evaluator.spread.p50, bare.spread.p50),
            rssOpen: r(evaluator.rss.open.rssMb, bare.rss.open.rssMb),
            rssPerStream: r(evaluator.rssPerStreamKb, bare.rssPerStreamKb),
            cpuPerWrite: r(evaluator.cpu.msPerWrite, bare.cpu.msPerWrite),
          },
        }
      : {}),
    ...(server ? { server: pick(server) } : {}),
  };
}
