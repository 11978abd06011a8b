/**
 * Random management edits in one namespace, through the HTTP API: creates, updates, deletes and
 * reorders of every resource, and segment edits that change several flags at once. Seeded, so a
 * failing sequence can be replayed. Some edits are refused (a segment still in use, a rollout on a
 * variant flag); that is part of the sequence, and `applied` counts only the accepted ones.
 */
import type { JsonClient } from './http.js';

interface FlagModel {
  key: string;
  variant: boolean;
  variants: string[];
  rules: string[];
  rollouts: string[];
  distributions: Array<{ rule: string; id: string }>;
}

export interface RandomEditsResult {
  /** Edits the API accepted (2xx). */
  applied: number;
  /** Edits it refused with a 4xx. */
  refused: number;
  /** Keys of the flags the sequence created (and may have deleted since). */
  flagKeys: string[];
}

/** A seeded generator in [0, 1). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs `count` random edits in namespace `ns` (which must exist); fails on any 5xx or unexpected answer. */
export async function randomEdits(api: JsonClient, ns: string, count: number, seed: number, onEdit?: (index: number) => Promise<void>): Promise<RandomEditsResult> {
  const next = seeded(seed);
  const pick = <T>(items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[Math.floor(next() * items.length)]);
  const flags: FlagModel[] = [];
  const segments: string[] = [];
  const constraints = new Map<string, string[]>();
  const created: string[] = [];
  const base = `/api/v1/namespaces/${encodeURIComponent(ns)}`;
  let serial = 0;
  let applied = 0;
  let refused = 0;

  const send = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await api.request(method, base + path, body);
    if (res.status >= 500 || (res.status >= 300 && res.status < 400)) throw new Error(`${method} ${path} → ${res.status} ${res.text}`);
    if (res.status >= 400) {
      refused++;
      return undefined;
    }
    applied++;
    return res.body ?? {};
  };

  const edits: Array<() => Promise<void>> = [
    async () => {
      const key = `f${seed}-${serial++}`;
      const variant = next() < 0.6;
      if (await send('POST', '/flags', { key, name: key, enabled: next() < 0.7, type: variant ? 'VARIANT_FLAG_TYPE' : 'BOOLEAN_FLAG_TYPE' })) {
        flags.push({ key, variant, variants: [], rules: [], rollouts: [], distributions: [] });
        created.push(key);
      }
    },
    async () => {
      const flag = pick(flags);
      if (flag === undefined) return;
      const body: Record<string, unknown> = { name: `${flag.key} v${serial++}`, enabled: next() < 0.5 };
      const dv = next() < 0.4 ? pick(flag.variants) : undefined;
      if (dv !== undefined) body['defaultVariantId'] = dv;
      await send('PUT', `/flags/${flag.key}`, body);
    },
    async () => {
      const flag = pick(flags);
      if (flag === undefined || next() < 0.5) return;
      if (await send('DELETE', `/flags/${flag.key}`)) flags.splice(flags.indexOf(flag), 1);
    },
    async () => {
      const flag = pick(flags.filter((f) => f.variant));
      if (flag === undefined) return;
      const key = `v${serial++}`;
      const made = await send('POST', `/flags/${flag.key}/variants`, { key, name: key, attachment: JSON.stringify({ n: serial }) });
      if (made) flag.variants.push(made.id as string);
    },
    async () => {
      const flag = pick(flags.filter((f) => f.variants.length > 0));
      const id = flag === undefined ? undefined : pick(flag.variants);
      if (flag === undefined || id === undefined) return;
      if (next() < 0.5) {
        await send('PUT', `/flags/${flag.key}/variants/${id}`, { key: `v${serial++}`, name: 'renamed', attachment: JSON.stringify({ m: serial }) });
      } else if (await send('DELETE', `/flags/${flag.key}/variants/${id}`)) {
        flag.variants.splice(flag.variants.indexOf(id), 1);
        flag.distributions = flag.distributions.filter((d) => d.id !== id);
      }
    },
    async () => {
      const key = `s${serial++}`;
      if (await send('POST', '/segments', { key, name: key, matchType: next() < 0.5 ? 'ALL_MATCH_TYPE' : 'ANY_MATCH_TYPE' })) {
        segments.push(key);
        constraints.set(key, []);
      }
    },
    async () => {
      const segment = pick(segments);
      if (segment === undefined) return;
      const made = await send('POST', `/segments/${segment}/constraints`, { type: 'STRING_COMPARISON_TYPE', property: pick(['plan', 'country', 'tier']), operator: pick(['eq', 'neq', 'prefix']), value: pick(['pro', 'free', 'de', 'us']) });
      if (made) constraints.get(segment)?.push(made.id as string);
    },
    async () => {
      const segment = pick(segments);
      const id = segment === undefined ? undefined : pick(constraints.get(segment) ?? []);
      if (segment === undefined || id === undefined) return;
      if (next() < 0.5) {
        await send('PUT', `/segments/${segment}/constraints/${id}`, { type: 'NUMBER_COMPARISON_TYPE', property: 'seats', operator: pick(['gt', 'lte']), value: String(Math.floor(next() * 50)) });
      } else if (await send('DELETE', `/segments/${segment}/constraints/${id}`)) {
        constraints.get(segment)?.splice(constraints.get(segment)?.indexOf(id) ?? 0, 1);
      }
    },
    async () => {
      const segment = pick(segments);
      if (segment === undefined) return;
      if (next() < 0.7) await send('PUT', `/segments/${segment}`, { name: `${segment}!`, matchType: next() < 0.5 ? 'ALL_MATCH_TYPE' : 'ANY_MATCH_TYPE' });
      else if (await send('DELETE', `/segments/${segment}`)) segments.splice(segments.indexOf(segment), 1);
    },
    async () => {
      const flag = pick(flags.filter((f) => f.variant));
      if (flag === undefined || segments.length === 0) return;
      const two = segments.length > 1 && next() < 0.3;
      const body = two ? { segmentKeys: [segments[0], pick(segments.slice(1))], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: flag.rules.length + 1 } : { segmentKey: pick(segments), rank: flag.rules.length + 1 };
      const made = await send('POST', `/flags/${flag.key}/rules`, body);
      if (made) flag.rules.push(made.id as string);
    },
    async () => {
      const flag = pick(flags.filter((f) => f.rules.length > 0 && f.variants.length > 0));
      if (flag === undefined) return;
      const rule = pick(flag.rules) as string;
      const made = await send('POST', `/flags/${flag.key}/rules/${rule}/distributions`, { variantId: pick(flag.variants), rollout: Math.floor(next() * 50) });
      if (made) flag.distributions.push({ rule, id: made.id as string });
    },
    async () => {
      const flag = pick(flags.filter((f) => f.rules.length > 1));
      if (flag === undefined) return;
      const ruleIds = [...flag.rules].sort(() => next() - 0.5);
      if (await send('PUT', `/flags/${flag.key}/rules/order`, { ruleIds })) flag.rules = ruleIds;
    },
    async () => {
      const flag = pick(flags.filter((f) => f.rules.length > 0));
      if (flag === undefined) return;
      const rule = pick(flag.rules) as string;
      if (await send('DELETE', `/flags/${flag.key}/rules/${rule}`)) {
        flag.rules.splice(flag.rules.indexOf(rule), 1);
        flag.distributions = flag.distributions.filter((d) => d.rule !== rule);
      }
    },
    async () => {
      const flag = pick(flags.filter((f) => !f.variant));
      if (flag === undefined) return;
      const segment = pick(segments);
      const body = segment !== undefined && next() < 0.5 ? { rank: flag.rollouts.length + 1, segment: { segmentKey: segment, value: next() < 0.5 } } : { rank: flag.rollouts.length + 1, threshold: { percentage: Math.floor(next() * 100), value: next() < 0.5 } };
      const made = await send('POST', `/flags/${flag.key}/rollouts`, body);
      if (made) flag.rollouts.push(made.id as string);
    },
    async () => {
      const flag = pick(flags.filter((f) => f.rollouts.length > 0));
      if (flag === undefined) return;
      const id = pick(flag.rollouts) as string;
      const roll = next();
      if (roll < 0.4) await send('PUT', `/flags/${flag.key}/rollouts/${id}`, { rank: 1, threshold: { percentage: Math.floor(next() * 100), value: true } });
      else if (roll < 0.7 && flag.rollouts.length > 1) {
        const rolloutIds = [...flag.rollouts].sort(() => next() - 0.5);
        if (await send('PUT', `/flags/${flag.key}/rollouts/order`, { rolloutIds })) flag.rollouts = rolloutIds;
      } else if (await send('DELETE', `/flags/${flag.key}/rollouts/${id}`)) flag.rollouts.splice(flag.rollouts.indexOf(id), 1);
    },
  ];

  for (let i = 0; i < count; i++) {
    await (pick(edits) as () => Promise<void>)();
    await onEdit?.(i);
  }
  return { applied, refused, flagKeys: created };
}
