/** The names of what the single-file executable embeds, shared by its build and its start. */

/** JSON `{ ui: string[], sqliteAddonSha256: string }`: what else is embedded. */
export const MANIFEST_ASSET = 'manifest.json';
/** The protobufjs JSON descriptor of the gRPC protos. */
export const PROTOS_ASSET = 'protos.json';
/** better-sqlite3's native addon, built for this executable's Node. */
export const SQLITE_ADDON_ASSET = 'better_sqlite3.node';

/** The asset of one UI file, by its URL path (`/index.html`). */
export const uiAsset = (path: string): string => `ui${path}`;

export interface EmbeddedManifest {
  /** URL paths of the UI's files. */
  ui: string[];
  /** Hex SHA-256 of the addon, which names its cache file and checks it. */
  sqliteAddonSha256: string;
}
