/** Request and answer over a child's IPC channel: each request carries an id its answer repeats. */
import { type ChildProcess, fork } from 'node:child_process';
import { track } from '../propagation/children.js';

export class IpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (m: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    child.on('message', (m: { id?: number }) => {
      const waiter = m.id === undefined ? undefined : this.pending.get(m.id);
      if (waiter === undefined) return;
      this.pending.delete(m.id!);
      clearTimeout(waiter.timer);
      waiter.resolve(m);
    });
    child.once('exit', (code, signal) => {
      for (const waiter of this.pending.values()) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error(`${name} exited (${signal ?? code}) with a request pending`));
      }
      this.pending.clear();
    });
  }

  /** Sends `request` with an id of its own; resolves with the answer carrying it. */
  ask<T>(request: Record<string, unknown>, timeoutMs: number): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.name} did not answer ${String(request['type'])} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (m: unknown) => void, reject, timer });
      this.child.send({ ...request, id });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
}

/** Forks `script` (tracked: killed with the benchmark) and resolves with its first message. */
export async function forkTracked<T>(script: string, name: string, args: string[] = [], timeoutMs = 10_000): Promise<{ peer: IpcPeer; first: T }> {
  const child = track(fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const first = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms`)), timeoutMs);
    child.once('message', (m: T) => {
      clearTimeout(timer);
      resolve(m);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}`));
    });
  });
  return { peer: new IpcPeer(name, child), first };
}
