/** Ships a process's evaluation counts (`analytics.*`) to where they are stored. */
import { randomUUID } from 'node:crypto';
import { openUsageBus, type UsageBus } from '@ensign/bus';
import type { UsageReceiver } from '@ensign/core';
import { UsageShipper } from '@ensign/evaluator';
import type { Logger } from 'pino';
import type { EnsignConfig } from './config/config.schema.js';
import type { Counting } from './counting.js';

/**
 * A started shipper of `counting`'s evaluations to `send`, or undefined when analytics is off.
 * The id names the process's role and is fresh each run, so batch ids never repeat across restarts.
 */
export function startUsageShipper(config: EnsignConfig, logger: Logger, counting: Counting, send: UsageReceiver, role: 'server' | 'evaluator'): UsageShipper | undefined {
  if (!config.analytics.enabled || counting.recorder === undefined) return undefined;
  const flushPeriodMs = config.analytics.buffer.flush_period;
  const shipper = new UsageShipper({ tally: counting.recorder, send, flushPeriodMs, logger, processId: `${role}-${randomUUID()}` });
  shipper.start();
  logger.info({ flushPeriodMs, processId: shipper.processId }, 'shipping evaluation counts');
  return shipper;
}

/** The NATS subject evaluators send their counts on and control planes store them from, when scale-out and analytics are on. */
export function openConfiguredUsageBus(config: EnsignConfig, logger: Logger, name: string): UsageBus | undefined {
  if (!config.analytics.enabled || config.nats.url === '') return undefined;
  return openUsageBus({ url: config.nats.url, bucket: config.nats.bucket, logger, name });
}

export type { UsageBus } from '@ensign/bus';
export type { UsageShipper } from '@ensign/evaluator';
