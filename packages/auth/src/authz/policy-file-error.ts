/**
 * A policy or data file that cannot be used, named as an operator finds it: `data.json:7: <problem>`
 * (or `policy.wasm: <problem>` when no line applies). The CLI turns one at start into exit 2.
 */
export class PolicyFileError extends Error {
  override readonly name = 'PolicyFileError';

  constructor(
    /** The file as configured. */
    readonly file: string,
    /** 1-based line, when the problem has one. */
    readonly line: number | undefined,
    /** The problem alone, without the location. */
    readonly problem: string,
    /** `message` replaces the `file:line: problem` form where a sentence reads better. */
    options?: { cause?: unknown; message?: string },
  ) {
    super(options?.message ?? `${file}${line === undefined ? '' : `:${line}`}: ${problem}`, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}
