/** Git repositories a test makes and changes, and a git HTTP server (git http-backend) that wants credentials. */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const scratch: string[] = [];
export const removeScratch = (): void => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
};

const IDENTITY = { GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com' };

/** A working repository on branch main. */
export class TestRepository {
  readonly dir: string;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'ensign-git-fixture-'));
    scratch.push(this.dir);
    this.git('init', '--quiet', '--initial-branch=main');
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, env: { ...process.env, ...IDENTITY }, encoding: 'utf8' }).trim();
  }

  /** Writes (or, with null, removes) files and commits them; resolves the commit. */
  commit(files: Record<string, string | null>, message = 'change'): string {
    for (const [path, content] of Object.entries(files)) {
      const full = join(this.dir, path);
      if (content === null) rmSync(full, { force: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
      }
    }
    this.git('add', '--all');
    this.git('commit', '--quiet', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }
}

/** Serves the repositories under `root` over smart HTTP, answering 401 unless `authorized(header)`. */
export async function gitHttpServer(root: string, authorized: (authorization: string | undefined) => boolean): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    seen.push(req.headers.authorization ?? '');
    if (!authorized(req.headers.authorization)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-encoding'] === undefined ? {} : { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }),
        REMOTE_USER: 'test',
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, split).toString('utf8');
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers).end(out.subarray(split + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
