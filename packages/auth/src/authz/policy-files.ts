/**
 * Flipt's `authorization.local` policy and data files, re-read without a restart: each file is
 * polled on its own interval and reloaded only when its sha256 changed. A bad new version is
 * reported (log, status, counter) while the last good engine keeps deciding.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PeriodicTask, unavailable, type AuthorizationInput } from '@ensign/core';
import { engineFromFiles, type FileEngineKind } from './engine-from-files.js';
import { OpaDecisionApi } from './opa-decision-api.js';
import type { PolicyEngine } from './policy-engine.js';
import { PolicyFileError } from './policy-file-error.js';
import type { RolePolicyOptions } from './role-policy.js';

/** Flipt's defaults: `policy.poll_interval` 5m, `data.poll_interval` 30s. */
export const DEFAULT_POLICY_POLL_MS = 5 * 60_000;
export const DEFAULT_DATA_POLL_MS = 30_000;

/** The logger calls it makes; a pino logger satisfies it. */
export interface PolicyFilesLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Flipt's `authorization.local` settings, intervals in milliseconds. */
export interface PolicyFilesOptions {
  policy?: {
    path: string;
    pollIntervalMs?: number;
    /** An OPA serving the policy (`policy.opa_url`): when set it decides, and no file is read here. */
    opaUrl?: string;
    opaToken?: string;
    opaTimeoutMs?: number;
  };
  data?: { path: string; pollIntervalMs?: number };
  logger: PolicyFilesLogger;
  /** For data-only configurations (the role policy): roles resolved outside, e.g. from OIDC groups. */
  roles?: RolePolicyOptions;
}

/** One watched file, as /health shows it. */
export interface PolicyFileStatus {
  path: string;
  /** sha256 (hex) of the version deciding now. */
  hash: string | undefined;
  /** When that version was loaded (ISO 8601). */
  loadedAt: string | undefined;
  /** Why the file's newest version is not the one deciding. */
  error?: string;
}

/** For /health. */
export interface PolicyFilesStatus {
  /** An engine is deciding and every file's newest version is the one loaded. */
  ok: boolean;
  engine: FileEngineKind | 'opa' | undefined;
  files: PolicyFileStatus[];
  reloadFailures: number;
  opaUrl?: string;
}

interface WatchedFile {
  readonly path: string;
  readonly intervalMs: number;
  /** The version deciding now. */
  bytes: Uint8Array | undefined;
  hash: string | undefined;
  loadedAt: string | undefined;
  /** The refused version (a content hash, or `unreadable:<code>`): not retried until it changes. */
  failedHash: string | undefined;
  error: string | undefined;
}

