/**
 * Ports for processes a test starts. Test files run in parallel processes, and a port probed free
 * here is only bound later by the child; two processes must never be handed the same one in that
 * gap, or one test talks to the other's server. So each port is reserved across processes by a
 * file naming its owner's pid, held until the owner exits, and taken from below the kernel's
 * ephemeral range, where no socket bound to port 0 (a client's, an in-process test server's) lands.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RESERVATIONS = join(tmpdir(), 'ensign-test-ports');
const LOWEST = 10_000;
const ATTEMPTS = 500;

const held = new Set<string>();
process.once('exit', () => {
  for (const file of held) removeFile(file);
});

const reservationFile = (port: number): string => join(RESERVATIONS, String(port));

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone, or another process took a stale one over first
  }
}

/** The first port of the kernel's ephemeral range (ports bound to 0 come from there). */
function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low !== undefined && Number.isInteger(low) && low > LOWEST + 1_000) return low;
  } catch {
    // not Linux: the usual IANA range
  }
  return 49_152;
}

function ownerAlive(file: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims `port` for this process; false when a live process holds it. */
function reserve(port: number): boolean {
  const file = reservationFile(port);
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || ownerAlive(file)) return false;
      // Left by a process that died without its exit handler: take it over.
      removeFile(file);
    }
  }
  return false;
}

function release(port: number): void {
  const file = reservationFile(port);
  held.delete(file);
  removeFile(file);
}

/** Nothing listens on 127.0.0.1:`port` now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port on 127.0.0.1 that nothing listens on and no other test process will be given. */
export async function freePort(): Promise<number> {
  mkdirSync(RESERVATIONS, { recursive: true, mode: 0o1777 });
  const highest = ephemeralStart();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST));
    if (!reserve(port)) continue;
    if (await bindable(port)) return port;
    release(port);
  }
  throw new Error(`no free port below ${highest} after ${ATTEMPTS} attempts`);
}
