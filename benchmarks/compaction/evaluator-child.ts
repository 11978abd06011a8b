/**
 * An evaluator of the compaction benchmark, as its own process: follows the benchmark's bucket into
 * an in-process source and serves `/evaluate/v1` from it, as `ensign evaluator` does. Mode `slices`
 * takes hydrations through `SnapshotFollower` (this build); mode `whole` takes them the way the
 * previous build did, `SnapshotVersion.hydrate` in one block. Tells its parent over IPC, for each
 * entry of the bucket, the CPU it cost (decoding it, holding it), the longest event-loop delay while
 * it was taken and the longest block in main-thread CPU (10 ms ticks; see `eventLoopDelays`).
 * Usage (forked): evaluator-child.js <slices|whole> <bucket> <object store>
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openSnapshotBus } from '@ensign/bus';
import { createEvaluationHandler, InProcessSnapshotSource } from '@ensign/evaluator';
import { SnapshotFollower, SnapshotVersion } from '@ensign/snapshots';
import type { FollowedEntry } from '@ensign/snapshots';
import { eventLoopDelays, NATS_URL } from '@ensign/testkit';
import { type ChildMessage, COMPILE } from './child-protocol.js';


const [mode = 'slices', bucketName = '', objectStore = ''] = process.argv.slice(2);
const send = (message: ChildMessage): void => void process.send?.(message);
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const none = () => undefined;
const warn = (fields: object, message?: string): void => console.error(`evaluator ${mode}: ${message ?? ''}`, fields);
/** Warnings and errors to stderr, the rest dropped: all the handler and the bus log through. */
const logger = { fatal: warn, error: warn, warn, info: none, debug: none, trace: none, child: () => logger } as unknown as Parameters<typeof createEvaluationHandler>[0]['logger'];
const bus = openSnapshotBus({ url: NATS_URL, bucket: bucketName, objectStore, logger });
const source = new InProcessSnapshotSource();
const follower = new SnapshotFollower({ bucket: bus, holder: source, compile: COMPILE, logger: { error: none, warn: none, info: none, debug: none } });

/** Times one entry: its decoding (the bus's part) apart from the rest. */
async function timed(entry: FollowedEntry, take: (entry: FollowedEntry) => Promise<void>): Promise<void> {
  if (entry.kind === 'delete') return take(entry);
  let decodeCpuMs = 0;
  const decoding = async <T>(read: () => Promise<T>): Promise<T> => {
    const start = cpuMs();
    try {
      return await read();
    } finally {
      decodeCpuMs = cpuMs() - start;
    }
  };
  const measured: FollowedEntry = entry.kind === 'hydration' ? { ...entry, read: () => decoding(entry.read) } : { ...entry, read: () => decoding(entry.read) };
  let cpu = 0;
  let wallMs = 0;
  const delays = await eventLoopDelays(1, async () => {
    const startCpu = cpuMs();
    const startWall = performance.now();
    await take(measured);
    cpu = cpuMs() - startCpu;
    wallMs = performance.now() - startWall;
  });
  send({ kind: 'entry', entry: entry.kind, revision: entry.revision, cpuMs: cpu, decodeCpuMs, wallMs, maxDelayMs: delays.maxDelayMs, blockCpuMs: delays.longestBlockCpuMs ?? NaN });
}

/** The previous build's handling of a hydration entry: decoded, hydrated in one block, held. */
async function takeWhole(entry: FollowedEntry): Promise<void> {
  if (entry.kind === 'delete') return;
  if ((source.peek(entry.namespaceKey)?.revision ?? -1) >= entry.revision) return;
  if (entry.kind === 'hydration') source.offer(SnapshotVersion.hydrate(await entry.read(), COMPILE));
  else await follower.take(entry);
}

const take = mode === 'whole' ? takeWhole : (entry: FollowedEntry) => follower.take(entry);
await bus.watch((entry) => timed(entry, take), () => source.markReady());

const handler = createEvaluationHandler({ source, logger, hash: COMPILE.hash });
const server = createServer((req, res) => handler(req, res, () => {
  res.statusCode = 404;
  res.end();
}));
server.listen(0, '127.0.0.1', () => send({ kind: 'ready', port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => process.exit(0));
