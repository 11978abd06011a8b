/**
 * Evaluation counts over NATS: evaluators send each `UsageBatch` as a request, and the control
 * planes answer in one queue group, so each batch is stored by exactly one of them and the sender
 * learns whether it was. The batch's id makes a retry after a lost reply harmless. Plain core NATS
 * (no stream): a batch that finds no control plane fails at once and the sender keeps it.
 */
import type { UsageBatch, UsageCount, UsageReceiver } from '@ensign/core';
import type { Msg, Subscription } from 'nats';
import type { BusLogger } from './bus-logger.js';
import { type BusStatus, HealingConnection } from './nats-connection.js';

export interface UsageBusOptions {
  url: string;
  /** The snapshot bucket: its name prefixes the subject, so deployments (and tests) sharing a NATS never mix counts. */
  bucket?: string;
  logger?: BusLogger;
  name?: string;
  reconnectTimeWaitMs?: number;
  /** How long a sender waits for a control plane to answer. */
  requestTimeoutMs?: number;
}

/** Answering usage requests until stopped. */
export interface UsageService {
  /** Resolves once NATS knows the subscription, so batches sent from then on are answered. */
  readonly ready: Promise<void>;
  /** Stops taking batches and waits for those being stored. */
  stop(): Promise<void>;
}

export interface UsageBus {
  /** Resolves once a control plane replied that it stored the batch; rejects otherwise. */
  shipUsage(batch: UsageBatch): Promise<void>;
  /** Stores every batch sent on the subject through `receiver`; starts answering once connected. */
  serveUsage(receiver: UsageReceiver): UsageService;
  status(): BusStatus;
  close(): Promise<void>;
}

export const DEFAULT_USAGE_TIMEOUT_MS = 5000;
/** Control planes share one queue group, so a batch is delivered to one of them. */
const QUEUE_GROUP = 'ensign-usage';

export const usageSubject = (bucket: string): string => `${bucket}.usage`;

interface UsageReply {
  ok?: true;
  error?: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));

const isCount = (c: unknown): c is UsageCount => {
  const v = c as Partial<UsageCount> | null;
  return (
    typeof v === 'object' && v !== null &&
    typeof v.namespaceKey === 'string' && typeof v.flagKey === 'string' && typeof v.value === 'string' && typeof v.reason === 'string' &&
    Number.isSafeInteger(v.count) && (v.count as number) > 0
  );
};

/** The batch of a request body; throws naming what is wrong, so the sender's log says it. */
export function decodeUsageBatch(data: Uint8Array): UsageBatch {
  const v = JSON.parse(decoder.decode(data)) as Partial<UsageBatch> | null;
  if (typeof v !== 'object' || v === null || typeof v.id !== 'string' || v.id === '') throw new Error('usage batch: id must be a non-empty string');
  if (!Number.isSafeInteger(v.at)) throw new Error('usage batch: at must be epoch milliseconds');
  if (!Array.isArray(v.counts) || !v.counts.every(isCount)) throw new Error('usage batch: counts must be {namespaceKey, flagKey, value, reason, count > 0}');
  return { id: v.id, at: v.at as number, counts: v.counts };
}

/** Why a request got no stored reply, in the operator's terms. */
function requestFailure(err: unknown, subject: string, timeoutMs: number): Error {
  const code = (err as { code?: string }).code;
  if (code === '503') return new Error(`no control plane is serving ${subject}`);
  if (code === 'TIMEOUT') return new Error(`no control plane answered on ${subject} within ${timeoutMs} ms`);
  return err instanceof Error ? err : new Error(String(err));
}

export function openUsageBus(options: UsageBusOptions): UsageBus {
  const subject = usageSubject(options.bucket ?? 'ensign_snapshots');
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_USAGE_TIMEOUT_MS;
  const logger = options.logger;
  const connection = new HealingConnection({ url: options.url, name: options.name, reconnectTimeWaitMs: options.reconnectTimeWaitMs, logger });
  const services = new Set<UsageService>();

  async function shipUsage(batch: UsageBatch): Promise<void> {
    // While NATS is away the batch fails now and stays with the sender, instead of waiting in a client buffer.
    if (connection.status() !== 'connected') throw new Error(`NATS is ${connection.status()}; usage batch not sent`);
    const nc = await connection.ready;
    let reply: UsageReply;
    try {
      const msg = await nc.request(subject, encode(batch), { timeout: timeoutMs });
      reply = JSON.parse(decoder.decode(msg.data)) as UsageReply;
    } catch (err) {
      throw requestFailure(err, subject, timeoutMs);
    }
    if (reply.ok !== true) throw new Error(`the control plane did not store usage batch ${batch.id}: ${reply.error ?? 'no reason given'}`);
  }

  function serveUsage(receiver: UsageReceiver): UsageService {
    const storing = new Set<Promise<void>>();
    let subscription: Subscription | undefined;
    let stopped = false;

    async function answer(msg: Msg): Promise<void> {
      let reply: UsageReply;
      try {
        await receiver(decodeUsageBatch(msg.data));
        reply = { ok: true };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        logger?.warn({ err, subject }, 'usage batch not stored');
        reply = { error: message };
      }
      try {
        msg.respond(encode(reply));
      } catch (err) {
        // The connection closed meanwhile: the sender times out and sends the batch again.
        logger?.warn({ err, subject }, 'usage reply not sent');
      }
    }

    const ready = connection.ready
      .then(async (nc) => {
        if (stopped) return;
        subscription = nc.subscribe(subject, {
          queue: QUEUE_GROUP,
          callback: (err, msg) => {
            if (err !== null) {
              logger?.warn({ err, subject }, 'usage subscription failed');
              return;
            }
            const work = answer(msg).finally(() => storing.delete(work));
            storing.add(work);
          },
        });
        await nc.flush();
        logger?.info({ subject, queue: QUEUE_GROUP }, 'storing evaluation counts sent over NATS');
      })
      // Closed before connecting: there is nothing to answer.
      .catch(() => undefined);

    const service: UsageService = {
      ready,
      async stop() {
        stopped = true;
        services.delete(service);
        subscription?.unsubscribe();
        await Promise.allSettled([...storing]);
      },
    };
    services.add(service);
    return service;
  }

  return {
    shipUsage,
    serveUsage,
    status: () => connection.status(),
    async close() {
      await Promise.all([...services].map((s) => s.stop()));
      await connection.close();
    },
  };
}
