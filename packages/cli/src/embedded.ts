/**
 * What a single-file executable carries inside itself instead of finding it on disk: the built
 * web UI and the better-sqlite3 addon. `npm start` passes none, and both come from `node_modules`.
 */
import type { UiFile } from '@ensign/control-plane';

export interface EmbeddedResources {
  /** The web UI's built files. */
  ui?: readonly UiFile[];
  /** Loads the better-sqlite3 addon; called only when the database is SQLite. */
  sqliteAddon?: () => object;
}
