/** `storage.type: git`: a repository's ref, cloned at start and fetched every poll interval. */
import type { FeatureSource, SourceSnapshot } from './feature-source.js';
import { type GitAccess, redactUrl } from './git-command.js';
import { GitRepository } from './git-repository.js';

export interface GitSourceOptions {
  repository: string;
  ref: string;
  directory: string;
  pollIntervalMs: number;
  access: GitAccess;
  /** Where the clone is made; the system's temporary directory by default. */
  parentDir?: string;
}

export class GitSource implements FeatureSource {
  readonly type = 'git';
  readonly metadata: Readonly<Record<string, string>>;
  readonly pollIntervalMs: number;
  private repository: GitRepository | undefined;

  constructor(private readonly options: GitSourceOptions) {
    this.pollIntervalMs = options.pollIntervalMs;
    this.metadata = {
      repository: redactUrl(options.repository),
      ref: options.ref,
      ...(options.directory === '' ? {} : { directory: options.directory }),
    };
  }

  async open(): Promise<void> {
    this.repository = await GitRepository.open({
      url: this.options.repository,
      ref: this.options.ref,
      directory: this.options.directory,
      access: this.options.access,
      ...(this.options.parentDir === undefined ? {} : { parentDir: this.options.parentDir }),
    });
  }

  async current(): Promise<SourceSnapshot> {
    const repository = this.repository;
    if (repository === undefined) throw new Error('the git source is not open');
    const commit = await repository.fetch();
    return { revision: commit, tree: () => repository.tree(commit) };
  }

  async close(): Promise<void> {
    await this.repository?.close();
    this.repository = undefined;
  }
}
