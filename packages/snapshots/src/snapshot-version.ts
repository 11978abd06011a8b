/**
 * One immutable version of a namespace's evaluation snapshot: the document, its compiled form and
 * its checksum. A new version is made from the flags that changed, in time proportional to them:
 * unchanged flags stay the same compiled objects, and the checksum is adjusted, not recomputed.
 */
import { compileSnapshot, LayeredMap, patchSnapshot, SnapshotCompilation } from '@ensign/engine';
import type { CompileOptions, CompiledFlag, CompiledSnapshot, NamespaceSnapshot, SnapshotFlag } from '@ensign/engine';
import { adjustSum, checksumOf, digestFlag, type FlagDigest } from './checksum.js';
import { EventLoopSlices } from './event-loop-slices.js';
import { sameJson } from './same-json.js';
import { compareFlags, mergeFlags, positionOf } from './flag-order.js';
import type { SnapshotDelta } from './snapshot-delta.js';
import { SnapshotMismatchError } from './snapshot-errors.js';

/**
 * Heap bytes per character of a document's JSON when the parsed document and its compiled form are
 * held together. Measured on Node 20 (heap used after gc, 200 namespaces of the benchmark workload at
 * 10, 100 and 1,000 flags): 2.8 to 3.4; rounded up to cover the client-snapshot body.
 */
export const HELD_BYTES_PER_JSON_CHAR = 4;

export class SnapshotVersion {
  private constructor(
    /** The document with its revision and checksum, as served and published. */
    readonly snapshot: NamespaceSnapshot,
    readonly compiled: CompiledSnapshot,
    private readonly digests: LayeredMap<string, FlagDigest>,
    private readonly sum: bigint,
    private readonly chars: number,
    private readonly options: CompileOptions,
  ) {
    Object.freeze(this);
  }

  /** A version holding `flags` (any order); throws `SnapshotInvalidError` when they do not compile. */
  static build(namespaceKey: string, revision: number, flags: readonly SnapshotFlag[], options: CompileOptions): SnapshotVersion {
    const sorted = [...flags].sort(compareFlags);
    const document = { namespace: { key: namespaceKey }, flags: sorted };
    const compiled = compileSnapshot(document, options);
    const { digests, sum, chars } = digestAll(sorted);
    const snapshot = { namespaceKey, revision, checksum: checksumOf(namespaceKey, sorted.length, sum), document };
    return new SnapshotVersion(snapshot, compiled, digests, sum, chars, options);
  }

  /**
   * The version a published snapshot stands for. Throws `SnapshotMismatchError` when its document
   * does not match its checksum and `SnapshotInvalidError` when it does not compile.
   */
  static hydrate(snapshot: NamespaceSnapshot, options: CompileOptions): SnapshotVersion {
    const { namespaceKey, revision, document } = snapshot;
    const { digests, sum, chars } = digestAll(document.flags);
    const checksum = checksumOf(namespaceKey, document.flags.length, sum);
    if (checksum !== snapshot.checksum) {
      throw new SnapshotMismatchError('checksum', `snapshot of "${namespaceKey}" at revision ${revision} does not match its checksum`);
    }
    // Kept in the order it was published in: control planes publish the canonical order.
    return new SnapshotVersion({ namespaceKey, revision, checksum, document }, compileSnapshot(document, options), digests, sum, chars, options);
  }

