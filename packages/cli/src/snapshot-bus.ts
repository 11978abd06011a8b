/** Opens the NATS snapshot bus described by the `nats.*` configuration. */
import { type EnvelopeVersion, openSnapshotBus, type SnapshotBus } from '@ensign/bus';
import type { Logger } from 'pino';
import type { EnsignConfig } from './config/config.schema.js';

/** The bus of `nats.url`, or undefined when scale-out is off (`nats.url` empty). */
export function openConfiguredBus(config: EnsignConfig, logger: Logger, name: string): SnapshotBus | undefined {
  const { nats } = config;
  if (nats.url === '') return undefined;
  return openSnapshotBus({ url: nats.url, bucket: nats.bucket, objectStore: nats.object_store, replicas: nats.replicas, envelopeVersion: nats.envelope_version as EnvelopeVersion, logger, name });
}

/** Waits for `work`, but at most `ms`; resolves whether it finished in time. */
export async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = work.then(
    () => true,
    () => true,
  );
  const result = await Promise.race([done, timeout]);
  clearTimeout(timer);
  return result;
}
