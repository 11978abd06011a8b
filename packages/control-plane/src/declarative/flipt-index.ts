/**
 * `.flipt.yml`, Flipt's index of which files hold feature state: `{version, include, exclude}`
 * globs. A path is kept when it matches an include and no exclude. Without the file, Flipt's
 * default includes apply (any path ending in `features.yml` or `features.yaml`).
 */
import { parse as parseYaml } from 'yaml';
import { fileError } from './declarative-error.js';
import { compileGlob, GlobSyntaxError } from './glob.js';

/** The index file's name, read at the root of the directory (or of the git tree's `directory`). */
export const INDEX_FILE = '.flipt.yml';

/** Flipt's includes when there is no `.flipt.yml`. */
export const DEFAULT_INCLUDES: readonly string[] = ['**features.yml', '**features.yaml', '**.features.yml', '**.features.yaml'];

/** Which paths hold feature state. */
export interface FliptIndex {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  /** Whether a slash-separated path relative to the root is a state file. */
  match(path: string): boolean;
}

function compileAll(globs: readonly string[], list: 'include' | 'exclude'): RegExp[] {
  return globs.map((glob) => {
    try {
      return compileGlob(glob);
    } catch (err) {
      if (err instanceof GlobSyntaxError) throw fileError(`compiling ${list} glob: ${err.message}`, { file: INDEX_FILE, path: list });
      throw err;
    }
  });
}

/** An index of the given globs; throws DeclarativeError on a glob that does not compile. */
export function fliptIndex(include: readonly string[], exclude: readonly string[] = []): FliptIndex {
  const includes = compileAll(include, 'include');
  const excludes = compileAll(exclude, 'exclude');
  return {
    include,
    exclude,
    match: (path) => includes.some((glob) => glob.test(path)) && !excludes.some((glob) => glob.test(path)),
  };
}

/** The index used when the root has no `.flipt.yml`. */
export const defaultFliptIndex = (): FliptIndex => fliptIndex(DEFAULT_INCLUDES);

const globList = (value: unknown, list: 'include' | 'exclude'): string[] => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw fileError(`${list} must be a list of glob strings`, { file: INDEX_FILE, path: list });
  }
  return value;
};

/**
 * Reads a `.flipt.yml`. As in Flipt, a file without `include` keeps nothing (the defaults apply
 * only when the file is missing), and an empty file is an error.
 */
export function parseFliptIndex(text: string): FliptIndex {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw fileError(`invalid YAML: ${(err as Error).message.split('\n')[0]}`, { file: INDEX_FILE });
  }
  if (doc === null || doc === undefined) throw fileError('the file is empty; it needs an include list', { file: INDEX_FILE });
  if (typeof doc !== 'object' || Array.isArray(doc)) throw fileError('must be a mapping of version, include and exclude', { file: INDEX_FILE });
  const { include, exclude } = doc as Record<string, unknown>;
  return fliptIndex(globList(include, 'include'), globList(exclude, 'exclude'));
}