  /**
   * `hydrate`, spread over turns of the event loop (`slices`) so that serving goes on meanwhile, and
   * taking from `held` (an earlier version of the namespace) the digest and compiled form of every
   * flag whose JSON is unchanged: a hydration mostly repeats what is held, and only the flags that
   * changed are hashed and compiled. The result, and what it throws, are `hydrate`'s.
   */
  static async hydrateInSlices(snapshot: NamespaceSnapshot, options: CompileOptions, held?: SnapshotVersion, slices = new EventLoopSlices()): Promise<SnapshotVersion> {
    const { namespaceKey, revision, document } = snapshot;
    const reuse = held !== undefined && held.namespaceKey === namespaceKey && held.options.hash === options.hash ? held : undefined;
    const compilation = new SnapshotCompilation(document, options);
    const flags: SnapshotFlag[] = new Array<SnapshotFlag>(document.flags.length);
    const entries: Array<[string, FlagDigest]> = [];
    let sum = 0n;
    let chars = 0;
    for (let i = 0; i < document.flags.length; i++) {
      if (slices.spent()) await slices.next();
      const flag = document.flags[i] as SnapshotFlag;
      const old = reuse === undefined || typeof flag !== 'object' || flag === null ? undefined : reuse.digests.get(flag.key);
      let d: FlagDigest;
      if (old !== undefined && sameJson(old.flag, flag)) {
        // The held flag object stands in for its equal: the parsed copy is left to the collector.
        d = old;
        compilation.keep(old.flag.key, (reuse as SnapshotVersion).compiled.flags.get(old.flag.key) as CompiledFlag);
      } else {
        d = digestFlag(flag);
        compilation.add(flag);
      }
      flags[i] = d.flag;
      sum += d.digest;
      chars += d.chars;
      entries.push([d.flag.key, d]);
    }
    sum = adjustSum(sum, 0n, 0n);
    const checksum = checksumOf(namespaceKey, flags.length, sum);
    if (checksum !== snapshot.checksum) {
      throw new SnapshotMismatchError('checksum', `snapshot of "${namespaceKey}" at revision ${revision} does not match its checksum`);
    }
    const compiled = compilation.finish();
    return new SnapshotVersion({ namespaceKey, revision, checksum, document: { ...document, flags } }, compiled, LayeredMap.of(entries), sum, chars, options);
  }

  get namespaceKey(): string {
    return this.snapshot.namespaceKey;
  }

  get revision(): number {
    return this.snapshot.revision;
  }

  /** Approximate heap bytes of holding this version. */
  get heldBytes(): number {
    return Math.max(1, this.chars * HELD_BYTES_PER_JSON_CHAR);
  }

  /** The flag of that key, or undefined. */
  flag(key: string): SnapshotFlag | undefined {
    return this.digests.get(key)?.flag;
  }

  /**
   * The version at `revision` with `flags` put (replacing those of the same key) and `removed` taken
   * out. Throws `SnapshotInvalidError` when a flag does not compile; this version is unchanged.
   */
  next(revision: number, flags: readonly SnapshotFlag[], removed: readonly string[]): SnapshotVersion {
    const upserts = new Map<string, SnapshotFlag>();
    for (const flag of flags) upserts.set(flag.key, flag);
    const gone = removed.filter((key) => !upserts.has(key) && this.digests.has(key));
    const compiled = patchSnapshot(this.compiled, [...upserts.values()], gone, this.options);

    let sum = this.sum;
    let chars = this.chars;
    const changedDigests: Array<[string, FlagDigest]> = [];
    for (const key of gone) {
      const old = this.digests.get(key) as FlagDigest;
      sum = adjustSum(sum, old.digest, 0n);
      chars -= old.chars;
    }
    for (const [key, flag] of upserts) {
      const old = this.digests.get(key);
      const now = digestFlag(flag);
      sum = adjustSum(sum, old?.digest ?? 0n, now.digest);
      chars += now.chars - (old?.chars ?? 0);
      changedDigests.push([key, now]);
    }
    const digests = this.digests.with(changedDigests, gone);

    const ordered = this.nextFlags(upserts, gone);
    const namespaceKey = this.namespaceKey;
    const document = { namespace: { key: namespaceKey }, flags: ordered };
    const snapshot = { namespaceKey, revision, checksum: checksumOf(namespaceKey, document.flags.length, sum), document };
    return new SnapshotVersion(snapshot, compiled, digests, sum, chars, this.options);
  }

