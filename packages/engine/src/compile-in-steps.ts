/**
 * Compiles a document one flag at a time, so that a caller can spread a large namespace over several
 * turns of its event loop, and takes over compiled flags the caller knows are unchanged. The result,
 * and the error of an invalid document, are those `compileSnapshot` gives for the same document.
 */
import type { CompiledFlag, CompiledSnapshot } from './compiled-snapshot.js';
import { compileFlag, SegmentPlans } from './compile-snapshot.js';
import type { CompileOptions } from './evaluation-types.js';
import { bucketerFor } from './hashing/bucketer.js';
import type { Bucketer } from './hashing/bucketer.js';
import { LayeredMap } from './layered-map.js';
import type { SnapshotDocument, SnapshotFlag } from './snapshot-document.js';
import { SnapshotInvalidError } from './snapshot-invalid.error.js';
import { FlagChecks, validateSnapshot } from './validate-snapshot.js';

export class SnapshotCompilation {
  private readonly checks: FlagChecks;
  private readonly makeBucketer: (flagKey: string) => Bucketer;
  private readonly segments = new SegmentPlans();
  private readonly entries: Array<[string, CompiledFlag]> = [];
  private index = 0;

  /** Starts compiling `document`'s namespace; its flags are then given in order, each once. */
  constructor(
    private readonly document: Omit<SnapshotDocument, 'flags'>,
    options: CompileOptions,
  ) {
    this.makeBucketer = bucketerFor(options.hash);
    this.checks = new FlagChecks(validateSnapshot({ namespace: document.namespace, flags: [] }));
  }

  /** Validates and compiles the document's next flag. */
  add(flag: SnapshotFlag): void {
    this.checks.check(flag, this.index++);
    // Once the document is invalid nothing more is compiled: `finish` throws.
    if (this.checks.problems.length === 0) this.entries.push([flag.key, compileFlag(flag, this.makeBucketer(flag.key), this.segments)]);
  }

  /**
   * The document's next flag is `compiled`: the compiled form, with the same options, of a flag
   * whose JSON is this one's. A compiled flag depends on nothing but its own flag, so it is reused.
   */
  keep(key: string, compiled: CompiledFlag): void {
    this.checks.checkKey(key, this.index++);
    this.entries.push([key, compiled]);
  }

  /** The compiled snapshot; throws `SnapshotInvalidError` when a flag or the namespace was invalid. */
  finish(): CompiledSnapshot {
    if (this.checks.problems.length > 0) throw new SnapshotInvalidError(this.checks.problems);
    return Object.freeze({ namespaceKey: this.document.namespace.key, flags: LayeredMap.of(this.entries) });
  }
}
