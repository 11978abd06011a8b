/**
 * What a change request was written against: every flag and segment its changes touch, whole (a
 * flag with its variants, rules and rollouts; a segment with its constraints), as the database
 * holds it before the changes run. Read from the committed state when the request is written, and
 * again inside the apply's transaction before its changes run: any difference is a conflict. The
 * state before the changes, not the `before` of each change, because a change's `before` already
 * holds what earlier changes of the same request made (new ids, new times) and never compares.
 */
import type { Knex } from 'knex';
import { type ChangeBase, canonicalJson } from '@ensign/core';
import { readStateFlags, readStateRollouts, readStateRules, readStateSegments } from './loaders/state-parts.loader.js';

/** The flags and segments a list of changes touches, by key. */
export interface TouchedKeys {
  flags: string[];
  segments: string[];
}

/** A change as a record names it: its resource, key, and the flag or segment it belongs to. */
interface TouchedResource {
  resource: string;
  key: string;
  parentKey?: string;
}

const SEGMENT_PARTS = new Set(['segment', 'constraint']);

/** The flags and segments the changes touch: a variant, rule, distribution, rollout or schedule touches its flag, a constraint its segment. */
export function touchedKeysOf(changes: readonly TouchedResource[]): TouchedKeys {
  const flags = new Set<string>();
  const segments = new Set<string>();
  for (const change of changes) {
    if (change.resource === 'namespace') continue;
    const owner = change.resource === 'flag' || change.resource === 'segment' ? change.key : (change.parentKey ?? change.key);
    (SEGMENT_PARTS.has(change.resource) ? segments : flags).add(owner);
  }
  return { flags: [...flags].sort(), segments: [...segments].sort() };
}

/** The touched keys a base was read for. */
export function keysOfBase(base: ChangeBase): TouchedKeys {
  const flags: string[] = [];
  const segments: string[] = [];
  for (const key of Object.keys(base)) {
    if (key.startsWith('flag/')) flags.push(key.slice('flag/'.length));
    else if (key.startsWith('segment/')) segments.push(key.slice('segment/'.length));
  }
  return { flags, segments };
}

/** The touched flags and segments as `db` holds them now (`null`: not there). */
export async function readChangeBase(db: Knex, ns: string, touched: TouchedKeys): Promise<ChangeBase> {
  const base: ChangeBase = {};
  if (touched.flags.length > 0) {
    const [flags, rules, rollouts] = [await readStateFlags(db, ns, touched.flags), await readStateRules(db, ns, touched.flags), await readStateRollouts(db, ns, touched.flags)];
    for (const key of touched.flags) {
      const flag = flags.find((f) => f.key === key);
      base[`flag/${key}`] = flag === undefined ? null : canonicalJson({ flag, rules: rules.filter((r) => r.flagKey === key), rollouts: rollouts.filter((r) => r.flagKey === key) });
    }
  }
  if (touched.segments.length > 0) {
    const segments = await readStateSegments(db, ns, touched.segments);
    for (const key of touched.segments) {
      const segment = segments.find((s) => s.key === key);
      base[`segment/${key}`] = segment === undefined ? null : canonicalJson(segment);
    }
  }
  return base;
}
