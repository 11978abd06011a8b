import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { freePort } from '../src/free-port.js';

const freePortModule = new URL('../src/free-port.js', import.meta.url).href;

/** What the reservation file of `port` holds (throws ENOENT when there is none). */
const reservationOf = (port: number): string => readFileSync(join(tmpdir(), 'ensign-test-ports', String(port)), 'utf8');

interface Asker {
  pid: number;
  ports: number[];
  /** Lets the process exit (its reservations go with it) and resolves when it has. */
  exit: () => Promise<void>;
}

/** `count` ports asked for by a separate Node process, all at once; it lives until told to exit. */
function askAnotherProcess(count: number): Promise<Asker> {
  const script = `import { freePort } from ${JSON.stringify(freePortModule)};
const ports = await Promise.all(Array.from({ length: ${count} }, () => freePort()));
process.stdout.write(JSON.stringify(ports) + '\\n');
process.stdin.resume().once('end', () => process.exit(0));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const closed = new Promise<void>((done) => child.once('close', () => done()));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.endsWith('\n')) resolve({ pid: child.pid as number, ports: JSON.parse(out) as number[], exit: () => (child.stdin.end(), closed) });
    });
    child.once('close', (code) => reject(new Error(`exited with ${code} before answering`)));
  });
}

const ephemeralStart = (): number => Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

test('processes asking at the same time never get the same port, and none from the ephemeral range', async (t) => {
  // 3 × 250 random picks among some 22,000 ports would almost surely repeat one without the reservations.
  const askers = await Promise.all([askAnotherProcess(250), askAnotherProcess(250), askAnotherProcess(250)]);
  const all = askers.flatMap((asker) => asker.ports);
  await Promise.all(askers.map((asker) => asker.exit()));
  t.is(all.length, 750);
  t.is(new Set(all).size, 750, 'no port handed to two processes');
  const limit = ephemeralStart();
  t.true(all.every((port) => port >= 10_000 && port < limit), `all below ${limit}`);
});

test('a port is reserved under the owner pid while it lives, and never one something listens on', async (t) => {
  const port = await freePort();
  t.is(reservationOf(port), String(process.pid));
  const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
  t.false(ports.includes(port), 'not handed out twice within a process either');
  // Each can be listened on at once.
  for (const p of [port, ...ports.slice(0, 5)]) {
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(p, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('the reservations of a process are gone when it exits', async (t) => {
  const asker = await askAnotherProcess(5);
  for (const port of asker.ports) t.is(reservationOf(port), String(asker.pid));
  await asker.exit();
  // Gone, or already taken again by another process asking meanwhile (the test beside this one).
  const holderOf = (port: number): string | undefined => {
    try {
      return reservationOf(port);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  };
  for (const port of asker.ports) t.not(holderOf(port), String(asker.pid));
});
