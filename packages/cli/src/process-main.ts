/** Binds one `ensign` invocation to this process: its arguments, environment, output, stop signals and exit code. */
import type { EmbeddedResources } from './embedded.js';
import { run } from './run.js';

const waitForStop = (): Promise<string> =>
  new Promise((resolve) => {
    // `once`: a second signal during shutdown falls through to Node's default and ends the process.
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(signal);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });

/** Runs `ensign` with this process's arguments (from `process.argv[firstArg]` on) and sets its exit code. */
export async function runProcess(embedded: EmbeddedResources = {}, firstArg = 2): Promise<void> {
  const code = await run(
    process.argv.slice(firstArg),
    {
      env: process.env,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      waitForStop,
    },
    embedded,
  );
  process.exitCode = code;
  // Everything is closed by now; if a stray handle would keep the process alive, do not wait for it.
  setTimeout(() => process.exit(code), 2000).unref();
}
