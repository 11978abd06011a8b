/**
 * One provider's evaluation counts since they were last taken, per flag, Flipt reason and value
 * (the variant key, `""` when none, or `true`/`false`): plain numbers on the evaluation path,
 * turned into `UsageCount`s only when the shipper takes them. Only flags of the snapshot are
 * counted, so the counts stay bounded by the flags and their variants.
 */
import type { UsageCount } from '@ensign/core';

interface Cell {
  n: number;
}

export class UsageCounter {
  private byFlag = new Map<string, Map<string, Map<string, Cell>>>();

  constructor(readonly namespaceKey: string) {}

  count(flagKey: string, reason: string, value: string): void {
    let reasons = this.byFlag.get(flagKey);
    if (reasons === undefined) {
      reasons = new Map();
      this.byFlag.set(flagKey, reasons);
    }
    let values = reasons.get(reason);
    if (values === undefined) {
      values = new Map();
      reasons.set(reason, values);
    }
    const cell = values.get(value);
    if (cell === undefined) values.set(value, { n: 1 });
    else cell.n++;
  }

  /** Everything counted since the last call, which starts counting afresh. */
  take(): UsageCount[] {
    const taken = this.byFlag;
    this.byFlag = new Map();
    const counts: UsageCount[] = [];
    for (const [flagKey, reasons] of taken) {
      for (const [reason, values] of reasons) {
        for (const [value, cell] of values) counts.push({ namespaceKey: this.namespaceKey, flagKey, value, reason, count: cell.n });
      }
    }
    return counts;
  }
}
