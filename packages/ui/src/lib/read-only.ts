/**
 * Where the server's flags come from and whether they can be changed, from `GET /meta/info`'s
 * `storage`: the read-only banner's words and the "Read-only: …" tooltip of every control that
 * would write. A server without the route (older) or an answer without `storage` is writable.
 */

export interface ServerStorage {
  /** `database`, `local` (a directory of feature files) or `git` (a repository of them). */
  type: string;
  /** Whether the server refuses every management write. */
  readOnly: boolean;
  /** Flipt's strings: `repository`, `ref`, `directory`, `commit` (git); `path`, `revision` (local); `lastSync`, `lastError`. */
  metadata: Readonly<Record<string, string>>;
}

/** What a server that says nothing (no `/meta/info`, no `storage`) is: writable, flags in its database. */
export const WRITABLE: ServerStorage = { type: 'database', readOnly: false, metadata: {} };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `storage` of a `/meta/info` body, read defensively (anything missing or odd reads as writable). */
export function storageOf(info: unknown): ServerStorage {
  if (!isRecord(info) || !isRecord(info['storage'])) return WRITABLE;
  const storage = info['storage'];
  const metadata: Record<string, string> = {};
  if (isRecord(storage['metadata'])) {
    for (const [name, value] of Object.entries(storage['metadata'])) if (typeof value === 'string' && value !== '') metadata[name] = value;
  }
  return {
    type: typeof storage['type'] === 'string' && storage['type'] !== '' ? storage['type'] : 'database',
    readOnly: storage['readOnly'] === true,
    metadata,
  };
}

/** A git commit as people quote it (7 characters); anything that is not a hex hash is left as is. */
export function shortCommit(commit: string): string {
  return /^[0-9a-f]{8,}$/i.test(commit) ? commit.slice(0, 7) : commit;
}

/**
 * Where the flags are served from, as the banner names it: `git repository <url> @ <ref> (<commit>)`
 * (and its directory), `directory <path>`, or `this server's settings` when database storage was
 * made read-only.
 */
export function storageSource(storage: ServerStorage): string {
  const m = storage.metadata;
  if (storage.type === 'git') {
    const repository = m['repository'] === undefined ? 'a git repository' : `git repository ${m['repository']}`;
    const at = m['ref'] === undefined ? '' : ` @ ${m['ref']}`;
    const commit = m['commit'] === undefined ? '' : ` (${shortCommit(m['commit'])})`;
    const directory = m['directory'] === undefined ? '' : `, directory ${m['directory']}`;
    return `${repository}${at}${commit}${directory}`;
  }
  if (storage.type === 'local') return m['path'] === undefined ? 'a directory of feature files' : `directory ${m['path']}`;
  return "this server's settings";
}

/** Are the flags served from feature files (a directory or a git repository), rather than the database? */
export const fromFiles = (storage: ServerStorage): boolean => storage.type === 'git' || storage.type === 'local';

/** The banner's first line, and the tooltip of every control that would write: "Read-only: …". */
export function readOnlyHeadline(storage: ServerStorage): string {
  return fromFiles(storage) ? `Read-only: flags are served from ${storageSource(storage)}` : "Read-only: this server's settings allow no changes";
}

/** What to do instead of changing things here. */
export function readOnlyAdvice(storage: ServerStorage): string {
  if (storage.type === 'git') return 'Change flags, segments and namespaces by committing to the repository; the server applies new commits on its own.';
  if (storage.type === 'local') return 'Change flags, segments and namespaces in the feature files; the server applies edits on its own.';
  return 'Flags, segments and namespaces can be read, evaluated and exported, but not changed (storage.read_only).';
}

/** When the files were last applied (RFC 3339), if the server said. */
export const lastSyncOf = (storage: ServerStorage): string | undefined => storage.metadata['lastSync'];

/** The warning about the latest edit of the files the server refused, if it refused one. */
export function refusedChange(storage: ServerStorage): string | undefined {
  const error = storage.metadata['lastError'];
  return error === undefined ? undefined : `The latest change was refused: ${error}; still serving the previous state.`;
}
