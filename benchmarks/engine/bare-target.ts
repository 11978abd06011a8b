/**
 * A bare server's process on the CPU under test, stopped when `scope` closes: the ceiling (`fixed`:
 * a fixed answer) or the floor of any JSON API for one evaluation (`json`) or a batch (`batch`):
 * the body parsed, the answer stringified (see bare-server.ts).
 */
import { fileURLToPath } from 'node:url';
import { track } from '../propagation/children.js';
import type { RunScope } from '../writes/run-scope.js';
import { forkListening, stop } from './child-processes.js';
import type { CpuPlacement } from './cpu-placement.js';

export type BareMode = 'fixed' | 'json' | 'batch';

const BARE_SERVER = fileURLToPath(new URL('./bare-server.js', import.meta.url));

export async function bareServer(scope: RunScope, placement: CpuPlacement, mode: BareMode = 'fixed'): Promise<{ pid: number | undefined; port: number }> {
  const { child, port } = await forkListening(BARE_SERVER, 10_000, [mode]);
  track(child);
  scope.add(() => stop(child, 5000));
  placement.underTest(child.pid);
  return { pid: child.pid, port };
}
