/**
 * One received snapshot, compiled: what the provider answers from until the next one. It also
 * keeps what answers carry besides the value (the flag metadata, built once per shared result
 * shape) and a digest of each flag's JSON, so the next snapshot can say which flags changed
 * without keeping a second copy of the document.
 */
import { createHash } from 'node:crypto';
import { type CompiledSnapshot, compileSnapshot, type HashMode, type SnapshotFlag } from '@ensign/engine';
import type { FlagMetadata } from '@openfeature/server-sdk';
import type { ReceivedSnapshot } from './received-snapshot.js';
import { SplitRules } from '../resolve/split-rules.js';
import { FlagTimeline } from './flag-timeline.js';

const EMPTY: readonly string[] = Object.freeze([]);

const flagDigest = (flag: SnapshotFlag): string => createHash('sha1').update(JSON.stringify(flag)).digest('base64');

export class HeldNamespace {
  readonly compiled: CompiledSnapshot;
  readonly revision: number | undefined;
  readonly digest: string | undefined;
  /** The hash this snapshot was compiled with. */
  readonly hash: HashMode;
  readonly splits: SplitRules;
  readonly timeline: FlagTimeline;
  /** The metadata every answer carries. */
  private readonly base: FlagMetadata;
  /** Per segment-key array of the engine (its results share them): the metadata of answers without a failed prerequisite. */
  private readonly metadata = new WeakMap<readonly string[], FlagMetadata>();
  /** Each flag's JSON digest; the document itself is not kept. */
  private readonly digests: ReadonlyMap<string, string>;

  /** Compiles `received`; throws the engine's `SnapshotInvalidError` for a document it refuses. */
  constructor(received: ReceivedSnapshot, fallbackHash: HashMode) {
    const { flags } = received.document;
    this.hash = received.hash ?? fallbackHash;
    this.compiled = compileSnapshot(received.document, { hash: this.hash });
    this.revision = received.revision;
    this.digest = received.digest;
    this.splits = new SplitRules(flags);
    this.timeline = new FlagTimeline(flags);
    this.digests = new Map(flags.map((flag) => [flag.key, flagDigest(flag)]));
    this.base = Object.freeze({
      ...(received.revision === undefined ? {} : { revision: received.revision }),
      ...(received.digest === undefined ? {} : { version: received.digest }),
    });
  }

  get namespaceKey(): string {
    return this.compiled.namespaceKey;
  }

  /** The flag metadata of an answer: `version` (the snapshot's digest) and `revision`, `segments` (the matched segment keys), `failedPrerequisite`. Frozen, shared where it can be. */
  metadataOf(segmentKeys: readonly string[] = EMPTY, failedPrerequisite?: string): FlagMetadata {
    if (failedPrerequisite !== undefined) return Object.freeze({ ...this.build(segmentKeys), failedPrerequisite });
    let found = this.metadata.get(segmentKeys);
    if (found === undefined) {
      found = Object.freeze(this.build(segmentKeys));
      this.metadata.set(segmentKeys, found);
    }
    return found;
  }

  /** The keys of the flags that differ between `previous` and this snapshot (added, removed or changed), sorted. */
  changedSince(previous: HeldNamespace): string[] {
    const before = previous.digests;
    const after = this.digests;
    const changed = new Set<string>();
    for (const [key, digest] of after) if (before.get(key) !== digest) changed.add(key);
    for (const key of before.keys()) if (!after.has(key)) changed.add(key);
    return [...changed].sort();
  }

  private build(segmentKeys: readonly string[]): FlagMetadata {
    return segmentKeys.length === 0 ? { ...this.base } : { ...this.base, segments: segmentKeys.join(',') };
  }
}