  /**
   * This version with a published delta applied. Throws `SnapshotMismatchError` when the delta does
   * not apply to this revision (`base`) or its result does not match its checksum, and
   * `SnapshotInvalidError` when a flag does not compile.
   */
  apply(delta: SnapshotDelta): SnapshotVersion {
    if (delta.baseRevision > this.revision || delta.revision <= this.revision) {
      throw new SnapshotMismatchError(
        'base',
        `delta of "${delta.namespaceKey}" from revision ${delta.baseRevision} to ${delta.revision} does not apply to revision ${this.revision}`,
      );
    }
    const result = this.next(delta.revision, delta.flags, delta.removed);
    if (result.snapshot.checksum !== delta.checksum) {
      throw new SnapshotMismatchError('checksum', `delta of "${delta.namespaceKey}" to revision ${delta.revision} does not match its checksum`);
    }
    return result;
  }

  /** The delta from `baseRevision` to this version naming `changed` keys: those held are sent whole, the others as removed. */
  deltaFrom(baseRevision: number, changed: Iterable<string>): SnapshotDelta {
    const flags: SnapshotFlag[] = [];
    const removed: string[] = [];
    for (const key of new Set(changed)) {
      const flag = this.digests.get(key)?.flag;
      if (flag === undefined) removed.push(key);
      else flags.push(flag);
    }
    return { namespaceKey: this.namespaceKey, baseRevision, revision: this.revision, checksum: this.snapshot.checksum, flags, removed };
  }

  /**
   * The document's flags with `upserts` put and `gone` taken out, in canonical order. A few changes
   * are found by binary search in a copy of the list; many are merged in one pass.
   */
  private nextFlags(upserts: ReadonlyMap<string, SnapshotFlag>, gone: readonly string[]): SnapshotFlag[] {
    const current = this.snapshot.document.flags;
    const out: Array<SnapshotFlag | undefined> = current.slice();
    const inserted: SnapshotFlag[] = [];
    let holes = 0;
    // Binary search finds a flag in the canonical order; a document published in another order is searched through.
    const indexOf = (old: SnapshotFlag): number => {
      const at = positionOf(current, old);
      return current[at] === old ? at : current.indexOf(old);
    };
    const take = (old: SnapshotFlag): void => {
      out[indexOf(old)] = undefined;
      holes++;
    };
    for (const key of gone) take((this.digests.get(key) as FlagDigest).flag);
    for (const [key, flag] of upserts) {
      const old = this.digests.get(key)?.flag;
      if (old !== undefined && old.createdAt === flag.createdAt) {
        out[indexOf(old)] = flag;
        continue;
      }
      if (old !== undefined) take(old);
      inserted.push(flag);
    }
    const kept = holes === 0 ? (out as SnapshotFlag[]) : out.filter((f): f is SnapshotFlag => f !== undefined);
    if (inserted.length === 0) return kept;
    if (inserted.length > 8) return mergeFlags(kept, inserted.sort(compareFlags));
    for (const flag of inserted) kept.splice(positionOf(kept, flag), 0, flag);
    return kept;
  }

  /** The same content at a later revision (a write that changed nothing evaluation sees). */
  at(revision: number): SnapshotVersion {
    return new SnapshotVersion({ ...this.snapshot, revision }, this.compiled, this.digests, this.sum, this.chars, this.options);
  }
}

function digestAll(flags: readonly SnapshotFlag[]): { digests: LayeredMap<string, FlagDigest>; sum: bigint; chars: number } {
  let sum = 0n;
  let chars = 0;
  const entries: Array<[string, FlagDigest]> = [];
  for (const flag of flags) {
    const d = digestFlag(flag);
    sum = adjustSum(sum, 0n, d.digest);
    chars += d.chars;
    entries.push([flag.key, d]);
  }
  return { digests: LayeredMap.of(entries), sum, chars };
}
