/**
 * What authorizing a management call costs: `ManagementAuthorization.check(caller, operation)` with
 * the native `RolePolicy` over Flipt's example roles, next to the same call with no authorization (a
 * no-op guard), in interleaved rounds on one core. Allowed and refused calls are timed apart: a
 * refusal throws.
 * Run: `npm run bench:authz` (BENCH_AUTHZ_* variables below; writes benchmarks/results/authz.json).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { ManagementOperation } from '@ensign/core';
import { type Caller, ManagementAuthorization, PolicyFiles, RolePolicy } from '@ensign/auth';
import { machineOf, writeResults } from '../engine/results-file.js';
import { summarize } from '../propagation/percentiles.js';
import { allows, type Call, callPools, drawn, FLIPT_ROLE_DATA, type Role, ROLES } from './authz-cases.js';

const ROUNDS = Number(process.env['BENCH_AUTHZ_ROUNDS'] ?? 15);
const MEASURE_MS = Number(process.env['BENCH_AUTHZ_MS'] ?? 200);
const WARMUP_MS = Number(process.env['BENCH_AUTHZ_WARMUP_MS'] ?? 500);
/** The limit for an allowed call. */
const LIMIT_NS = 2000;
const CALLS = 4096;
const CHUNK = 10_000;

/** What the operation middleware calls (control-plane's OperationGuard, the part timed here). */
interface Guard {
  check(caller: Caller | undefined, operation: ManagementOperation): void | Promise<void>;
}

/** The yardstick: the middleware's call with nothing behind it. */
const NO_AUTHORIZATION: Guard = { check: () => undefined };

interface Case {
  name: string;
  guard: Guard;
  calls: Call[];
  /** The case whose time is subtracted for the added cost; undefined for the yardsticks. */
  yardstick: string | undefined;
  /** Whether every call must be refused (else every call must pass). */
  refused: boolean;
}

/**
 * Runs chunks of checks until `ms` of wall time have passed. Returns the checks made, the CPU
 * nanoseconds they took, how many were refused and how many answered asynchronously.
 */
function run(guard: Guard, calls: Call[], ms: number) {
  const deadline = process.hrtime.bigint() + BigInt(ms) * 1_000_000n;
  const cpuStart = process.cpuUsage();
  let checks = 0;
  let refused = 0;
  let pending = 0;
  let i = 0;
  while (process.hrtime.bigint() < deadline) {
    for (let k = 0; k < CHUNK; k++) {
      const call = calls[i]!;
      try {
        if (guard.check(call.caller, call.operation) !== undefined) pending++;
      } catch {
        refused++;
      }
      i = i + 1 === calls.length ? 0 : i + 1;
    }
    checks += CHUNK;
  }
  const cpu = process.cpuUsage(cpuStart);
  return { checks, cpuNs: (cpu.user + cpu.system) * 1000, refused, pending };
}

