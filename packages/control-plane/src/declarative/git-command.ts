/**
 * Runs the `git` executable with credentials passed through its environment only: never on its
 * command line (which other users can read) and never in a log line.
 */
import { execFile } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** How to reach a repository: Flipt's `storage.git.authentication.*`, TLS and SSH settings. */
export interface GitAccess {
  basic?: { username: string; password: string };
  /** Sent as `Authorization: Bearer <token>`, as Flipt's token authentication does. */
  token?: { accessToken: string };
  ssh?: {
    /** The user when the URL names none (`git` by default). */
    user: string;
    /** The private key's passphrase. */
    password: string;
    privateKeyPath?: string;
    privateKeyBytes?: string;
    insecureIgnoreHostKey: boolean;
  };
  caCertPath?: string;
  /** PEM text of the CA certificates (written to a private file for git). */
  caCertBytes?: string;
  insecureSkipTls?: boolean;
}

/** A failed git command: its arguments (never credentials) and what git said, passwords in URLs hidden. */
export class GitCommandError extends Error {
  override readonly name = 'GitCommandError';
}

/** Hides the password of a `scheme://user:password@host` URL. */
export const redactUrl = (text: string): string => text.replace(/(\/\/[^/\s:@]*:)[^/\s@]*@/g, '$1***@');

const ASKPASS = `#!/bin/sh
# Answers git's and ssh's credential prompts from the environment Ensign set for this command.
case "$1" in
  Username*) printf '%s\\n' "$ENSIGN_GIT_USERNAME" ;;
  *) printf '%s\\n' "$ENSIGN_GIT_PASSWORD" ;;
esac
`;

const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** A git runner bound to a working directory (the clone) and the access settings. */
export class GitCommand {
  private env: NodeJS.ProcessEnv | undefined;

  constructor(
    private readonly access: GitAccess,
    /** A private directory for the helper script and an SSH key given as bytes. */
    private readonly helperDir: string,
    private readonly timeoutMs = 120_000,
  ) {}

  /** Runs `git <args>` (in `cwd`), resolving its stdout; rejects with GitCommandError. */
  async run(args: readonly string[], cwd?: string): Promise<string> {
    return (await this.exec(args, cwd)).toString('utf8');
  }

  /** As `run`, with stdout as bytes (file contents). */
  runBuffer(args: readonly string[], cwd?: string): Promise<Buffer> {
    return this.exec(args, cwd);
  }

  private async exec(args: readonly string[], cwd: string | undefined): Promise<Buffer> {
    const env = await this.environment();
    return new Promise((resolve, reject) => {
      execFile('git', [...args], { cwd, env, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, timeout: this.timeoutMs, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
        if (err === null) return resolve(stdout);
        const said = redactUrl(stderr.toString('utf8').split('\n').map((line) => line.trim()).filter((line) => line !== '').join('; ')).slice(0, 1000);
        const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'the git executable is not installed' : err.killed ? `timed out after ${this.timeoutMs} ms` : said || err.message;
        reject(new GitCommandError(`git ${redactUrl(args[0] ?? '')} failed: ${why}`));
      });
    });
  }

  /** The environment of every git command, made once: prompts answered from variables, never from a terminal. */
  private async environment(): Promise<NodeJS.ProcessEnv> {
    if (this.env !== undefined) return this.env;
    const { access } = this;
    const config: Array<[string, string]> = [
      // The user's or the system's credential helpers must not answer instead of (or store) ours.
      ['credential.helper', ''],
    ];
    const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
    for (const name of Object.keys(env)) if (name.startsWith('GIT_CONFIG_KEY_') || name.startsWith('GIT_CONFIG_VALUE_')) delete env[name];
    const askpass = join(this.helperDir, 'askpass.sh');
    await writeFile(askpass, ASKPASS, { mode: 0o700 });
    await chmod(askpass, 0o700);
    env.GIT_ASKPASS = askpass;
    env.ENSIGN_GIT_USERNAME = '';
    env.ENSIGN_GIT_PASSWORD = '';
    if (access.basic !== undefined) {
      env.ENSIGN_GIT_USERNAME = access.basic.username;
      env.ENSIGN_GIT_PASSWORD = access.basic.password;
    }
    if (access.token !== undefined) config.push(['http.extraHeader', `Authorization: Bearer ${access.token.accessToken}`]);
    if (access.caCertPath !== undefined && access.caCertPath !== '') env.GIT_SSL_CAINFO = access.caCertPath;
    if (access.caCertBytes !== undefined && access.caCertBytes !== '') {
      const caFile = join(this.helperDir, 'ca.pem');
      await writeFile(caFile, access.caCertBytes, { mode: 0o600 });
      env.GIT_SSL_CAINFO = caFile;
    }
    if (access.insecureSkipTls === true) env.GIT_SSL_NO_VERIFY = 'true';
    if (access.ssh !== undefined) env.GIT_SSH_COMMAND = await this.sshCommand(access.ssh, env);
    env.GIT_CONFIG_COUNT = String(config.length);
    config.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
    this.env = env;
    return env;
  }

  private async sshCommand(ssh: NonNullable<GitAccess['ssh']>, env: NodeJS.ProcessEnv): Promise<string> {
    let keyPath = ssh.privateKeyPath;
    if (keyPath === undefined || keyPath === '') {
      keyPath = join(this.helperDir, 'ssh-key');
      const bytes = (ssh.privateKeyBytes ?? '').endsWith('\n') ? (ssh.privateKeyBytes ?? '') : `${ssh.privateKeyBytes ?? ''}\n`;
      await writeFile(keyPath, bytes, { mode: 0o600 });
    }
    const options = ['-o', 'IdentitiesOnly=yes', '-i', shellQuote(keyPath), '-o', shellQuote(`User=${ssh.user}`)];
    if (ssh.password === '') options.push('-o', 'BatchMode=yes');
    else {
      // The key's passphrase comes from the same helper, never from a terminal.
      env.SSH_ASKPASS = env.GIT_ASKPASS;
      env.SSH_ASKPASS_REQUIRE = 'force';
      env.DISPLAY ??= ':0';
      env.ENSIGN_GIT_PASSWORD = ssh.password;
    }
    if (ssh.insecureIgnoreHostKey) options.push('-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null');
    return `ssh ${options.join(' ')}`;
  }
}
