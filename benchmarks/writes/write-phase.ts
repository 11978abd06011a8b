/**
 * One-flag writes, one at a time: each is timed as the client sees it, then the evaluator is polled
 * until it holds the write's revision (commit → visible) and the touched flag is checked to answer
 * there as on the server, before the next write goes. No write ever queues behind another.
 */
import { performance } from 'node:perf_hooks';
import type { EnsignNode } from '../propagation/ensign-cluster.js';
import { untilRevision } from './held-revision.js';
import type { OneFlagWrites, WriteKind } from './one-flag-writes.js';
import { compareAnswers } from './same-answers.js';

/** How long a write may take to reach the evaluator before it counts as lost. */
const VISIBLE_TIMEOUT_MS = 5000;

export interface WriteSample {
  kind: WriteKind;
  status: number;
  /** Request sent → answer arrived. */
  latencyMs: number;
  /** Answer arrived → the evaluator's /health showed the write's revision; undefined if it never did. */
  visibleMs: number | undefined;
  /** Why the evaluator's answers for the touched flag differed from the server's; undefined when alike. */
  mismatch: string | undefined;
  /** The answer's body, for a write refused. */
  error: string | undefined;
}

/** Sends `count` writes; `revision` is the namespace's revision before the first. Resolves the samples and the revision after. */
export async function writeOneAtATime(options: {
  server: EnsignNode;
  evaluator: EnsignNode;
  ns: string;
  writes: OneFlagWrites;
  count: number;
  revision: number;
}): Promise<{ samples: WriteSample[]; revision: number }> {
  const { server, evaluator, ns } = options;
  let revision = options.revision;
  const samples: WriteSample[] = [];
  for (let i = 0; i < options.count; i++) {
    const write = options.writes.next();
    const sentAt = performance.now();
    const reply = await server.client.send('PUT', write.path, write.body);
    const ackAt = performance.now();
    const sample: WriteSample = { kind: write.kind, status: reply.status, latencyMs: ackAt - sentAt, visibleMs: undefined, mismatch: undefined, error: undefined };
    samples.push(sample);
    if (reply.status < 200 || reply.status > 299) {
      sample.error = reply.text.slice(0, 300);
      continue;
    }
    write.apply();
    revision++;
    const visibleAt = await untilRevision(evaluator.client, ns, revision, VISIBLE_TIMEOUT_MS);
    if (visibleAt === undefined) continue;
    sample.visibleMs = visibleAt - ackAt;
    sample.mismatch = await compareAnswers(server.client, evaluator.client, ns, write.flagKey);
  }
  return { samples, revision };
}
