/**
 * The `/api/v1` calls the seeding uses, served in this process by the same decoders and services the
 * server's routes call, on `openStore`: the rows are exactly what the API writes, without an HTTP
 * round trip and a snapshot update per call (10,000 flags take tens of thousands of calls).
 */
import {
  ConstraintService,
  DistributionService,
  FlagService,
  NamespaceService,
  RolloutService,
  RuleService,
  SegmentService,
  VariantService,
} from '@ensign/control-plane';
import {
  decodeCreateConstraint,
  decodeCreateDistribution,
  decodeCreateFlag,
  decodeCreateNamespace,
  decodeCreateRollout,
  decodeCreateRule,
  decodeCreateSegment,
  decodeCreateVariant,
  decodeUpdateFlag,
  type Fields,
  type PathParams,
} from '@ensign/core';
import type { SqlStore } from '@ensign/store';
import type { Json, ManagementApi } from './management-api.js';

type Handler = (body: Fields, params: PathParams) => Promise<unknown>;

/** `/namespaces/:namespaceKey/flags` → a regular expression with named groups. */
const pattern = (path: string): RegExp => new RegExp(`^/api/v1${path.replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`);

function routeTable(store: SqlStore): Array<{ method: string; path: RegExp; handle: Handler }> {
  const namespaces = new NamespaceService(store.namespaces);
  const flags = new FlagService(store.flags);
  const variants = new VariantService(store.variants);
  const segments = new SegmentService(store.segments);
  const constraints = new ConstraintService(store.constraints);
  const rules = new RuleService(store.rules);
  const distributions = new DistributionService(store.distributions);
  const rollouts = new RolloutService(store.rollouts);
  const flag = '/namespaces/:namespaceKey/flags/:flagKey';
  const routes: Array<[string, string, Handler]> = [
    ['POST', '/namespaces', (b) => namespaces.create(decodeCreateNamespace(b))],
    ['POST', '/namespaces/:namespaceKey/segments', (b, p) => segments.create(decodeCreateSegment(b, p))],
    ['POST', '/namespaces/:namespaceKey/segments/:segmentKey/constraints', (b, p) => constraints.create(decodeCreateConstraint(b, p))],
    ['POST', '/namespaces/:namespaceKey/flags', (b, p) => flags.create(decodeCreateFlag(b, p))],
    ['PUT', '/namespaces/:namespaceKey/flags/:key', (b, p) => flags.update(decodeUpdateFlag(b, p))],
    ['POST', `${flag}/variants`, (b, p) => variants.create(decodeCreateVariant(b, p))],
    ['POST', `${flag}/rules`, (b, p) => rules.create(decodeCreateRule(b, p))],
    ['POST', `${flag}/rules/:ruleId/distributions`, (b, p) => distributions.create(decodeCreateDistribution(b, p))],
    ['POST', `${flag}/rollouts`, (b, p) => rollouts.create(decodeCreateRollout(b, p))],
  ];
  return routes.map(([method, path, handle]) => ({ method, path: pattern(path), handle }));
}

/** The API on `store`, for the calls above only (anything else throws). */
export function inProcessApi(store: SqlStore): ManagementApi {
  const table = routeTable(store);
  return {
    async send(method, path, body) {
      for (const route of table) {
        const match = route.method === method ? route.path.exec(path) : null;
        if (match !== null) return (await route.handle(body, match.groups ?? {})) as Json;
      }
      throw new Error(`in-process API: no route for ${method} ${path}`);
    },
  };
}
