/**
 * The flags of `ensign export` and `ensign import`, Flipt's (`flipt export`, `flipt import`), and
 * what they ask for once parsed.
 */

/** A command-line flag, as parsed and as documented. */
export interface FlagSpec {
  name: string;
  short?: string;
  /** Set for a flag that takes a value: how help shows it. */
  value?: string;
  doc: string;
}

/** Where to reach a running server instead of the database. */
export interface RemoteTarget {
  address: string;
  token: string | undefined;
}

export interface ExportArgs {
  /** The file to write; stdout when undefined. */
  output: string | undefined;
  /** The namespaces, in the order asked; `all` for every namespace. */
  namespaces: string[] | 'all';
  sortByKey: boolean;
  remote: RemoteTarget | undefined;
}

/** A running server whose namespaces an import reads instead of a file (`--from`). */
export interface ImportSource {
  server: RemoteTarget;
  /** The namespaces, in the order asked; `all` for every namespace. */
  namespaces: string[] | 'all';
}

export interface ImportArgs {
  /** The file to read; stdin when neither it nor `source` is given. */
  file: string | undefined;
  drop: boolean;
  skipExisting: boolean;
  remote: RemoteTarget | undefined;
  /** `--from`: read the namespaces from this server instead of a file. */
  source?: ImportSource | undefined;
}

const ADDRESS: FlagSpec = { name: 'address', short: 'a', value: '<url>', doc: 'A running Ensign (or Flipt, for export) to talk to over HTTP instead of the database' };
const TOKEN: FlagSpec = { name: 'token', short: 't', value: '<token>', doc: 'Client token sent to --address (Authorization: Bearer)' };

export const EXPORT_FLAGS: readonly FlagSpec[] = [
  { name: 'output', short: 'o', value: '<file>', doc: 'Write to this file (.json: JSON, else YAML) instead of stdout' },
  { name: 'namespace', short: 'n', value: '<key>', doc: 'The namespace to export (default: default)' },
  { name: 'namespaces', value: '<a,b>', doc: 'Comma-separated namespaces to export, one document each' },
  { name: 'all-namespaces', doc: 'Export every namespace' },
  { name: 'sort-by-key', doc: 'Sort flags, segments and variants (with --all-namespaces, namespaces too) by key' },
  ADDRESS,
  TOKEN,
];

export const IMPORT_FLAGS: readonly FlagSpec[] = [
  { name: 'stdin', doc: 'Read the documents from stdin instead of a file' },
  { name: 'from', value: '<url>', doc: 'Read the namespaces from a running Flipt or Ensign instead of a file, keeping when each flag and segment was created (into the database only)' },
  { name: 'from-token', value: '<token>', doc: 'Client token sent to --from (Authorization: Bearer)' },
  { name: 'namespace', short: 'n', value: '<key>', doc: 'With --from: the namespace to import (default: default)' },
  { name: 'namespaces', value: '<a,b>', doc: 'With --from: comma-separated namespaces to import' },
  { name: 'all-namespaces', doc: 'With --from: import every namespace' },
  { name: 'drop', doc: 'Replace the flags and segments of each namespace imported' },
  { name: 'skip-existing', doc: 'Leave flags and segments whose keys already exist as they are' },
  ADDRESS,
  TOKEN,
];

export type Values = Readonly<Record<string, string | boolean | undefined>>;

const text = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

/** The server named by the flag `address` (with its `token` flag), or the usage error's message. */
export function remoteOf(values: Values, address = 'address', token = 'token'): RemoteTarget | string | undefined {
  const url = text(values, address);
  const secret = text(values, token);
  if (url === undefined) return secret === undefined ? undefined : `--${token} needs --${address}`;
  if (!/^https?:\/\/[^/]/.test(url)) return `--${address} must be an http:// or https:// URL (got "${url}")`;
  return { address: url.replace(/\/+$/, ''), token: secret };
}

const NAMESPACE_FLAGS = ['namespace', 'namespaces', 'all-namespaces'] as const;

/** The namespaces `-n`, `--namespaces` or `--all-namespaces` name (`default` when none), or the usage error's message. */
function namespacesOf(values: Values): { namespaces: string[] | 'all' } | string {
  const one = text(values, 'namespace');
  const list = text(values, 'namespaces');
  const all = values['all-namespaces'] === true;
  if ([one !== undefined, list !== undefined, all].filter(Boolean).length > 1) {
    return '--namespace, --namespaces and --all-namespaces are mutually exclusive';
  }
  if (all) return { namespaces: 'all' };
  const keys = (list ?? one ?? 'default').split(',').map((key) => key.trim());
  if (keys.some((key) => key === '')) return 'a namespace key must not be empty';
  return { namespaces: keys };
}

/** The export asked for, or the usage error's message. */
export function exportArgs(values: Values): ExportArgs | string {
  const remote = remoteOf(values);
  if (typeof remote === 'string') return remote;
  const named = namespacesOf(values);
  if (typeof named === 'string') return named;
  return { output: text(values, 'output'), namespaces: named.namespaces, sortByKey: values['sort-by-key'] === true, remote };
}

/** `--from` and the namespaces to read from it, or the usage error's message. */
function sourceOf(values: Values): ImportSource | string | undefined {
  const server = remoteOf(values, 'from', 'from-token');
  if (typeof server === 'string') return server;
  if (server === undefined) {
    const stray = NAMESPACE_FLAGS.find((name) => values[name] !== undefined);
    return stray === undefined ? undefined : `--${stray} needs --from (a file names its own namespaces)`;
  }
  const named = namespacesOf(values);
  return typeof named === 'string' ? named : { server, namespaces: named.namespaces };
}

/** The import asked for, or the usage error's message. */
export function importArgs(values: Values, positionals: readonly string[]): ImportArgs | string {
  const remote = remoteOf(values);
  if (typeof remote === 'string') return remote;
  const source = sourceOf(values);
  if (typeof source === 'string') return source;
  const stdin = values['stdin'] === true;
  if (positionals.length > 1) return `unexpected argument "${positionals[1]}"`;
  const [file] = positionals;
  if (source !== undefined && (stdin || file !== undefined)) return 'give a file, --stdin or --from, not two of them';
  if (stdin && file !== undefined) return 'give a file or --stdin, not both';
  if (!stdin && file === undefined && source === undefined) return 'import needs a file (or --stdin)';
  // The import route takes documents, which have no place for creation times.
  if (source !== undefined && remote !== undefined) return '--from imports into the database (db.url), not through --address';
  return { file, drop: values['drop'] === true, skipExisting: values['skip-existing'] === true, remote, source };
}
