import type { Knex } from 'knex';
import type { UsageBatch } from '@ensign/core';
import { nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';
import { floorTo, HOUR_MS, HOURS_TABLE, MINUTE_MS, MINUTES_TABLE, rfc3339, stamp, windowRanges } from '../usage/usage-buckets.js';
import { checkBatch, countRows, lastRows } from '../usage/usage-rows.js';
import type { FlagUsageDetail, FlagUsageSummary, ReasonCount, UsagePruned, UsageSeries, ValueCount } from '../usage/usage-types.js';
import { addCounts, BATCHES_TABLE, claimBatch, LAST_TABLE, raiseLast } from '../usage/usage-upsert.js';

/** A summed group of count rows; engines return sums as numbers or numeric text. */
type Summed = { n: number | string } & Record<string, string>;

/** `key → summed count` in descending count order, then by key. */
function ranked(totals: Map<string, number>): Array<[string, number]> {
  return [...totals].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
}

const add = (totals: Map<string, number>, key: string, n: number): void => void totals.set(key, (totals.get(key) ?? 0) + n);

/**
 * Evaluation counts: stored once per batch, per minute and per hour, in the batch's own
 * transaction; read as Flipt's series, as a namespace's usage over a window and as one flag's.
 */
export class KnexUsageRepository {
  constructor(private readonly tx: Transactor) {}

  /**
   * Adds the batch's counts to its minute and its hour and moves its flags' last evaluation to its
   * time, unless its id was stored before. One transaction, so a failure stores nothing and the
   * batch can be sent again; another control plane storing other batches meanwhile adds to the same
   * rows (engines lock each row for the increment).
   */
  async record(batch: UsageBatch): Promise<void> {
    checkBatch(batch);
    const minutes = countRows(batch.counts, stamp(floorTo(batch.at, MINUTE_MS)));
    const hour = stamp(floorTo(batch.at, HOUR_MS));
    const hours = minutes.map((row) => ({ ...row, bucket: hour }));
    const lasts = lastRows(minutes, stamp(batch.at));
    const { dialect } = this.tx;
    const receivedAt = this.tx.now();
    await this.tx.statement((db) =>
      db.transaction(async (trx) => {
        if (!(await claimBatch(trx, dialect, batch.id, receivedAt))) return;
        await addCounts(trx, dialect, MINUTES_TABLE, minutes);
        await addCounts(trx, dialect, HOURS_TABLE, hours);
        await raiseLast(trx, dialect, lasts);
      }),
    );
  }

  /**
   * Flipt's series: one value per `stepMinutes` bucket from the bucket holding `from` to the one
   * holding `to`, both included, zero where nothing was counted. Read from the minute counts, so it
   * reaches back as far as their retention.
   */
  async series(namespaceKey: string, flagKey: string, from: Date, to: Date, stepMinutes: number): Promise<UsageSeries> {
    const step = Math.max(1, Math.floor(stepMinutes)) * MINUTE_MS;
    const first = floorTo(from.getTime(), step);
    const last = floorTo(to.getTime(), step);
    if (last < first) return { timestamps: [], values: [] };
    const rows = (await this.tx.read((db) =>
      db(MINUTES_TABLE)
        .where({ namespace_key: nsOf(namespaceKey), flag_key: flagKey })
        .where('bucket', '>=', stamp(first))
        .where('bucket', '<', stamp(last + step))
        .groupBy('bucket')
        .select('bucket')
        .sum({ n: 'count' }),
    )) as Summed[];
    const values = new Array<number>((last - first) / step + 1).fill(0);
    for (const row of rows) {
      const i = Math.floor((Date.parse(row.bucket as string) - first) / step);
      values[i] = (values[i] ?? 0) + Number(row.n);
    }
    return { timestamps: values.map((_, i) => rfc3339(first + i * step)), values };
  }

  /**
   * Every flag of the namespace that was ever counted (and whose last evaluation is still kept):
   * its evaluations from `since`'s minute to `now`'s, per value, and its last evaluation. Flags
   * are in key order.
   */
  async usage(namespaceKey: string, since: Date, now: Date): Promise<FlagUsageSummary[]> {
    const ns = nsOf(namespaceKey);
    const { counted, lasts } = await this.tx.read(async (db) => ({
      counted: await this.summed(db, since, now, ['flag_key', 'value'], (q) => q.where('namespace_key', ns)),
      lasts: (await db(LAST_TABLE).where('namespace_key', ns).select('flag_key', 'last_evaluated_at')) as Array<{ flag_key: string; last_evaluated_at: string }>,
    }));
    const perFlag = new Map<string, Map<string, number>>();
    for (const row of counted) {
      const flagKey = row.flag_key as string;
      const values = perFlag.get(flagKey) ?? new Map<string, number>();
      perFlag.set(flagKey, values);
      add(values, row.value as string, Number(row.n));
    }
    const lastOf = new Map(lasts.map((r) => [r.flag_key, r.last_evaluated_at]));
    const keys = [...new Set([...perFlag.keys(), ...lastOf.keys()])].sort();
    return keys.map((flagKey) => {
      const values: ValueCount[] = ranked(perFlag.get(flagKey) ?? new Map()).map(([value, count]) => ({ value, count }));
      return { flagKey, evaluations: values.reduce((sum, v) => sum + v.count, 0), values, lastEvaluatedAt: lastOf.get(flagKey) };
    });
  }

  /** One flag's evaluations from `from`'s minute to `to`'s, per value and per reason, and its last evaluation. */
  async flagUsage(namespaceKey: string, flagKey: string, from: Date, to: Date): Promise<FlagUsageDetail> {
    const ns = nsOf(namespaceKey);
    const { counted, last } = await this.tx.read(async (db) => ({
      counted: await this.summed(db, from, to, ['value', 'reason'], (q) => q.where({ namespace_key: ns, flag_key: flagKey })),
      last: (await db(LAST_TABLE).where({ namespace_key: ns, flag_key: flagKey }).first('last_evaluated_at')) as { last_evaluated_at: string } | undefined,
    }));
    const values = new Map<string, number>();
    const reasons = new Map<string, number>();
    let evaluations = 0;
    for (const row of counted) {
      const n = Number(row.n);
      evaluations += n;
      add(values, row.value as string, n);
      add(reasons, row.reason as string, n);
    }
    return {
      evaluations,
      values: ranked(values).map(([value, count]): ValueCount => ({ value, count })),
      reasons: ranked(reasons).map(([reason, count]): ReasonCount => ({ reason, count })),
      lastEvaluatedAt: last?.last_evaluated_at,
    };
  }

  /**
   * Deletes minute counts before `minuteBefore`, hour counts and batch ids before `hourBefore`,
   * and the last evaluations before `hourBefore` of flags that no longer exist (counts arrive for
   * any key a client asks for). Idempotent, so several control planes may run it at once.
   */
  async prune(minuteBefore: Date, hourBefore: Date): Promise<UsagePruned> {
    const minuteCut = stamp(minuteBefore.getTime());
    const hourCut = stamp(hourBefore.getTime());
    const deleted = (work: (db: Knex) => Knex.QueryBuilder): Promise<number> => this.tx.statement((db) => work(db).delete() as PromiseLike<number>);
    return {
      minutes: await deleted((db) => db(MINUTES_TABLE).where('bucket', '<', minuteCut)),
      hours: await deleted((db) => db(HOURS_TABLE).where('bucket', '<', hourCut)),
      batches: await deleted((db) => db(BATCHES_TABLE).where('received_at', '<', hourCut)),
      lasts: await deleted((db) =>
        db(LAST_TABLE)
          .where('last_evaluated_at', '<', hourCut)
          .whereNotExists((q) =>
            q.select(db.raw('1')).from('flags').whereRaw('?? = ??', ['flags.namespace_key', `${LAST_TABLE}.namespace_key`]).whereRaw('?? = ??', ['flags.key', `${LAST_TABLE}.flag_key`]),
          ),
      ),
    };
  }

  /** Count rows of the window summed by `columns`, from the hour and minute tables that cover it. */
  private async summed(db: Knex, from: Date, to: Date, columns: string[], filter: (q: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<Summed[]> {
    const out: Summed[] = [];
    for (const range of windowRanges(from, to)) {
      const q = filter(db(range.table)).where('bucket', '>=', range.from).where('bucket', '<', range.to);
      out.push(...((await q.groupBy(columns).select(columns).sum({ n: 'count' })) as Summed[]));
    }
    return out;
  }
}
