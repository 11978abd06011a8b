/** The kind of `evaluator.workers`: how many evaluating processes `ensign evaluator` runs on its ports. */
import type { Kind } from './config.kinds.js';

/** A count of processes, or `auto`: one per CPU the process may use, decided when it starts. */
export type WorkerSetting = number | 'auto';

const REASON = 'must be a whole number of at least 1, or auto';

/** A whole number of at least 1 (YAML number or numeric string), or `auto` (any case). */
export function workerCount(): Kind<WorkerSetting> {
  return {
    type: 'integer|auto',
    parse(raw) {
      if (typeof raw === 'string' && raw.trim().toLowerCase() === 'auto') return { ok: true, value: 'auto' };
      const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
      if (!/^\+?\d+$/.test(text)) return { ok: false, reason: REASON };
      const value = Number(text);
      return Number.isSafeInteger(value) && value >= 1 ? { ok: true, value } : { ok: false, reason: REASON };
    },
    format: String,
  };
}