/** Flipt's example data in a file, read by PolicyFiles as `ensign server` reads it. */
async function serverWiredEngine(dir: string): Promise<PolicyFiles> {
  const path = join(dir, 'roles.json');
  writeFileSync(path, FLIPT_ROLE_DATA);
  const files = new PolicyFiles({ data: { path }, logger: { info: () => undefined, warn: () => undefined } });
  await files.start();
  return files;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function main(): Promise<void> {
  const loadAverageBefore = os.loadavg();
  const dir = mkdtempSync(join(os.tmpdir(), 'ensign-authz-bench-'));
  const files = await serverWiredEngine(dir);
  try {
    let deniedHeard = 0;
    const policy = RolePolicy.fromText(FLIPT_ROLE_DATA);
    const native = new ManagementAuthorization({ engine: () => policy, onDenied: () => void deniedHeard++ });
    const wired = new ManagementAuthorization({ engine: () => files, onDenied: () => void deniedHeard++ });

    const pools = callPools();
    const allowedMix = drawn(ROLES.flatMap((role) => pools.allowed[role]), CALLS, 1);
    const deniedMix = drawn(pools.denied, CALLS, 2);
    const only = (role: Role, name: string) => pools.allowed[role].filter((c) => c.operation.name === name);
    const ALLOWED_YARDSTICK = 'no authorization (no-op), allowed mix';
    const DENIED_YARDSTICK = 'no authorization (no-op), denied mix';
    const allowed = (name: string, guard: Guard, calls: Call[]): Case => ({ name, guard, calls, yardstick: ALLOWED_YARDSTICK, refused: false });
    const cases: Case[] = [
      { name: ALLOWED_YARDSTICK, guard: NO_AUTHORIZATION, calls: allowedMix, yardstick: undefined, refused: false },
      allowed('RolePolicy, allowed mix', native, allowedMix),
      allowed('RolePolicy via PolicyFiles (server wiring), allowed mix', wired, allowedMix),
      ...ROLES.map((role) => allowed(`RolePolicy, ${role} only`, native, drawn(pools.allowed[role], CALLS, 3))),
      allowed('RolePolicy, editor UpdateFlag (1 check)', native, drawn(only('editor', 'UpdateFlag'), CALLS, 4)),
      allowed('RolePolicy, admin ImportNamespace (6 checks)', native, drawn(only('admin', 'ImportNamespace'), CALLS, 5)),
      { name: DENIED_YARDSTICK, guard: NO_AUTHORIZATION, calls: deniedMix, yardstick: undefined, refused: false },
      { name: 'RolePolicy, denied mix (throws)', guard: native, calls: deniedMix, yardstick: DENIED_YARDSTICK, refused: true },
    ];
    for (const c of cases) {
      for (const call of c.calls) {
        if (c.guard instanceof ManagementAuthorization && allows(c.guard, call) === c.refused) throw new Error(`${c.name}: ${call.role} ${call.operation.name} decided otherwise than the pools say`);
      }
    }

    for (const c of cases) run(c.guard, c.calls, WARMUP_MS);
    const nsByCase = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    const addedByCase = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // The order turns every round, so no case always runs first or after the same neighbour.
      const order = cases.map((_, i) => cases[(i + round) % cases.length]!);
      const ns = new Map<string, number>();
      for (const c of round % 2 === 0 ? order : order.reverse()) {
        const r = run(c.guard, c.calls, MEASURE_MS);
        if (r.pending > 0) throw new Error(`${c.name}: ${r.pending} checks answered asynchronously`);
        if (r.refused !== (c.refused ? r.checks : 0)) throw new Error(`${c.name}: ${r.refused} of ${r.checks} refused`);
        ns.set(c.name, r.cpuNs / r.checks);
      }
      for (const c of cases) {
        nsByCase.get(c.name)!.push(ns.get(c.name)!);
        if (c.yardstick !== undefined) addedByCase.get(c.name)!.push(ns.get(c.name)! - ns.get(c.yardstick)!);
      }
    }

    const results = cases.map((c) => {
      const ns = summarize(nsByCase.get(c.name)!);
      const added = c.yardstick === undefined ? undefined : summarize(addedByCase.get(c.name)!);
      return { name: c.name, calls: new Set(c.calls).size, yardstick: c.yardstick, nsPerCheck: ns, addedNs: added };
    });
    const pad = (s: string, n: number) => s.padEnd(n);
    const lpad = (s: string, n: number) => s.padStart(n);
    console.log(`\n${ROUNDS} interleaved rounds of ${MEASURE_MS} ms a case; ns of CPU per check (median over the rounds, [min–max]); added = case − its no-op yardstick, per round`);
    console.log(`${pad('case', 58)} ${lpad('ns/check', 9)} ${lpad('range', 15)} ${lpad('added ns', 9)} ${lpad('added range', 17)}`);
    for (const r of results) {
      const range = `${round1(r.nsPerCheck.min)}–${round1(r.nsPerCheck.max)}`;
      const added = r.addedNs === undefined ? '' : round1(r.addedNs.p50).toFixed(1);
      const addedRange = r.addedNs === undefined ? '' : `${round1(r.addedNs.min)}–${round1(r.addedNs.max)}`;
      console.log(`${pad(r.name, 58)} ${lpad(round1(r.nsPerCheck.p50).toFixed(1), 9)} ${lpad(range, 15)} ${lpad(added, 9)} ${lpad(addedRange, 17)}`);
    }
    const addedOf = (name: string) => results.find((r) => r.name === name)?.addedNs?.p50 ?? NaN;
    const headline = addedOf('RolePolicy, allowed mix');
    console.log(
      `\nlimit: under ${LIMIT_NS} ns added per allowed management call: ${headline < LIMIT_NS ? 'met' : 'NOT met'} ` +
        `(allowed mix ${round1(headline)} ns; editor UpdateFlag ${round1(addedOf('RolePolicy, editor UpdateFlag (1 check)'))} ns; ` +
        `admin ImportNamespace, 6 checks, ${round1(addedOf('RolePolicy, admin ImportNamespace (6 checks)'))} ns)`,
    );
    const loadAverage = os.loadavg()[0] ?? 0;
    if (loadAverage > 1.5) console.log(`(load average ${loadAverage.toFixed(1)}: other work was running)`);
    if (deniedHeard === 0) throw new Error('no refusal reached onDenied');

    const path = writeResults('authz.json', { ...machineOf(loadAverageBefore), rounds: ROUNDS, measureMs: MEASURE_MS, warmupMs: WARMUP_MS, limitNs: LIMIT_NS, addedNsAllowedMix: headline, cases: results });
    console.log(`\nwritten ${path}`);
  } finally {
    await files.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
