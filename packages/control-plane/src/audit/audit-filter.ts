/**
 * Flipt's `audit.events`: which `<noun>:<verb>` pairs are sent to the sinks
 * (internal/server/audit/checker.go). `*` stands for every noun or every verb.
 */
import type { AuditEvent } from './audit-event.js';

const NOUNS = ['constraint', 'distribution', 'flag', 'namespace', 'rollout', 'rule', 'segment', 'token', 'variant'];
const VERBS = ['created', 'updated', 'deleted'];

/** Decides whether an event goes to the sinks. */
export interface AuditFilter {
  allows(event: Pick<AuditEvent, 'type' | 'action'>): boolean;
  /** The pairs it allows, expanded (`flag:created`, …), sorted. */
  readonly pairs: readonly string[];
}

function expand(part: string, all: string[], what: 'noun' | 'verb', entry: string): string[] {
  if (part === '*') return all;
  if (all.includes(part)) return [part];
  throw new Error(`audit.events: "${entry}" has an unknown ${what} "${part}" (one of ${all.join(', ')} or *)`);
}

/**
 * Parses the list; throws an Error naming the entry that is malformed, names an unknown noun or
 * verb, or repeats a pair another entry already covers (Flipt refuses those too), and refuses an
 * empty list.
 */
export function parseAuditEvents(entries: readonly string[]): AuditFilter {
  const allowed = new Set<string>();
  for (const entry of entries) {
    const parts = entry.split(':');
    if (parts.length !== 2) throw new Error(`audit.events: "${entry}" is not a <noun>:<verb> pair`);
    const [noun = '', verb = ''] = parts;
    for (const n of expand(noun, NOUNS, 'noun', entry)) {
      for (const v of expand(verb, VERBS, 'verb', entry)) {
        const pair = `${n}:${v}`;
        if (allowed.has(pair)) throw new Error(`audit.events: "${entry}" repeats the pair ${pair}`);
        allowed.add(pair);
      }
    }
  }
  if (allowed.size === 0) throw new Error('audit.events: the list is empty; use ["*:*"] for every event');
  return { allows: (event) => allowed.has(`${event.type}:${event.action}`), pairs: [...allowed].sort() };
}
