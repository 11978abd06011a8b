/** Why a set of feature files cannot be served: the message, the file and, when known, where in it. */
export class DeclarativeError extends Error {
  override readonly name = 'DeclarativeError';
  /** The file, relative to the storage's root (slash-separated). */
  readonly file: string | undefined;
  /** Where in the file: a key path such as `flags[2].rules[0].segment`, or `line 4`. */
  readonly path: string | undefined;

  /** `message` is complete as given; `where` says what it is about, for logs and `/health`. */
  constructor(message: string, where: { file?: string | undefined; path?: string | undefined } = {}) {
    super(message);
    this.file = where.file;
    this.path = where.path;
  }
}

/** A DeclarativeError whose message starts with the file and the path: `features.yml: line 3: invalid YAML…`. */
export function fileError(reason: string, where: { file?: string | undefined; path?: string | undefined }): DeclarativeError {
  const at = [where.file, where.path].filter((part) => part !== undefined && part !== '').join(': ');
  return new DeclarativeError(at === '' ? reason : `${at}: ${reason}`, where);
}
