/**
 * Every route the UI calls, typed with the service's own wire types. Lists are read whole
 * (`limit` 0): the screens filter and page them in the browser, which stays fast for thousands of
 * flags and lets search cover every page.
 */
import type {
  AuditPage,
  BooleanEvaluationResponse,
  ChangeAction,
  ChangeResource,
  ComparisonType,
  Constraint,
  Distribution,
  Flag,
  FlagSchedule,
  FlagType,
  FlagUsageStatus,
  MatchType,
  Namespace,
  Permissions,
  Prerequisite,
  RampStep,
  Rollout,
  Rule,
  Segment,
  SegmentOperator,
  Variant,
  VariantEvaluationResponse,
} from '@ensign/core';
import { type DocumentFormat, CONTENT_TYPES, type ImportMode, importQuery, type ImportSummary } from '../lib/document-import.js';
import type { OfrepFlagAnswer } from '../lib/outcome-notes.js';
import { mayBypassPolicy, permissionsOf, UNRESTRICTED } from '../lib/permissions.js';
import { type ServerStorage, storageOf } from '../lib/read-only.js';
import { ApiError, request, requestRaw, requestText, scopedNamespace, seg } from './client.js';
import { type Drafted, write } from './drafting.js';
import { rememberBypass } from './protection.js';

const api = (ns: string): string => `/api/v1/namespaces/${seg(ns)}`;
const flagPath = (ns: string, flagKey: string): string => `${api(ns)}/flags/${seg(flagKey)}`;
const segmentPath = (ns: string, segmentKey: string): string => `${api(ns)}/segments/${seg(segmentKey)}`;

