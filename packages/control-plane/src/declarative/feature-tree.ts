/** A read-only view of the files feature state is read from: a directory, or a git commit's tree. */
export interface FeatureTree {
  /** Every file's path relative to the root, slash-separated (directories left out), in any order. */
  paths(): Promise<string[]>;
  /** The content of a file named by `paths()`; undefined when it is gone. */
  read(path: string): Promise<Buffer | undefined>;
}

/**
 * Orders paths as Go's `fs.WalkDir` visits them (each directory's entries by name), which decides
 * which file wins when two define the same flag: `a/b.yml` comes before `a.yml`.
 */
export function walkOrder(paths: readonly string[]): string[] {
  const parts = new Map(paths.map((path) => [path, path.split('/')]));
  return [...paths].sort((a, b) => {
    const x = parts.get(a) as string[];
    const y = parts.get(b) as string[];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const p = x[i] as string;
      const q = y[i] as string;
      if (p !== q) return p < q ? -1 : 1;
    }
    return x.length - y.length;
  });
}
