/**
 * Management reads and deletes after decoding (path and query parameters). Like `requests.ts`,
 * absent strings are `""`; validation resolves `namespaceKey` and turns `PageQuery` into a
 * `PageRequest`.
 */

/** Paging parameters as sent: `pageToken` has not been resolved yet. */
export interface PageQuery {
  limit: number;
  offset: number;
  pageToken: string;
}

export interface ListNamespaces {
  page: PageQuery;
}

/** List flags or segments of a namespace. */
export interface ListInNamespace {
  namespaceKey: string;
  page: PageQuery;
}

/** List rules or rollouts of a flag. */
export interface ListInFlag {
  namespaceKey: string;
  flagKey: string;
  page: PageQuery;
}

/** Get or delete a namespace. */
export interface NamespaceRef {
  key: string;
}

export interface DeleteNamespace {
  key: string;
  /** Delete even a protected namespace or one that still has flags. */
  force: boolean;
}

/** Get or delete a flag or a segment. */
export interface KeyRef {
  namespaceKey: string;
  key: string;
}

/** Get or delete something that belongs to a flag: a variant, a rule, a rollout. */
export interface FlagItemRef {
  namespaceKey: string;
  flagKey: string;
  id: string;
}

/** Delete a constraint of a segment. */
export interface SegmentItemRef {
  namespaceKey: string;
  segmentKey: string;
  id: string;
}