export interface NamespaceInput {
  key: string;
  name: string;
  description: string;
}
export interface FlagInput {
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  type: FlagType;
}
export interface FlagUpdate {
  name: string;
  description: string;
  enabled: boolean;
  /** `""` clears the default variant. */
  defaultVariantId: string;
  /** Sent back as read: an update replaces the whole flag. */
  metadata?: Record<string, unknown>;
  /** Absent: left as they are; `[]` removes them all. */
  prerequisites?: Prerequisite[];
}
export interface VariantInput {
  key: string;
  name: string;
  description: string;
  /** A JSON document as text, or `""`. */
  attachment: string;
}
export interface SegmentInput {
  key: string;
  name: string;
  description: string;
  matchType: MatchType;
}
export interface ConstraintInput {
  type: ComparisonType;
  property: string;
  operator: string;
  value: string;
  description: string;
}
/** One segment (`segmentKey`) or several (`segmentKeys` with their operator). */
export interface SegmentRefInput {
  segmentKey?: string;
  segmentKeys?: string[];
  segmentOperator?: SegmentOperator;
}
/** A share of a new rule's traffic sent with the rule (Ensign's extension): its variant by key. */
export interface RuleDistributionInput {
  variantKey: string;
  rollout: number;
}
export interface DistributionInput {
  variantId: string;
  rollout: number;
}
/** When a rule or rollout applies, as sent: a bound left out is unset (kept as it is on an update), `""` clears it. */
export interface WindowInput {
  validFrom?: string;
  validUntil?: string;
}
export interface RolloutInput extends WindowInput {
  rank: number;
  description: string;
  segment?: SegmentRefInput & { value: boolean };
  threshold?: { percentage: number; value: boolean; ramp?: RampStep[] };
}
/** A flag's enabled state to set at `at` (RFC 3339). */
export interface ScheduleInput {
  at: string;
  enabled: boolean;
}
export interface EvaluationInput {
  namespaceKey: string;
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

/** `/auth/v1/session`: whether the management API needs a sign-in, and the signed-in caller. */
export interface BrowserSession {
  signInRequired: boolean;
  signedIn: boolean;
  authentication?: Authentication;
  via?: 'cookie' | 'bearer' | 'jwt';
  /** A session opened with a namespace-scoped token: the one namespace it may touch. */
  namespace?: string;
  /** A session cookie was sent but is no longer valid (it has been cleared). */
  sessionEnded?: true;
}

/** `GET /auth/v1/method`: one entry per method, the OIDC providers by name. */
export interface AuthMethodInfo {
  method: 'METHOD_TOKEN' | 'METHOD_GITHUB' | 'METHOD_OIDC' | 'METHOD_KUBERNETES' | 'METHOD_JWT';
  enabled: boolean;
  sessionCompatible: boolean;
  metadata?: {
    authorize_url?: string;
    providers?: Record<string, { authorize_url: string; callback_url: string }>;
  };
}
export interface Authentication {
  id?: string;
  method: string;
  expiresAt?: string;
  createdAt: string;
  updatedAt: string;
  metadata: Record<string, string>;
}
export interface TokenInput {
  name: string;
  description: string;
  /** RFC 3339, or omitted for a token that never expires. */
  expiresAt?: string;
  /** Ties the token to one namespace. */
  namespaceKey?: string;
}

export const namespaces = {
  /** Every namespace; a session held to one namespace sees only that one. */
  list: async (): Promise<Namespace[]> => {
    const scoped = scopedNamespace();
    if (scoped !== undefined) return [await request<Namespace>('GET', api(scoped))];
    return (await request<{ namespaces: Namespace[] }>('GET', '/api/v1/namespaces')).namespaces;
  },
  create: (input: NamespaceInput): Promise<Namespace> => request('POST', '/api/v1/namespaces', input),
  update: (key: string, input: Omit<NamespaceInput, 'key'>): Promise<Namespace> => request('PUT', `/api/v1/namespaces/${seg(key)}`, input),
  delete: (key: string): Promise<void> => request('DELETE', `/api/v1/namespaces/${seg(key)}`),
  /** The namespace as a Flipt YAML document. */
  export: (key: string): Promise<string> => requestText('GET', `${api(key)}/export`, { accept: CONTENT_TYPES.yaml }),
  /** Imports one Flipt document into the namespace; `dryRun` answers what would change and writes nothing. */
  import: async (key: string, document: { text: string; format: DocumentFormat }, mode: ImportMode, dryRun: boolean): Promise<ImportSummary> =>
    JSON.parse(
      await requestText('POST', `${api(key)}/import?${importQuery(mode, dryRun)}`, { accept: 'application/json', body: document.text, contentType: CONTENT_TYPES[document.format] }),
    ) as ImportSummary,
};

export const flags = {
  list: async (ns: string): Promise<Flag[]> => (await request<{ flags: Flag[] }>('GET', `${api(ns)}/flags`)).flags,
  get: (ns: string, key: string): Promise<Flag> => request('GET', flagPath(ns, key)),
  create: (ns: string, input: FlagInput): Promise<Flag | Drafted> => write(ns, 'POST', `${api(ns)}/flags`, input),
  update: (ns: string, key: string, input: FlagUpdate): Promise<Flag | Drafted> => write(ns, 'PUT', flagPath(ns, key), input),
  delete: (ns: string, key: string): Promise<void | Drafted> => write(ns, 'DELETE', flagPath(ns, key)),
};

export const variants = {
  create: (ns: string, flagKey: string, input: VariantInput): Promise<Variant | Drafted> => write(ns, 'POST', `${flagPath(ns, flagKey)}/variants`, input),
  update: (ns: string, flagKey: string, id: string, input: VariantInput): Promise<Variant | Drafted> =>
    write(ns, 'PUT', `${flagPath(ns, flagKey)}/variants/${seg(id)}`, input),
  delete: (ns: string, flagKey: string, id: string): Promise<void | Drafted> => write(ns, 'DELETE', `${flagPath(ns, flagKey)}/variants/${seg(id)}`),
};

export const rules = {
  list: async (ns: string, flagKey: string): Promise<Rule[]> => (await request<{ rules: Rule[] }>('GET', `${flagPath(ns, flagKey)}/rules`)).rules,
  /** `distributions` makes the rule's split in the same write. */
  create: (ns: string, flagKey: string, input: SegmentRefInput & WindowInput & { rank: number; distributions?: RuleDistributionInput[] }): Promise<Rule | Drafted> => write(ns, 'POST', `${flagPath(ns, flagKey)}/rules`, input),
  update: (ns: string, flagKey: string, id: string, input: SegmentRefInput & WindowInput): Promise<Rule | Drafted> => write(ns, 'PUT', `${flagPath(ns, flagKey)}/rules/${seg(id)}`, input),
  delete: (ns: string, flagKey: string, id: string): Promise<void | Drafted> => write(ns, 'DELETE', `${flagPath(ns, flagKey)}/rules/${seg(id)}`),
  order: (ns: string, flagKey: string, ruleIds: string[]): Promise<void | Drafted> => write(ns, 'PUT', `${flagPath(ns, flagKey)}/rules/order`, { ruleIds }),
};

export const distributions = {
  create: (ns: string, flagKey: string, ruleId: string, input: DistributionInput): Promise<Distribution | Drafted> =>
    write(ns, 'POST', `${flagPath(ns, flagKey)}/rules/${seg(ruleId)}/distributions`, input),
  update: (ns: string, flagKey: string, ruleId: string, id: string, input: DistributionInput): Promise<Distribution | Drafted> =>
    write(ns, 'PUT', `${flagPath(ns, flagKey)}/rules/${seg(ruleId)}/distributions/${seg(id)}`, input),
  delete: (ns: string, flagKey: string, ruleId: string, id: string, variantId: string): Promise<void | Drafted> =>
    write(ns, 'DELETE', `${flagPath(ns, flagKey)}/rules/${seg(ruleId)}/distributions/${seg(id)}?variantId=${seg(variantId)}`),
};

export const rollouts = {
  list: async (ns: string, flagKey: string): Promise<Rollout[]> => (await request<{ rules: Rollout[] }>('GET', `${flagPath(ns, flagKey)}/rollouts`)).rules,
  create: (ns: string, flagKey: string, input: RolloutInput): Promise<Rollout | Drafted> => write(ns, 'POST', `${flagPath(ns, flagKey)}/rollouts`, input),
  update: (ns: string, flagKey: string, id: string, input: Omit<RolloutInput, 'rank'>): Promise<Rollout | Drafted> =>
    write(ns, 'PUT', `${flagPath(ns, flagKey)}/rollouts/${seg(id)}`, input),
  delete: (ns: string, flagKey: string, id: string): Promise<void | Drafted> => write(ns, 'DELETE', `${flagPath(ns, flagKey)}/rollouts/${seg(id)}`),
  order: (ns: string, flagKey: string, rolloutIds: string[]): Promise<void | Drafted> => write(ns, 'PUT', `${flagPath(ns, flagKey)}/rollouts/order`, { rolloutIds }),
};

export const schedules = {
  /** A flag's scheduled changes, pending, applied and cancelled, by time. */
  list: async (ns: string, flagKey: string): Promise<FlagSchedule[]> => (await request<{ schedules: FlagSchedule[] }>('GET', `${flagPath(ns, flagKey)}/schedules`)).schedules,
  create: (ns: string, flagKey: string, input: ScheduleInput): Promise<FlagSchedule | Drafted> => write(ns, 'POST', `${flagPath(ns, flagKey)}/schedules`, input),
  /** Cancels a pending schedule; answers it cancelled. */
  cancel: (ns: string, flagKey: string, id: string): Promise<FlagSchedule | Drafted> => write(ns, 'DELETE', `${flagPath(ns, flagKey)}/schedules/${seg(id)}`),
};

export const segments = {
  list: async (ns: string): Promise<Segment[]> => (await request<{ segments: Segment[] }>('GET', `${api(ns)}/segments`)).segments,
  get: (ns: string, key: string): Promise<Segment> => request('GET', segmentPath(ns, key)),
  create: (ns: string, input: SegmentInput): Promise<Segment | Drafted> => write(ns, 'POST', `${api(ns)}/segments`, input),
  update: (ns: string, key: string, input: Omit<SegmentInput, 'key'>): Promise<Segment | Drafted> => write(ns, 'PUT', segmentPath(ns, key), input),
  delete: (ns: string, key: string): Promise<void | Drafted> => write(ns, 'DELETE', segmentPath(ns, key)),
};

export const constraints = {
  create: (ns: string, segmentKey: string, input: ConstraintInput): Promise<Constraint | Drafted> => write(ns, 'POST', `${segmentPath(ns, segmentKey)}/constraints`, input),
  update: (ns: string, segmentKey: string, id: string, input: ConstraintInput): Promise<Constraint | Drafted> =>
    write(ns, 'PUT', `${segmentPath(ns, segmentKey)}/constraints/${seg(id)}`, input),
  delete: (ns: string, segmentKey: string, id: string): Promise<void | Drafted> => write(ns, 'DELETE', `${segmentPath(ns, segmentKey)}/constraints/${seg(id)}`),
};

/** Which changes a history listing asks for; an absent or empty filter matches everything. */
export interface HistoryFilter {
  types?: readonly ChangeResource[];
  /** A flag's or segment's key: its own changes and those of what belongs to it. */
  key?: string;
  actions?: readonly ChangeAction[];
}

/** The query string of one page of the history: the filters, the page size and where to resume. */
function historyQuery(filter: HistoryFilter, pageToken: string, limit: number): string {
  const query = new URLSearchParams({ limit: String(limit) });
  if (filter.types !== undefined && filter.types.length > 0) query.set('type', filter.types.join(','));
  if (filter.key !== undefined && filter.key !== '') query.set('key', filter.key);
  if (filter.actions !== undefined && filter.actions.length > 0) query.set('action', filter.actions.join(','));
  if (pageToken !== '') query.set('pageToken', pageToken);
  return query.toString();
}

export const history = {
  /** One page of a namespace's stored changes, newest first (`nextPageToken` `""` on the last). */
  list: (ns: string, filter: HistoryFilter, pageToken: string, limit: number, signal?: AbortSignal): Promise<AuditPage> =>
    request('GET', `${api(ns)}/audit/events?${historyQuery(filter, pageToken, limit)}`, undefined, signal === undefined ? {} : { signal }),
};

/** Flipt's evaluation timeline of a flag: one count per step (`timestamps[i]` counts `values[i]`). */
export interface EvaluationTimeline {
  timestamps: string[];
  values: number[];
}
export interface ValueCount {
  /** A variant key (`""` when none matched) or, for a boolean flag, `"true"` / `"false"`. */
  value: string;
  count: number;
}
/** What a flag served between `from` and `to`. */
export interface FlagUsageSummary {
  flagKey: string;
  from: string;
  to: string;
  evaluations: number;
  lastEvaluatedAt: string | null;
  values: ValueCount[];
  reasons: Array<{ reason: string; count: number }>;
}
/** One flag of the namespace's usage listing, judged over its window. */
export interface FlagUsage {
  flagKey: string;
  name: string;
  type: FlagType;
  enabled: boolean;
  createdAt: string;
  lastEvaluatedAt: string | null;
  evaluations: number;
  values: ValueCount[];
  status: FlagUsageStatus;
  stale: boolean;
}
export interface NamespaceUsage {
  /** The window as a Go duration (`720h0m0s`). */
  window: string;
  since: string;
  flags: FlagUsage[];
}
/** A range of time, both ends RFC 3339. */
export interface TimeBounds {
  from: string;
  to: string;
}

const boundsQuery = (bounds: TimeBounds): string => `from=${seg(bounds.from)}&to=${seg(bounds.to)}`;

/** A body that is not the expected JSON (a proxy's page, an older server's fallback) means the route is not there. */
function expect<T>(body: T | undefined, has: (body: T) => boolean): T {
  if (body === undefined || body === null || typeof body !== 'object' || !has(body)) throw new ApiError(501, 12, 'the service answered without usage data');
  return body;
}

export const usage = {
  /** `GET /internal/v1/analytics/…`: evaluations per step between `bounds.from` and `bounds.to`. */
  timeline: async (ns: string, flagKey: string, bounds: TimeBounds, signal?: AbortSignal): Promise<EvaluationTimeline> =>
    expect(
      await request<EvaluationTimeline>('GET', `/internal/v1/analytics/namespaces/${seg(ns)}/flags/${seg(flagKey)}?${boundsQuery(bounds)}`, undefined, signal === undefined ? {} : { signal }),
      (body) => Array.isArray(body.timestamps) && Array.isArray(body.values),
    ),
  /** The values and reasons a flag served between `bounds.from` and `bounds.to`, and its last evaluation. */
  flag: async (ns: string, flagKey: string, bounds: TimeBounds, signal?: AbortSignal): Promise<FlagUsageSummary> =>
    expect(
      await request<FlagUsageSummary>('GET', `${flagPath(ns, flagKey)}/usage?${boundsQuery(bounds)}`, undefined, signal === undefined ? {} : { signal }),
      (body) => Array.isArray(body.values) && typeof body.evaluations === 'number',
    ),
  /** Every flag of the namespace judged over `window` (a Go duration; `""` for the service's default). */
  namespace: async (ns: string, window: string, signal?: AbortSignal): Promise<NamespaceUsage> =>
    expect(
      await request<NamespaceUsage>('GET', `${api(ns)}/usage${window === '' ? '' : `?window=${seg(window)}`}`, undefined, signal === undefined ? {} : { signal }),
      (body) => Array.isArray(body.flags),
    ),
};

/** Did a usage route answer that this service has no usage to give (a server from before it, or analytics off)? */
export const isUsageUnavailable = (error: unknown): boolean => error instanceof ApiError && (error.status === 404 || error.status === 501);

export const evaluation = {
  variant: (input: EvaluationInput): Promise<VariantEvaluationResponse> => request('POST', `/evaluate/v1/namespaces/${seg(input.namespaceKey)}/variant`, input),
  boolean: (input: EvaluationInput): Promise<BooleanEvaluationResponse> => request('POST', `/evaluate/v1/namespaces/${seg(input.namespaceKey)}/boolean`, input),
};

export const ofrep = {
  /**
   * `POST /ofrep/v1/evaluate/flags/{key}` for the entity and context (the entity as `targetingKey`).
   * Quiet on a 401: OFREP is outside every namespace, so a namespace-scoped session is refused
   * there, which must not end it.
   */
  flag: (input: EvaluationInput): Promise<OfrepFlagAnswer> =>
    request('POST', `/ofrep/v1/evaluate/flags/${seg(input.flagKey)}`, { context: { ...input.context, targetingKey: input.entityId } }, { quiet401: true, headers: { 'X-Flipt-Namespace': input.namespaceKey } }),
};

export const meta = {
  /**
   * `GET /meta/info`'s storage: where flags come from and whether they can be changed. A server
   * from before the route (404) is writable.
   */
  storage: async (): Promise<ServerStorage> => {
    try {
      return storageOf(await request<unknown>('GET', '/meta/info'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return storageOf(undefined);
      throw err;
    }
  },
};

export const permissions = {
  /**
   * `GET /api/v1/permissions`: what the session may do in each namespace it may view, and on
   * tokens. A server from before the route (404) checks nothing beyond authentication.
   */
  get: async (): Promise<Permissions> => {
    let answer: Permissions;
    try {
      answer = permissionsOf(await request<unknown>('GET', '/api/v1/permissions'));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      answer = UNRESTRICTED;
    }
    rememberBypass((ns) => mayBypassPolicy(answer, ns));
    return answer;
  },
};

export const auth = {
  methods: async (): Promise<AuthMethodInfo[]> => (await request<{ methods: AuthMethodInfo[] }>('GET', '/auth/v1/method', undefined, { quiet401: true })).methods,
  /** `GET /auth/v1/session`: who the browser is signed in as (200 whether or not), with a cookie session's CSRF token. */
  session: async (): Promise<{ session: BrowserSession; csrfToken: string | undefined }> => {
    const { body, headers } = await requestRaw<BrowserSession>('GET', '/auth/v1/session', undefined, { quiet401: true });
    return { session: body, csrfToken: headers.get('X-CSRF-Token') ?? undefined };
  },
  /** Trades a pasted client token (or JWT) for a browser session cookie; a refused token is a 401 `ApiError`. */
  openSession: async (clientToken: string): Promise<{ session: BrowserSession; csrfToken: string | undefined }> => {
    const { body, headers } = await requestRaw<BrowserSession>('POST', '/auth/v1/session', { clientToken }, { quiet401: true });
    return { session: body, csrfToken: headers.get('X-CSRF-Token') ?? undefined };
  },
  /** Ends the browser session and clears its cookie. */
  endSession: (): Promise<void> => request('DELETE', '/auth/v1/session', undefined, { quiet401: true }),
  /** The URL to send the browser to for a login through `path` (`oidc/<provider>` or `github`). */
  authorize: async (path: string, state: string): Promise<string> =>
    (await request<{ authorizeUrl: string }>('GET', `/auth/v1/method/${path}/authorize?state=${seg(state)}`, undefined, { quiet401: true })).authorizeUrl,
  /** Every static token, page after page (the service answers at most 100 at a time). */
  tokens: async (): Promise<Authentication[]> => {
    const all: Authentication[] = [];
    let pageToken = '';
    do {
      const page = await request<{ authentications: Authentication[]; nextPageToken?: string }>(
        'GET',
        `/auth/v1/tokens?method=METHOD_TOKEN&limit=100${pageToken === '' ? '' : `&pageToken=${seg(pageToken)}`}`,
      );
      all.push(...page.authentications);
      pageToken = page.nextPageToken ?? '';
    } while (pageToken !== '');
    return all;
  },
  createToken: (input: TokenInput): Promise<{ clientToken: string; authentication: Authentication }> => request('POST', '/auth/v1/method/token', input),
  deleteToken: (id: string): Promise<void> => request('DELETE', `/auth/v1/tokens/${seg(id)}`),
};
