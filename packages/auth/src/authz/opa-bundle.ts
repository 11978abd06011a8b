/**
 * An OPA bundle as `opa build -t wasm` writes it (bundle.tar.gz): the compiled `/policy.wasm` (or
 * the module the `.manifest` names) and any `data.json` files, each merged at its directory's path.
 */
import { Parser, type ReadEntry } from 'tar';
import { parseJsonWithLines } from './json-lines.js';
import { PolicyFileError } from './policy-file-error.js';

/** What Ensign needs of a bundle: the module and the data to load into it. */
export interface OpaBundle {
  /** The compiled policy module's bytes. */
  wasm: Uint8Array;
  /** Where it was in the bundle, e.g. `/policy.wasm`; names it in errors. */
  wasmPath: string;
  /** The bundle's data documents merged into one, or undefined when it has none. */
  data: Record<string, unknown> | undefined;
}

/** Reads a bundle; a broken archive, a missing module or bad data.json throws a PolicyFileError naming `file`. */
export async function readOpaBundle(bytes: Uint8Array, file = 'bundle.tar.gz'): Promise<OpaBundle> {
  const members = await untar(bytes, file);
  const wasmPath = wasmModuleOf(members, file);
  const wasm = members.get(wasmPath);
  if (wasm === undefined) {
    throw new PolicyFileError(file, undefined, `the bundle has no /${wasmPath}: build it with \`opa build -t wasm -e flipt/authz/v1/allow -e flipt/authz/v1/viewable_namespaces\``);
  }
  let data: Record<string, unknown> | undefined;
  for (const [path, content] of members) {
    if (path !== 'data.json' && !path.endsWith('/data.json')) continue;
    const where = `${file}!/${path}`;
    const { value } = parseJsonWithLines(content.toString('utf8'), where);
    if (!isObject(value)) throw new PolicyFileError(where, 1, 'must be a JSON object');
    data ??= {};
    let at = data;
    for (const segment of path.split('/').slice(0, -1)) {
      const next = Object.hasOwn(at, segment) ? at[segment] : undefined;
      at = isObject(next) ? next : setOwn<Record<string, unknown>>(at, segment, {});
    }
    for (const [key, member] of Object.entries(value)) setOwn(at, key, member);
  }
  return { wasm, wasmPath: `/${wasmPath}`, data };
}

/** The module the manifest names (OPA writes `wasm: [{entrypoint, module}]`), else `policy.wasm`. */
function wasmModuleOf(members: Map<string, Buffer>, file: string): string {
  const manifest = members.get('.manifest');
  if (manifest === undefined) return 'policy.wasm';
  const { value } = parseJsonWithLines(manifest.toString('utf8'), `${file}!/.manifest`);
  const modules = (value as { wasm?: unknown } | null)?.wasm;
  const first: unknown = Array.isArray(modules) ? (modules[0] as { module?: unknown } | undefined)?.module : undefined;
  return typeof first === 'string' && first !== '' ? normalize(first) : 'policy.wasm';
}

/** Regular files of a (gzipped) tar, by path without a leading `/` or `./`. */
function untar(bytes: Uint8Array, file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const members = new Map<string, Buffer>();
    const fail = (err: unknown): void =>
      reject(new PolicyFileError(file, undefined, `not a readable OPA bundle (.tar.gz): ${err instanceof Error ? err.message : String(err)}`, { cause: err }));
    const parser = new Parser({ strict: true });
    parser.on('entry', (entry: ReadEntry) => {
      if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => members.set(normalize(entry.path), Buffer.concat(chunks)));
    });
    parser.on('error', fail);
    parser.on('end', () => (members.size === 0 ? fail(new Error('no files in the archive')) : resolve(members)));
    parser.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Plain assignment would let a `__proto__` key or directory change the prototype. */
function setOwn<T>(target: Record<string, unknown>, key: string, value: T): T {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}

const normalize = (path: string): string => path.replace(/^(?:\.?\/)+/, '');
