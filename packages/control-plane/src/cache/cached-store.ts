import type { FlagRepository } from '../features/flags/flag.repository.js';
import type { NamespaceRepository } from '../features/namespaces/namespace.repository.js';
import type { RolloutRepository } from '../features/rollouts/rollout.repository.js';
import type { RuleRepository } from '../features/rules/rule.repository.js';
import type { SegmentRepository } from '../features/segments/segment.repository.js';
import type { ManagementStore } from '../store.js';
import { entryKey, NAMESPACES_SCOPE, namespaceScope } from './cache-scopes.js';
import type { ReadCache } from './read-cache.js';

/**
 * The management store with its reads (get and list of namespaces, flags, segments, rules and
 * rollouts) answered through `cache`; writes go straight to `store`. The cache is kept fresh by
 * a `CacheInvalidator` hearing the store's commits, not by this wrapper, so writes made any other
 * way are covered too.
 */
export function withReadCache(store: ManagementStore, cache: ReadCache): ManagementStore {
  return {
    namespaces: cachedNamespaces(store.namespaces, cache),
    flags: cachedFlags(store.flags, cache),
    variants: store.variants,
    segments: cachedSegments(store.segments, cache),
    constraints: store.constraints,
    rules: cachedRules(store.rules, cache),
    distributions: store.distributions,
    rollouts: cachedRollouts(store.rollouts, cache),
    // Read by the flag page's timeline only; a schedule's commit touches its flag like any write.
    schedules: store.schedules,
    // An export reads the namespace whole, at one point in time; an import's commit invalidates as any write's.
    documents: store.documents,
    // Every write adds to the history: caching it would only hide the newest entries.
    audit: store.audit,
    ping: () => store.ping(),
  };
}

function cachedNamespaces(repo: NamespaceRepository, cache: ReadCache): NamespaceRepository {
  return {
    list: (page, keys) =>
      keys === undefined
        ? cache.getOrLoad(NAMESPACES_SCOPE, entryKey('list', page.limit, page.offset), () => repo.list(page))
        : cache.getOrLoad(NAMESPACES_SCOPE, entryKey('list', page.limit, page.offset, ...[...keys].sort()), () => repo.list(page, keys)),
    get: (key) => cache.getOrLoad(NAMESPACES_SCOPE, entryKey('get', key), () => repo.get(key)),
    create: (req) => repo.create(req),
    update: (req) => repo.update(req),
    delete: (key, force) => repo.delete(key, force),
  };
}

function cachedFlags(repo: FlagRepository, cache: ReadCache): FlagRepository {
  return {
    list: (ns, page) => cache.getOrLoad(namespaceScope(ns), entryKey('flags', page.limit, page.offset), () => repo.list(ns, page)),
    get: (ns, key) => cache.getOrLoad(namespaceScope(ns), entryKey('flag', key), () => repo.get(ns, key)),
    create: (req) => repo.create(req),
    update: (req) => repo.update(req),
    delete: (ns, key) => repo.delete(ns, key),
  };
}

function cachedSegments(repo: SegmentRepository, cache: ReadCache): SegmentRepository {
  return {
    list: (ns, page) => cache.getOrLoad(namespaceScope(ns), entryKey('segments', page.limit, page.offset), () => repo.list(ns, page)),
    get: (ns, key) => cache.getOrLoad(namespaceScope(ns), entryKey('segment', key), () => repo.get(ns, key)),
    create: (req) => repo.create(req),
    update: (req) => repo.update(req),
    delete: (ns, key) => repo.delete(ns, key),
  };
}

function cachedRules(repo: RuleRepository, cache: ReadCache): RuleRepository {
  return {
    list: (ns, flagKey, page) =>
      cache.getOrLoad(namespaceScope(ns), entryKey('rules', flagKey, page.limit, page.offset), () => repo.list(ns, flagKey, page)),
    get: (ns, flagKey, id) => cache.getOrLoad(namespaceScope(ns), entryKey('rule', flagKey, id), () => repo.get(ns, flagKey, id)),
    create: (req) => repo.create(req),
    update: (req) => repo.update(req),
    order: (req) => repo.order(req),
    delete: (ns, flagKey, id) => repo.delete(ns, flagKey, id),
  };
}

function cachedRollouts(repo: RolloutRepository, cache: ReadCache): RolloutRepository {
  return {
    list: (ns, flagKey, page) =>
      cache.getOrLoad(namespaceScope(ns), entryKey('rollouts', flagKey, page.limit, page.offset), () => repo.list(ns, flagKey, page)),
    get: (ns, flagKey, id) => cache.getOrLoad(namespaceScope(ns), entryKey('rollout', flagKey, id), () => repo.get(ns, flagKey, id)),
    create: (req) => repo.create(req),
    update: (req) => repo.update(req),
    order: (req) => repo.order(req),
    delete: (ns, flagKey, id) => repo.delete(ns, flagKey, id),
  };
}
