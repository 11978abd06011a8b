/** A problem found in a snapshot document: where (JSON path from `$`) and what. */
export interface SnapshotProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * Thrown by `compileSnapshot` for a structurally invalid document, so that a bad document is
 * reported once, where it arrives, and never replaces a good compiled snapshot.
 */
export class SnapshotInvalidError extends Error {
  /** JSON paths of the offending values, e.g. `$.flags[2].rules[0].segmentOperator`. */
  readonly paths: string[];
  readonly problems: readonly SnapshotProblem[];

  constructor(problems: readonly SnapshotProblem[]) {
    const shown = problems.slice(0, 10).map((p) => `${p.path}: ${p.message}`);
    const more = problems.length > 10 ? ` (and ${problems.length - 10} more)` : '';
    super(`invalid snapshot document: ${shown.join('; ')}${more}`);
    this.name = 'SnapshotInvalidError';
    this.problems = problems;
    this.paths = problems.map((p) => p.path);
  }
}
