/**
 * `storage.*` for `ensign server`: where flags come from (a directory or a git repository of Flipt
 * feature files, mirrored into the database) and whether management writes are refused.
 */
import { DeclarativeStorage, DocumentApplier, type FeatureSource, type GitAccess, GitSource, LocalSource, type ManagementStore, type MetricsRegistry, registerDeclarativeMetrics } from '@ensign/control-plane';
import type { Logger } from 'pino';
import type { EnsignConfig } from './config/config.schema.js';

/** Local and git storage are always read-only; database storage when `storage.read_only` is true. */
export const isReadOnly = (config: EnsignConfig): boolean => config.storage.type !== 'database' || config.storage.read_only === true;

/** Flipt's git authentication: the first method configured of basic, token and ssh. */
export function gitAccessOf(git: EnsignConfig['storage']['git']): GitAccess {
  const { basic, token, ssh } = git.authentication;
  const access: GitAccess = { insecureSkipTls: git.insecure_skip_tls };
  if (git.ca_cert_path !== '') access.caCertPath = git.ca_cert_path;
  if (git.ca_cert_bytes !== '') access.caCertBytes = git.ca_cert_bytes;
  if (basic.username !== '') access.basic = { username: basic.username, password: basic.password };
  else if (token.access_token !== '') access.token = { accessToken: token.access_token };
  else if (ssh.private_key_path !== '' || ssh.private_key_bytes !== '') {
    access.ssh = {
      user: ssh.user,
      password: ssh.password,
      insecureIgnoreHostKey: ssh.insecure_ignore_host_key,
      ...(ssh.private_key_path === '' ? { privateKeyBytes: ssh.private_key_bytes } : { privateKeyPath: ssh.private_key_path }),
    };
  }
  return access;
}

/** The configured source of feature files; undefined for database storage. */
export function featureSourceOf(config: EnsignConfig): FeatureSource | undefined {
  const { storage } = config;
  switch (storage.type) {
    case 'local':
      return new LocalSource({ path: storage.local.path, pollIntervalMs: storage.local.poll_interval });
    case 'git':
      return new GitSource({
        repository: storage.git.repository,
        ref: storage.git.ref,
        directory: storage.git.directory,
        pollIntervalMs: storage.git.poll_interval,
        access: gitAccessOf(storage.git),
      });
    default:
      return undefined;
  }
}

/**
 * Reads the feature files and mirrors them into the store, then follows them; undefined for
 * database storage. Rejects with the reason when the files cannot be served at start-up. The
 * metrics are registered either way (zero with database storage).
 */
export async function startDeclarativeStorage(config: EnsignConfig, store: Pick<ManagementStore, 'documents' | 'namespaces'>, logger: Logger, metrics: MetricsRegistry): Promise<DeclarativeStorage | undefined> {
  const source = featureSourceOf(config);
  if (source === undefined) {
    registerDeclarativeMetrics(metrics);
    return undefined;
  }
  const storage = new DeclarativeStorage({ source, applier: new DocumentApplier({ documents: store.documents, namespaces: store.namespaces }), logger });
  registerDeclarativeMetrics(metrics, storage);
  await storage.start();
  logger.info({ storage: source.type, ...source.metadata, revision: storage.status().revision, pollIntervalMs: source.pollIntervalMs }, 'serving flags read-only from feature files');
  return storage;
}
