/**
 * Real nginx running deploy/nginx/*.conf in the foreground, each configuration rendered with local
 * upstream ports and a listen port of its own; everything it writes stays in a temporary directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { freePort, repositoryRoot, scratchDir } from '@ensign/testkit';
import { delay } from './scale-out.js';

/** The nginx executable; Debian installs it in /usr/sbin, which a user's PATH may lack. */
export function findNginx(): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs.filter((d) => d !== '')) {
    try {
      accessSync(join(dir, 'nginx'), constants.X_OK);
      return join(dir, 'nginx');
    } catch {
      // not in this directory
    }
  }
  throw new Error('nginx is not installed, and this test runs the configurations in deploy/nginx with it: apt-get install -y nginx-light (or nginx)');
}

/**
 * One of deploy/nginx/*.conf with its upstream `server` addresses replaced, in order, by local
 * ports (every other parameter kept), its `listen` port by `listen`, and the value of each
 * directive named in `overrides`.
 */
export function renderConf(name: string, upstreamPorts: number[], listen: number, overrides: Record<string, string> = {}): string {
  const original = readFileSync(join(repositoryRoot, 'deploy/nginx', name), 'utf8');
  let next = 0;
  let rendered = original
    .replace(/^(\s*upstream\s+\S+\s*\{)([^}]*)\}/gm, (_block, head: string, body: string) => {
      let last = '';
      let servers = body.replace(/^(\s*server\s+)\S+(.*)$/gm, (_line, start: string, rest: string) => {
        last = `${start}%s${rest}`;
        return `${start}127.0.0.1:${upstreamPorts[next++]}${rest}`;
      });
      // More instances than the file lists: each extra one gets the last server line's parameters.
      const extra = upstreamPorts.slice(next).map((port) => last.replace('%s', `127.0.0.1:${port}`));
      next += extra.length;
      if (extra.length > 0) servers = servers.replace(last.replace('%s', `127.0.0.1:${upstreamPorts[next - extra.length - 1]}`), (line) => [line, ...extra].join('\n'));
      return `${head}${servers}}`;
    })
    .replace(/^(\s*listen\s+)[^;]+;/m, (_line, start: string) => `${start}127.0.0.1:${listen};`);
  if (next !== upstreamPorts.length) throw new Error(`${name} has more upstream servers than the ${upstreamPorts.length} instances given`);
  for (const [directive, value] of Object.entries(overrides)) {
    const pattern = new RegExp(`^(\\s*${directive}\\s+)[^;]+;`, 'gm');
    if (!pattern.test(rendered)) throw new Error(`${name} has no ${directive}`);
    rendered = rendered.replace(pattern, (_line, start: string) => `${start}${value};`);
  }
  return rendered;
}

/** A running nginx with the rendered configurations, each listening on its own port. */
export interface Nginx {
  url(conf: string): string;
  stop(): Promise<void>;
}

/** Every nginx started and not yet stopped, for a teardown that stops them all. */
export const running = new Set<Nginx>();

/** Whether something accepts connections on `port` (without sending a request upstream). */
const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Starts nginx in the foreground with everything it writes in a temporary directory. */
export async function startNginx(confs: Record<string, number[]>, overrides: Record<string, string> = {}): Promise<Nginx> {
  const binary = findNginx();
  const dir = scratchDir('ensign-nginx-');
  // Worker processes drop to an unprivileged user when the test runs as root; let them in.
  chmodSync(dir, 0o755);
  const ports = new Map<string, number>();
  const includes: string[] = [];
  for (const [name, upstreamPorts] of Object.entries(confs)) {
    const port = await freePort();
    ports.set(name, port);
    writeFileSync(join(dir, name), renderConf(name, upstreamPorts, port, overrides));
    includes.push(`  include ${join(dir, name)};`);
  }
  const main = [
    'daemon off;',
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    // Each proxied stream holds two connections (client and upstream): room for the soak's 500
    // streams with their reconnections; nginx resets connections beyond the limit.
    'worker_rlimit_nofile 16384;',
    'events { worker_connections 8192; }',
    'http {',
    `  access_log ${dir}/access.log;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((temp) => `  ${temp}_temp_path ${dir}/${temp};`),
    ...includes,
    '}',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), main);

  const child: ChildProcess = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  let exited = false;
  const closed = new Promise<void>((resolve) =>
    child.once('close', () => {
      exited = true;
      resolve();
    }),
  );
  // Should the test process end without its teardown, take nginx (master and workers) with it.
  const fastShutdown = (): void => void child.kill('SIGTERM');
  process.once('exit', fastShutdown);
  const errorLog = (): string => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const nginx: Nginx = {
    url: (name) => `http://127.0.0.1:${ports.get(name)}`,
    async stop() {
      running.delete(nginx);
      process.off('exit', fastShutdown);
      if (exited) return;
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await closed;
      clearTimeout(timer);
    },
  };
  running.add(nginx);
  for (let i = 0; ; i++) {
    if (exited) throw new Error(`nginx exited:\n${output}${errorLog()}`);
    const up = await Promise.all([...ports.values()].map(accepts));
    if (up.every(Boolean)) return nginx;
    if (i >= 200) {
      await nginx.stop();
      throw new Error(`nginx did not listen:\n${output}${errorLog()}`);
    }
    await delay(25);
  }
}
