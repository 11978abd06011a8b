/**
 * Runs gRPC fuzz cases one after another against the fuzzed server and collects what went wrong:
 * a fault status, no answer in time, an unbounded message, or the process gone.
 */
import type { FuzzServer } from './fuzz-server.js';
import { grpcCase } from './grpc-cases.js';
import type { GrpcMethod } from './grpc-methods.js';
import { grpcSender } from './grpc-send.js';
import { grpcFault } from './grpc-verdict.js';
import { FuzzRandom } from './random.js';

export interface GrpcRun {
  seed: number;
  indexes: readonly number[];
  /** Cases that may be valid (else every write is refused by construction). */
  valid: boolean;
  deadlineMs: number;
  replay: (index: number) => string;
}

export interface GrpcRunResult {
  failures: string[];
  slowestMs: number;
}

const MOST_FAILURES = 5;

export async function runGrpcCases(server: FuzzServer, methods: readonly GrpcMethod[], run: GrpcRun): Promise<GrpcRunResult> {
  const sender = grpcSender(server.process.grpcAddress);
  let exit: number | undefined;
  void server.process.exited.then((code) => (exit = code));
  const failures: string[] = [];
  let slowestMs = 0;
  try {
    for (const index of run.indexes) {
      const rng = FuzzRandom.forCase(run.seed, index);
      const method = methods[index % methods.length] as GrpcMethod;
      const c = grpcCase(rng, method, { token: server.token, known: server.known }, run.valid);
      const answer = await sender.send(c, run.deadlineMs);
      slowestMs = Math.max(slowestMs, answer.ms);
      const fault = grpcFault(answer);
      if (fault !== undefined || exit !== undefined) {
        const logs = server.process.logs().slice(-3_000);
        const why = exit === undefined ? (fault === 'INTERNAL' || fault === 'UNKNOWN' ? `\n  the server's log ends:\n${logs}` : '') : `; the server exited with ${exit}:\n${logs}`;
        failures.push(`case ${index} (${method.path}): ${fault ?? 'the server is gone'} ${answer.details.slice(0, 600)}\n  ${c.bytes.length} bytes ${c.bytes.subarray(0, 120).toString('hex')} authorization ${c.authorization?.slice(0, 80)}\n  ${run.replay(index)}${why}`);
        if (failures.length >= MOST_FAILURES || exit !== undefined) break;
      }
      if (run.valid && method.service.startsWith('flipt.auth.')) await server.renewToken();
    }
  } finally {
    sender.close();
  }
  return { failures, slowestMs };
}
