/**
 * Cases measured in alternation, round after round, as engine/interleaved-rounds.ts does for
 * synchronous ones, for cases that await (an OpenFeature client): load that comes and goes on the
 * machine falls on all of them alike, so the ratios between them hold.
 */

/** What one round of a case did. */
export interface RoundResult {
  evaluations: number;
  /** CPU time of this process (all its threads) over the round. */
  cpuNs: number;
  wallNs: number;
}

export interface AsyncCase {
  name: string;
  run(ms: number): Promise<RoundResult>;
}

export interface CaseFigures {
  evaluations: number;
  cpuSeconds: number;
  wallSeconds: number;
  /** Evaluations per wall second of each measured round. */
  rounds: number[];
}

/** Times `work` (which runs until `ms` have passed and says how many evaluations it made). */
export async function measured(work: () => Promise<number> | number): Promise<RoundResult> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const evaluations = await work();
  const wallNs = Number(process.hrtime.bigint() - started);
  const used = process.cpuUsage(cpu);
  return { evaluations, cpuNs: (used.user + used.system) * 1000, wallNs };
}

/** Every case once to warm up, then `rounds` rounds, each in the other order than the one before. */
export async function interleavedAsync(cases: readonly AsyncCase[], rounds: number, ms: number): Promise<Map<string, CaseFigures>> {
  for (const c of cases) await c.run(ms);
  const totals = new Map(cases.map((c) => [c.name, { evaluations: 0, cpuSeconds: 0, wallSeconds: 0, rounds: [] as number[] }]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? cases : [...cases].reverse();
    for (const c of order) {
      const r = await c.run(ms);
      const total = totals.get(c.name)!;
      total.evaluations += r.evaluations;
      total.cpuSeconds += r.cpuNs / 1e9;
      total.wallSeconds += r.wallNs / 1e9;
      total.rounds.push(Math.round(r.evaluations / (r.wallNs / 1e9)));
    }
  }
  return totals;
}
