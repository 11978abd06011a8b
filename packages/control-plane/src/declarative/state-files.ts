/** Which files of a tree hold feature state, read whole, in the order Flipt reads them. */
import { fileError } from './declarative-error.js';
import { type FeatureTree, walkOrder } from './feature-tree.js';
import { defaultFliptIndex, type FliptIndex, INDEX_FILE, parseFliptIndex } from './flipt-index.js';

/** A state file's path and content. */
export interface StateFile {
  path: string;
  content: Buffer;
}

/** The state files of a tree and the index that chose them. */
export interface StateFiles {
  index: FliptIndex;
  /** Whether a `.flipt.yml` was found (else Flipt's default globs applied). */
  indexFile: boolean;
  files: StateFile[];
}

/** Reads `.flipt.yml` (or takes the defaults), then every matching file in walk order. */
export async function readStateFiles(tree: FeatureTree): Promise<StateFiles> {
  const indexContent = await tree.read(INDEX_FILE);
  const index = indexContent === undefined ? defaultFliptIndex() : parseFliptIndex(indexContent.toString('utf8'));
  const files: StateFile[] = [];
  for (const path of walkOrder(await tree.paths())) {
    if (!index.match(path)) continue;
    const content = await tree.read(path);
    if (content === undefined) throw fileError('the file disappeared while it was read', { file: path });
    files.push({ path, content });
  }
  return { index, indexFile: indexContent !== undefined, files };
}