/** The engine Flipt's local files make, swapped for a new one only when a changed file loads cleanly. */
export class PolicyFiles implements PolicyEngine {
  /** Versions refused after start: read by a metric. */
  reloadFailures = 0;
  private current: PolicyEngine | undefined;
  private kind: PolicyFilesStatus['engine'];
  private readonly policy: WatchedFile | undefined;
  private readonly data: WatchedFile | undefined;
  private readonly opa: OpaDecisionApi | undefined;
  private readonly tasks: PeriodicTask[] = [];
  /** Reloads run one at a time: a policy and a data change must not build from each other's old halves. */
  private lane: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PolicyFilesOptions) {
    const { policy, data } = options;
    if (policy === undefined && data === undefined) throw new Error('authorization.local needs policy.path or data.path');
    if (policy?.opaUrl !== undefined && policy.opaUrl !== '') {
      this.opa = new OpaDecisionApi({
        url: policy.opaUrl,
        ...(policy.opaToken === undefined ? {} : { token: policy.opaToken }),
        ...(policy.opaTimeoutMs === undefined ? {} : { timeoutMs: policy.opaTimeoutMs }),
      });
      return;
    }
    this.policy = policy === undefined ? undefined : watched('policy', policy.path, policy.pollIntervalMs ?? DEFAULT_POLICY_POLL_MS);
    this.data = data === undefined ? undefined : watched('data', data.path, data.pollIntervalMs ?? DEFAULT_DATA_POLL_MS);
  }

  /** Loads the files (a problem throws a PolicyFileError naming the file and line) and starts polling them. */
  async start(): Promise<void> {
    if (this.current !== undefined) return;
    if (this.opa !== undefined) {
      this.current = this.opa;
      this.kind = 'opa';
      this.options.logger.info({ engine: 'opa', opaUrl: this.opa.displayUrl }, 'authorization decided by OPA; its policy and data files are not read here');
      return;
    }
    const files = [this.policy, this.data].filter((f): f is WatchedFile => f !== undefined);
    const read = await Promise.all(files.map(async (file) => ({ file, bytes: await readOrThrow(file.path) })));
    const bytesOf = (file: WatchedFile | undefined): Uint8Array | undefined => read.find((r) => r.file === file)?.bytes;
    await this.install(bytesOf(this.policy), bytesOf(this.data));
    this.options.logger.info({ engine: this.kind, files: files.map((f) => ({ path: f.path, hash: f.hash })) }, 'authorization policy loaded');
    for (const file of files) {
      const task = new PeriodicTask(file.intervalMs, () => this.serialized(() => this.poll(file)), (err) =>
        this.options.logger.warn({ file: file.path, err: String(err) }, 'authorization policy poll failed'),
      );
      this.tasks.push(task);
      task.start();
    }
  }

  /** Stops polling; the engine keeps deciding. */
  async stop(): Promise<void> {
    await Promise.all(this.tasks.splice(0).map((task) => task.stop()));
  }

  /** The engine deciding now. */
  get engine(): PolicyEngine {
    if (this.current === undefined) throw unavailable('authorization policy not loaded yet');
    return this.current;
  }

  allow(input: AuthorizationInput): boolean | Promise<boolean> {
    return this.engine.allow(input);
  }

  viewableNamespaces(input: AuthorizationInput): readonly string[] | undefined | Promise<readonly string[] | undefined> {
    return this.engine.viewableNamespaces(input);
  }

  status(): PolicyFilesStatus {
    const files = [this.policy, this.data]
      .filter((f): f is WatchedFile => f !== undefined)
      .map((f): PolicyFileStatus => ({ path: f.path, hash: f.hash, loadedAt: f.loadedAt, ...(f.error === undefined ? {} : { error: f.error }) }));
    return {
      ok: this.current !== undefined && files.every((f) => f.error === undefined),
      engine: this.kind,
      files,
      reloadFailures: this.reloadFailures,
      ...(this.opa === undefined ? {} : { opaUrl: this.opa.displayUrl }),
    };
  }

  /** Checks every file now rather than on its interval (a SIGHUP, a test). */
  async reload(): Promise<void> {
    for (const file of [this.policy, this.data]) if (file !== undefined) await this.serialized(() => this.poll(file));
  }

  private async poll(file: WatchedFile): Promise<void> {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file.path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      return this.refuse(file, `unreadable:${code}`, new PolicyFileError(file.path, undefined, `cannot be read (${code})`, { cause: err }));
    }
    const hash = sha256(bytes);
    if (hash === file.hash) {
      if (file.error !== undefined) this.options.logger.info({ file: file.path, hash }, 'authorization policy file is back to the version deciding');
      file.error = undefined;
      file.failedHash = undefined;
      return;
    }
    if (hash === file.failedHash) return;
    try {
      await this.install(file === this.policy ? bytes : this.policy?.bytes, file === this.data ? bytes : this.data?.bytes);
      file.error = undefined;
      file.failedHash = undefined;
      this.options.logger.info({ file: file.path, hash }, 'authorization policy reloaded');
    } catch (err) {
      this.refuse(file, hash, err);
    }
  }

  /** Builds the engine from these contents and, only if that works, makes it decide. */
  private async install(policyBytes: Uint8Array | undefined, dataBytes: Uint8Array | undefined): Promise<void> {
    const { engine, kind } = await engineFromFiles(
      this.policy === undefined || policyBytes === undefined ? undefined : { path: this.policy.path, bytes: policyBytes },
      this.data === undefined || dataBytes === undefined ? undefined : { path: this.data.path, bytes: dataBytes },
      this.options.roles,
    );
    const loadedAt = new Date().toISOString();
    for (const [file, bytes] of [[this.policy, policyBytes], [this.data, dataBytes]] as const) {
      if (file === undefined || bytes === undefined) continue;
      const hash = sha256(bytes);
      if (hash !== file.hash) {
        file.hash = hash;
        file.loadedAt = loadedAt;
      }
      file.bytes = bytes;
    }
    this.current = engine;
    this.kind = kind;
  }

  private refuse(file: WatchedFile, failedHash: string, err: unknown): void {
    this.reloadFailures++;
    file.failedHash = failedHash;
    file.error = err instanceof Error ? err.message : String(err);
    this.options.logger.warn(
      { file: file.path, ...(err instanceof PolicyFileError && err.line !== undefined ? { line: err.line } : {}), err: file.error },
      'authorization policy file refused; the last good version keeps deciding',
    );
  }

  private serialized<T>(run: () => Promise<T>): Promise<T> {
    const next = this.lane.then(run);
    this.lane = next.catch(() => undefined);
    return next;
  }
}

function watched(setting: 'policy' | 'data', path: string, intervalMs: number): WatchedFile {
  if (path === '') throw new Error(`authorization.local.${setting}.path must not be empty`);
  if (!(intervalMs > 0)) throw new Error(`authorization.local.${setting}.poll_interval must be greater than zero`);
  return { path, intervalMs, bytes: undefined, hash: undefined, loadedAt: undefined, failedHash: undefined, error: undefined };
}

async function readOrThrow(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new PolicyFileError(path, undefined, `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { cause: err });
  }
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
