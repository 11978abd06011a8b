/** The evaluator's routes and the paths it answers for; everything else belongs to the control plane. */
import { withoutTrailingSlash } from '@ensign/core';

/** What the table needs to know of a route. */
export interface RouteSpec {
  method: 'GET' | 'POST';
}

/** What a request path resolves to. */
export type RouteMatch<H extends RouteSpec> =
  | { kind: 'route'; route: H; params: string[]; pretty: boolean }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed' };

/** A path pattern: literal segments, `*` for a parameter, `?` for one that may be empty. */
interface Pattern<H> {
  segments: readonly string[];
  route: H;
}

/** Prefixes whose unknown paths get grpc-gateway's JSON 404 from the evaluator. */
const OWNED_PREFIXES: readonly (readonly string[])[] = [['evaluate', 'v1'], ['internal', 'v1', 'evaluation'], ['ofrep']];

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * COMPAT(flipt): Flipt v1's gateway binds an empty path segment as an empty parameter, and an empty
 * namespace is `default`: Flipt's Go SDK posts to `/api/v1/namespaces//evaluate`. Only the
 * gateway's own `/api/v1` routes take one; the rest of the table keeps refusing empty parameters.
 */
const mayBeEmpty = (path: string, segment: string): boolean => segment === '{ns}' && path.startsWith('/api/v1/');

const hasPretty = (query: string): boolean => query !== '' && new URLSearchParams(query).has('pretty');

/** A compiled route table: `match(method, url)` is undefined for paths the evaluator does not serve. */
export class RouteTable<H extends RouteSpec> {
  /** Paths without parameters, looked up directly (the hot evaluation routes are all such). */
  private readonly fixed = new Map<string, H>();
  private readonly patterns: Pattern<H>[] = [];
  private readonly added: Array<readonly [method: string, path: string]> = [];

  /** Adds a route at `path`, written with `{name}` for parameters. */
  add(path: string, route: H): this {
    this.added.push([route.method, path]);
    const segments = path
      .split('/')
      .slice(1)
      .map((s) => (mayBeEmpty(path, s) ? '?' : s.startsWith('{') ? '*' : s));
    if (segments.some((s) => s === '*' || s === '?')) this.patterns.push({ segments, route });
    else this.fixed.set(path, route);
    return this;
  }

  /** Every route added, as `[method, path]` in the order added (`{name}` for parameters). */
  list(): ReadonlyArray<readonly [method: string, path: string]> {
    return [...this.added];
  }

  match(method: string, url: string): RouteMatch<H> | undefined {
    const q = url.indexOf('?');
    const path = withoutTrailingSlash(q === -1 ? url : url.slice(0, q));
    const pretty = q !== -1 && hasPretty(url.slice(q + 1));

    const fixed = this.fixed.get(path);
    if (fixed !== undefined) {
      if (allows(fixed, method)) return { kind: 'route', route: fixed, params: [], pretty };
      return { kind: 'method-not-allowed' };
    }
    const segments = path.split('/').slice(1);

    let pathMatched = false;
    for (const pattern of this.patterns) {
      const params = matchSegments(pattern.segments, segments);
      if (params === undefined) continue;
      pathMatched = true;
      if (allows(pattern.route, method)) return { kind: 'route', route: pattern.route, params, pretty };
    }
    if (pathMatched) return { kind: 'method-not-allowed' };
    if (OWNED_PREFIXES.some((prefix) => prefix.every((s, i) => segments[i] === s))) return { kind: 'not-found' };
    return undefined;
  }
}

const allows = (route: RouteSpec, method: string): boolean =>
  method === route.method || (method === 'HEAD' && route.method === 'GET');

function matchSegments(pattern: readonly string[], segments: readonly string[]): string[] | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const actual = segments[i] as string;
    if (expected === '*' || expected === '?') {
      if (expected === '*' && actual === '') return undefined;
      params.push(decode(actual));
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}
