/**
 * Cases measured in alternation, round after round, so that load that comes and goes on the machine
 * falls on all of them alike: the ratios between them hold better than those of cases run one after
 * the other.
 */

/** One case: runs for about `ms` and says how many evaluations it made in how much CPU time. */
export interface RoundCase {
  name: string;
  run(ms: number): { evaluations: number; cpuNs: number };
}

/** Evaluations per CPU-second of each case over all rounds, after one warm-up round. */
export function interleaved(cases: readonly RoundCase[], rounds: number, ms: number): Map<string, number> {
  for (const c of cases) c.run(ms);
  const totals = new Map(cases.map((c) => [c.name, { evaluations: 0, cpuNs: 0 }]));
  for (let round = 0; round < rounds; round++) {
    // Each round in the other order, so neither case always runs right after the same one.
    const order = round % 2 === 0 ? cases : [...cases].reverse();
    for (const c of order) {
      const r = c.run(ms);
      const total = totals.get(c.name)!;
      total.evaluations += r.evaluations;
      total.cpuNs += r.cpuNs;
    }
  }
  return new Map([...totals].map(([name, t]) => [name, Math.round(t.evaluations / (t.cpuNs / 1e9))]));
}
