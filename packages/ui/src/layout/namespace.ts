/**
 * The namespace the UI works in: the `:ns` of the path, remembered for the next visit; a session
 * held to one namespace always starts in it.
 */
import { useParams } from 'react-router';
import { scopedNamespace } from '../api/client.js';

const KEY = 'ensign.namespace';

export function useNamespace(): string {
  return useParams().ns ?? lastNamespace();
}

export function lastNamespace(): string {
  const scoped = scopedNamespace();
  if (scoped !== undefined) return scoped;
  try {
    return window.localStorage.getItem(KEY) ?? 'default';
  } catch {
    return 'default';
  }
}

export function rememberNamespace(ns: string): void {
  try {
    window.localStorage.setItem(KEY, ns);
  } catch {
    // Not remembered: the next visit opens `default`.
  }
}

/** Paths of the namespaced pages. */
export const paths = {
  flags: (ns: string) => `/namespaces/${encodeURIComponent(ns)}/flags`,
  flag: (ns: string, key: string) => `/namespaces/${encodeURIComponent(ns)}/flags/${encodeURIComponent(key)}`,
  flagTimeline: (ns: string, key: string) => `/namespaces/${encodeURIComponent(ns)}/flags/${encodeURIComponent(key)}/timeline`,
  flagUsage: (ns: string, key: string) => `/namespaces/${encodeURIComponent(ns)}/flags/${encodeURIComponent(key)}/usage`,
  flagHistory: (ns: string, key: string) => `/namespaces/${encodeURIComponent(ns)}/flags/${encodeURIComponent(key)}/history`,
  segments: (ns: string) => `/namespaces/${encodeURIComponent(ns)}/segments`,
  segment: (ns: string, key: string) => `/namespaces/${encodeURIComponent(ns)}/segments/${encodeURIComponent(key)}`,
  segmentHistory: (ns: string, key: string) => `/namespaces/${encodeURIComponent(ns)}/segments/${encodeURIComponent(key)}/history`,
  console: (ns: string, flagKey?: string) => `/namespaces/${encodeURIComponent(ns)}/console${flagKey === undefined ? '' : `?flag=${encodeURIComponent(flagKey)}`}`,
  /** The namespace's changes; `key` keeps those of one flag or segment (also a deleted one). */
  activity: (ns: string, key?: string) => `/namespaces/${encodeURIComponent(ns)}/activity${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}`,
  changeRequests: (ns: string) => `/namespaces/${encodeURIComponent(ns)}/change-requests`,
  changeRequest: (ns: string, id: string) => `/namespaces/${encodeURIComponent(ns)}/change-requests/${encodeURIComponent(id)}`,
  namespaces: () => '/settings/namespaces',
  tokens: () => '/settings/tokens',
  preferences: () => '/settings/preferences',
};
