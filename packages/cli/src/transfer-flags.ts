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

export interface ImportArgs {
  /** The file to read; stdin when undefined. */
  file: string | undefined;
  drop: boolean;
  skipExisting: boolean;
  remote: RemoteTarget | undefined;
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

export function remoteOf(values: Values): RemoteTarget | string | undefined {
  const address = text(values, 'address');
  const token = text(values, 'token');
  if (address === undefined) return token === undefined ? undefined : '--token needs --address';
  if (!/^https?:\/\/[^/]/.test(address)) return `--address must be an http:// or https:// URL (got "${address}")`;
  return { address: address.replace(/\/+$/, ''), token };
}

/** The export asked for, or the usage error's message. */
export function exportArgs(values: Values): ExportArgs | string {
  const remote = remoteOf(values);
  if (typeof remote === 'string') return remote;
  const one = text(values, 'namespace');
  const list = text(values, 'namespaces');
  const all = values['all-namespaces'] === true;
  if ([one !== undefined, list !== undefined, all].filter(Boolean).length > 1) {
    return '--namespace, --namespaces and --all-namespaces are mutually exclusive';
  }
  const keys = (list ?? one ?? 'default').split(',').map((key) => key.trim());
  if (keys.some((key) => key === '')) return 'a namespace key must not be empty';
  return { output: text(values, 'output'), namespaces: all ? 'all' : keys, sortByKey: values['sort-by-key'] === true, remote };
}

/** The import asked for, or the usage error's message. */
export function importArgs(values: Values, positionals: readonly string[]): ImportArgs | string {
  const remote = remoteOf(values);
  if (typeof remote === 'string') return remote;
  const stdin = values['stdin'] === true;
  if (positionals.length > 1) return `unexpected argument "${positionals[1]}"`;
  const [file] = positionals;
  if (stdin && file !== undefined) return 'give a file or --stdin, not both';
  if (!stdin && file === undefined) return 'import needs a file (or --stdin)';
  return { file, drop: values['drop'] === true, skipExisting: values['skip-existing'] === true, remote };
}
