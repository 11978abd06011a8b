/**
 * A git repository followed at one ref: a bare clone in a private directory, fetched on demand,
 * whose commits are read as feature trees (optionally below a sub-directory).
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FeatureTree } from './feature-tree.js';
import { type GitAccess, GitCommand, GitCommandError } from './git-command.js';

export interface GitRepositoryOptions {
  /** The repository's URL (https://, ssh://, git@host:path, file://, or a local path). */
  url: string;
  /** A branch or tag name (the newest commit of it is followed), or a full commit hash (fixed). */
  ref: string;
  /** The sub-directory read as the root; empty for the repository's root. */
  directory: string;
  access: GitAccess;
  /** Where the private clone directory is made; the system's temporary directory by default. */
  parentDir?: string;
  /** Longest a single git command may take. */
  timeoutMs?: number;
}

const FULL_HASH = /^[0-9a-f]{40}$/i;

/** A local path as the URL is made absolute: git runs inside the clone. */
const absoluteIfLocal = (url: string): string => (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/]+:/.test(url) ? url : resolve(url));

/** A git config value, quoted so that any character survives. */
const configValue = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

export class GitRepository {
  private constructor(
    private readonly options: GitRepositoryOptions,
    private readonly git: GitCommand,
    private readonly dir: string,
    private readonly cloneDir: string,
  ) {}

  /** Makes the clone and fetches the ref once; rejects (removing what it made) when it cannot. */
  static async open(options: GitRepositoryOptions): Promise<GitRepository> {
    const dir = await mkdtemp(join(options.parentDir ?? tmpdir(), 'ensign-git-'));
    const cloneDir = join(dir, 'repository.git');
    const git = new GitCommand(options.access, dir, options.timeoutMs);
    const repository = new GitRepository(options, git, dir, cloneDir);
    try {
      await git.run(['init', '--quiet', '--bare', cloneDir]);
      // The URL (which may carry a password) is written to the clone's config, never onto a command line.
      await appendFile(join(cloneDir, 'config'), `[remote "origin"]\n\turl = ${configValue(absoluteIfLocal(options.url))}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
      await repository.fetch();
      return repository;
    } catch (err) {
      await repository.close();
      throw err;
    }
  }

  /** Fetches the ref from the remote; resolves the commit it names now. */
  async fetch(): Promise<string> {
    const { ref } = this.options;
    if (FULL_HASH.test(ref)) {
      await this.git.run(['fetch', '--quiet', 'origin'], this.cloneDir);
      return this.commitOf(ref);
    }
    await this.git.run(['fetch', '--quiet', '--no-tags', '--depth=1', 'origin', ref], this.cloneDir);
    return this.commitOf('FETCH_HEAD');
  }

  private async commitOf(name: string): Promise<string> {
    try {
      return (await this.git.run(['rev-parse', '--verify', '--quiet', `${name}^{commit}`], this.cloneDir)).trim();
    } catch {
      throw new GitCommandError(`git ref ${JSON.stringify(this.options.ref)} is not a commit of the repository`);
    }
  }

  /** The files of `commit` (below the configured directory). */
  async tree(commit: string): Promise<FeatureTree> {
    const { directory } = this.options;
    const root = directory.replace(/^\/+|\/+$/g, '');
    const listing = await this.git
      .run(['ls-tree', '-r', '-z', root === '' ? commit : `${commit}:${root}`], this.cloneDir)
      .catch((err: unknown) => {
        throw root === '' ? err : new GitCommandError(`directory ${JSON.stringify(root)} is not in commit ${commit.slice(0, 12)}`);
      });
    const blobs = new Map<string, string>();
    for (const entry of listing.split('\0')) {
      // `<mode> blob <id>\t<path>`; submodules and symbolic links hold no files to read.
      const match = /^(100644|100755) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
      if (match !== null) blobs.set(match[3] as string, match[2] as string);
    }
    return {
      paths: async () => [...blobs.keys()],
      read: async (path) => {
        const id = blobs.get(path);
        return id === undefined ? undefined : this.git.runBuffer(['cat-file', 'blob', id], this.cloneDir);
      },
    };
  }

  /** Removes the clone. */
  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
