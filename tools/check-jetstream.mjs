#!/usr/bin/env node
/**
 * `node tools/check-jetstream.mjs [url] [--wait <seconds>]`: exits 0 once the NATS server at `url`
 * (nats://127.0.0.1:4222 by default) answers JetStream's API, as the tests and `ensign evaluator`
 * need it to; exits 1 naming the reason when it has not within `--wait` seconds (30 by default).
 * A NATS started without `-js` accepts connections and answers plain messages, but not this.
 * Needs only node and the `nats` package (installed by `npm ci`).
 */
import { connect } from 'nats';

const args = process.argv.slice(2);
const waitAt = args.indexOf('--wait');
const waitSeconds = waitAt === -1 ? 30 : Number(args[waitAt + 1]);
if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
  console.error('check-jetstream: --wait needs a number of seconds');
  process.exit(2);
}
const url = args.find((arg, i) => !arg.startsWith('--') && (waitAt === -1 || i !== waitAt + 1)) ?? 'nats://127.0.0.1:4222';

/** The account's JetStream usage, or a rejection saying why there is none. */
async function jetStreamInfo() {
  const nc = await connect({ servers: url, timeout: 2_000, reconnect: false });
  try {
    const jsm = await nc.jetstreamManager({ timeout: 2_000 });
    return await jsm.getAccountInfo();
  } finally {
    await nc.close();
  }
}

const deadline = Date.now() + waitSeconds * 1_000;
for (;;) {
  try {
    const info = await jetStreamInfo();
    console.log(`JetStream answers at ${url} (${info.streams} streams)`);
    process.exit(0);
  } catch (err) {
    if (Date.now() >= deadline) {
      // A server without JetStream answers its API's subjects with "no responders" (503).
      const reason = err?.code === '503' ? 'JetStream is not enabled' : err instanceof Error ? err.message : String(err);
      console.error(`NATS at ${url} does not answer JetStream requests (${reason}); start nats-server with -js`);
      process.exit(1);
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}
