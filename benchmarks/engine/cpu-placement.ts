/**
 * Which CPU each process of the HTTP benchmark runs on: the process under test alone on one, the
 * load generator and any helper (the control plane an evaluator follows) on the other.
 */
import { pin } from './child-processes.js';

export class CpuPlacement {
  private failed = false;

  /** Both undefined: nothing is pinned. */
  constructor(
    readonly serverCpu: number | undefined,
    readonly clientCpu: number | undefined,
  ) {}

  /** Pins the process under test. */
  underTest(pid: number | undefined): void {
    this.place(pid, this.serverCpu);
  }

  /** Pins a process the one under test needs, away from it. */
  helper(pid: number | undefined): void {
    this.place(pid, this.clientCpu);
  }

  /** Whether every process asked for was pinned. */
  get pinned(): boolean {
    return this.serverCpu !== undefined && !this.failed;
  }

  get description(): string {
    if (this.pinned) return `server under test on CPU ${this.serverCpu}, load generator on CPU ${this.clientCpu}`;
    return this.serverCpu === undefined ? 'processes not pinned' : 'processes not pinned (taskset failed)';
  }

  private place(pid: number | undefined, cpu: number | undefined): void {
    if (cpu !== undefined && !pin(pid, cpu)) this.failed = true;
  }
}
