/**
 * deploy/grafana/ensign-dashboard.json against real processes: it is a valid Grafana dashboard;
 * every metric its queries name is exposed by `ensign server` or `ensign evaluator`, with the labels
 * the queries filter and group by; and every Ensign metric family those processes expose is on the
 * dashboard. Renaming a metric or a label, or adding a metric without a panel, fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { type EnsignProcess, jsonClient, repositoryRoot, scratchDir, startEnsign, testBucket } from '@ensign/testkit';
import test from 'ava';
import { parse as parseYaml } from 'yaml';
import { ok } from '../helpers/api.js';
import { seedShop } from '../helpers/evaluation-seed.js';
import { serviceClient } from '../helpers/grpc-client.js';

const grafanaDir = join(repositoryRoot, 'deploy/grafana');
const read = (file: string): string => readFileSync(join(grafanaDir, file), 'utf8');

interface Target {
  refId?: string;
  expr?: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id?: number;
  type?: string;
  title?: string;
  description?: string;
  datasource?: { type?: string; uid?: string };
  gridPos?: { h: number; w: number; x: number; y: number };
  targets?: Target[];
  panels?: Panel[];
}
interface Variable {
  name: string;
  type: string;
  query?: string | { query?: string };
  datasource?: { type?: string; uid?: string };
}
interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: Variable[] };
}

const dashboard = JSON.parse(read('ensign-dashboard.json')) as Dashboard;

/** Every panel, those inside collapsed rows included. */
const allPanels = (panels: Panel[] = dashboard.panels): Panel[] => panels.flatMap((p) => [p, ...allPanels(p.panels ?? [])]);
const queryPanels = allPanels().filter((p) => p.type !== 'row');
const variables = dashboard.templating.list;
const variableQuery = (v: Variable): string => (typeof v.query === 'string' ? v.query : (v.query?.query ?? ''));

/** Every PromQL expression of the dashboard: panel targets and the template variables' `label_values(selector, label)`. */
const expressions: { where: string; expr: string }[] = [
  ...queryPanels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}" ${t.refId}`, expr: t.expr ?? '' }))),
  ...variables.filter((v) => v.type === 'query').map((v) => ({ where: `variable $${v.name}`, expr: variableQuery(v) })),
];

/**
 * Series that Prometheus itself adds to every scrape, not exposed by Ensign: allowed on the
 * dashboard without being in /metrics.
 */
const PROMETHEUS_SERIES: Record<string, string> = {
  up: 'Prometheus sets it to 1 or 0 for each scrape target ("Targets up")',
};

/**
 * Metric families an Ensign process exposes that are deliberately not on the dashboard, each with
 * the reason. None today: every flipt_/ensign_/http_server_/grpc_server_ family has a panel.
 */
const NOT_ON_DASHBOARD: Record<string, string> = {};

/** The families that must be on the dashboard (prom-client's process_/nodejs_ defaults may be left off). */
const ENSIGN_FAMILY = /^(flipt|ensign|http_server|grpc_server)_/;

/** Labels Prometheus attaches to every scraped series (from the scrape configuration). */
const TARGET_LABELS = new Set(['job', 'instance']);

/** PromQL words that are neither metric names nor functions (functions are told by the `(` after them). */
const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless', 'inf', 'nan', 'label_values']);

/** What one expression reads: metric names as written, each selector's matcher labels, the grouping labels. */
interface ExprUse {
  names: Set<string>;
  selectors: { name: string | undefined; labels: string[] }[];
  grouping: string[];
  /** Grafana variables (`$job`, `${datasource}`, `$__rate_interval`). */
  variables: string[];
  /** Range selector windows (`[$__rate_interval]`). */
  windows: string[];
}

function parseExpr(expr: string): ExprUse {
  const names = new Set<string>();
  const selectors: ExprUse['selectors'] = [];
  const grouping: string[] = [];
  const variablesUsed = [...expr.matchAll(/\$\{?(\w+)\}?/g)].map((m) => m[1] as string);
  const windows = [...expr.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] as string);

  // Selectors with their matchers; `{__name__=~"a|b"}` names metrics too.
  for (const [, name, body] of expr.matchAll(/([a-zA-Z_:][\w:]*)?\s*\{([^}]*)\}/g)) {
    const labels: string[] = [];
    for (const [, label, , value] of (body as string).matchAll(/([a-zA-Z_]\w*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g)) {
      if (label === '__name__') for (const n of (value as string).split('|')) names.add(n);
      else labels.push(label as string);
    }
    selectors.push({ name: name === undefined || PROMQL_WORDS.has(name) ? undefined : name, labels });
  }
  // What remains after strings, matchers, range windows and grouping lists are taken out.
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\{[^}]*\}/g, ' ').replace(/\[[^\]]*\]/g, ' ');
  rest = rest.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_all, _word, list: string) => {
    grouping.push(...list.split(',').map((l) => l.trim()).filter((l) => l !== ''));
    return ' ';
  });
  // `label_values(selector, label)`: the label is the one the variable lists.
  const labelValues = /^label_values\((.*),\s*(\w+)\)$/.exec(expr.trim());
  if (labelValues) {
    grouping.push(labelValues[2] as string);
    rest = rest.replace(/,\s*\w+\)\s*$/, ')');
  }
  for (const m of rest.matchAll(/(?<![\w.$])[a-zA-Z_:][\w:]*/g)) {
    const word = m[0];
    const after = rest.slice((m.index ?? 0) + word.length).trimStart();
    if (after.startsWith('(') || PROMQL_WORDS.has(word)) continue; // a function or aggregation, or a keyword
    names.add(word);
  }
  return { names, selectors, grouping, variables: variablesUsed, windows };
}

/** A Prometheus text body: family types (from `# TYPE`) and the labels seen on each sample name. */
interface Scrape {
  types: Map<string, string>;
  labels: Map<string, Set<string>>;
}

function parseScrape(bodies: string[]): Scrape {
  const types = new Map<string, string>();
  const labels = new Map<string, Set<string>>();
  for (const body of bodies) {
    for (const line of body.split('\n')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1] as string, type[2] as string);
      if (line === '' || line.startsWith('#')) continue;
      const sample = /^([a-zA-Z_:][\w:]*)(\{.*\})?\s/.exec(line);
      if (!sample) continue;
      const set = labels.get(sample[1] as string) ?? new Set<string>();
      for (const [, label] of (sample[2] ?? '').matchAll(/([a-zA-Z_]\w*)="(?:[^"\\]|\\.)*"/g)) set.add(label as string);
      labels.set(sample[1] as string, set);
    }
  }
  return { types, labels };
}

/** The family a name written in a query belongs to: itself, or a histogram's (summary's) `_bucket`/`_sum`/`_count` series. */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (!m) return undefined;
  const base = m[1] as string;
  const type = types.get(base);
  if (type === 'histogram' || (type === 'summary' && m[2] !== 'bucket')) return base;
  return undefined;
}

test('the expression parser finds metric names, matcher labels and grouping labels, and nothing else', (t) => {
  const use = parseExpr(
    'histogram_quantile(0.99, sum by (le, route) (rate(http_server_request_duration_seconds_bucket{job=~"$job", status=~"5.."}[$__rate_interval]))) / clamp_min(sum(rate(foo_total[5m])), 1e-9) or vector(0)',
  );
  t.deepEqual([...use.names].sort(), ['foo_total', 'http_server_request_duration_seconds_bucket']);
  t.deepEqual(use.grouping, ['le', 'route']);
  t.deepEqual(use.selectors, [{ name: 'http_server_request_duration_seconds_bucket', labels: ['job', 'status'] }]);
  t.deepEqual(use.windows, ['$__rate_interval', '5m']);
  const variable = parseExpr('label_values({__name__=~"a_total|b_seconds", job=~"$job"}, namespace)');
  t.deepEqual([...variable.names].sort(), ['a_total', 'b_seconds']);
  t.deepEqual(variable.grouping, ['namespace']);
  t.deepEqual(parseExpr('max by (namespace) (x{a="1"}) - min by (namespace) (x)').names, new Set(['x']));
});

test('the dashboard is a valid Grafana dashboard over a ${datasource} variable', (t) => {
  t.is(dashboard.schemaVersion, 39);
  t.truthy(dashboard.uid);
  t.truthy(dashboard.title);
  const datasource = variables.find((v) => v.name === 'datasource');
  t.is(datasource?.type, 'datasource');
  t.is(datasource?.query, 'prometheus');
  for (const name of ['job', 'instance', 'namespace']) {
    const v = variables.find((x) => x.name === name);
    t.is(v?.type, 'query', `$${name} is a query variable`);
    t.regex(variableQuery(v as Variable), /^label_values\(/, `$${name} lists label values`);
    t.is(v?.datasource?.uid, '${datasource}', `$${name} queries the selected data source`);
  }

  const panels = allPanels();
  const ids = panels.map((p) => p.id);
  t.true(ids.every((id) => Number.isInteger(id)), 'every panel has an id');
  t.is(new Set(ids).size, ids.length, 'panel ids are unique');
  const rows = panels.filter((p) => p.type === 'row').map((p) => p.title);
  for (const row of ['Evaluations', 'HTTP & gRPC', 'Write path', 'Evaluators', 'Audit', 'cache', 'Process']) {
    t.true(rows.some((title) => title?.includes(row)), `a row for ${row}`);
  }
  for (const p of panels) {
    const where = `panel ${p.id} "${p.title}"`;
    t.true(typeof p.title === 'string' && p.title.trim() !== '', `${where} has a title`);
    t.is(p.datasource?.uid, '${datasource}', `${where}: datasource`);
    const g = p.gridPos;
    t.true(g !== undefined && [g.h, g.w, g.x, g.y].every(Number.isInteger) && g.w > 0 && g.h > 0 && g.x >= 0 && g.x + g.w <= 24, `${where}: gridPos within 24 columns`);
    if (p.type === 'row') continue;
    t.true((p.description ?? '').length >= 40, `${where} tells the operator what it means`);
    const targets = p.targets ?? [];
    t.true(targets.length > 0, `${where} has queries`);
    t.is(new Set(targets.map((x) => x.refId)).size, targets.length, `${where}: refIds are unique`);
    for (const target of targets) {
      t.is(target.datasource?.uid, '${datasource}', `${where} ${target.refId}: datasource`);
      t.true((target.expr ?? '').trim() !== '', `${where} ${target.refId}: an expression`);
    }
  }
  // No two panels overlap.
  const cells = new Map<string, string>();
  for (const p of panels) {
    const g = p.gridPos as NonNullable<Panel['gridPos']>;
    for (let y = g.y; y < g.y + g.h; y++) {
      for (let x = g.x; x < g.x + g.w; x++) {
        const other = cells.get(`${x},${y}`);
        if (other !== undefined) t.fail(`panel "${p.title}" overlaps "${other}" at ${x},${y}`);
        cells.set(`${x},${y}`, p.title ?? '');
      }
    }
  }

  const defined = new Set(variables.map((v) => v.name));
  const builtins = new Set(['__rate_interval', '__range', '__interval']);
  for (const { where, expr } of expressions) {
    const use = parseExpr(expr);
    for (const v of use.variables) t.true(defined.has(v) || builtins.has(v), `${where}: $${v} is defined`);
    for (const w of use.windows) t.true(w === '$__rate_interval' || w === '$__range', `${where}: window [${w}] is $__rate_interval (or $__range for a total over the range)`);
    for (const part of expr.split('histogram_quantile(').slice(1)) {
      t.regex(part, /^\s*[\d.]+\s*,\s*sum by \(le\b/, `${where}: histogram_quantile over sum by (le, …)`);
    }
    if (where.startsWith('panel')) t.true(use.names.size > 0, `${where} reads a metric`);
  }
});

test('the provisioning files and the Prometheus scrape configuration', (t) => {
  const dashboards = parseYaml(read('provisioning/dashboards.yml'));
  t.is(dashboards.apiVersion, 1);
  const provider = dashboards.providers?.[0];
  t.is(provider?.type, 'file');
  t.truthy(provider?.options?.path, 'the directory Grafana reads ensign-dashboard.json from');

  const datasources = parseYaml(read('provisioning/datasource.yml'));
  t.is(datasources.apiVersion, 1);
  t.is(datasources.datasources?.[0]?.type, 'prometheus');

  const prometheus = parseYaml(read('prometheus.yml'));
  const jobs = (prometheus.scrape_configs as { job_name: string; metrics_path?: string }[]).map((c) => c.job_name);
  t.deepEqual(jobs, ['ensign-server', 'ensign-evaluator']);
  for (const config of prometheus.scrape_configs) t.is(config.metrics_path ?? '/metrics', '/metrics', config.job_name);
});

const nats = testBucket();
const processes: EnsignProcess[] = [];

test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await nats.drop();
});

test('every metric and label the dashboard reads is exposed by ensign server or ensign evaluator, and every Ensign metric they expose is on the dashboard', async (t) => {
  const auditLog = join(scratchDir('ensign-grafana-'), 'audit.log');
  const server = await startEnsign({
    command: 'server',
    env: { ...nats.env(), ENSIGN_AUDIT_SINKS_LOG_ENABLED: 'true', ENSIGN_AUDIT_SINKS_LOG_FILE: auditLog, ENSIGN_CACHE_ENABLED: 'true' },
  });
  processes.push(server);
  const evaluator = await startEnsign({ command: 'evaluator', env: nats.env() });
  processes.push(evaluator);

  // Traffic: writes (audited, published to NATS), cached reads, evaluations over HTTP on both, one over gRPC.
  const api = jsonClient(server.baseUrl);
  const shop = await seedShop(api, 'grafana');
  for (let i = 0; i < 2; i++) ok(await api.get(`/api/v1/namespaces/${shop.ns}/flags/color`), 'a cached read');
  const request = { namespaceKey: shop.ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } };
  const atEvaluator = jsonClient(evaluator.baseUrl);
  let evaluated = 0;
  for (let i = 0; i < 200 && evaluated !== 200; i++) {
    evaluated = (await atEvaluator.post('/evaluate/v1/variant', request)).status;
    if (evaluated !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.is(evaluated, 200, 'the evaluator caught up with the seeding');
  for (const client of [api, atEvaluator]) {
    ok(await client.post('/evaluate/v1/variant', request));
    ok(await client.post('/evaluate/v1/boolean', { namespaceKey: shop.ns, flagKey: 'new-ui', entityId: 'u1', context: { email: 'ann@corp.example' } }));
    t.is((await client.post('/evaluate/v1/variant', { ...request, flagKey: 'no-such-flag' })).status, 404);
  }
  const grpc = serviceClient(server.grpcAddress, 'flipt.evaluation.EvaluationService');
  t.teardown(() => grpc.close());
  const viaGrpc = await grpc.call('Variant', request);
  t.is(viaGrpc.code, status.OK, viaGrpc.details);

  const bodies = await Promise.all([server, evaluator].map((p) => fetch(`${p.baseUrl}/metrics`).then((r) => r.text())));
  const scrape = parseScrape(bodies);
  t.true(scrape.types.has('ensign_evaluator_ready') && scrape.types.has('ensign_write_duration_seconds'), 'both processes were scraped');

  // 1. Every metric a query names is exposed, and the labels it filters or groups by are on its series.
  const problems: string[] = [];
  const onDashboard = new Set<string>();
  const labelsOf = (name: string): Set<string> => scrape.labels.get(name) ?? new Set();
  for (const { where, expr } of expressions) {
    const use = parseExpr(expr);
    const exposed = [...use.names].filter((n) => !(n in PROMETHEUS_SERIES));
    for (const name of exposed) {
      const family = familyOf(name, scrape.types);
      if (family === undefined) problems.push(`${where}: ${name} is not exposed by ensign server or ensign evaluator (renamed?)`);
      // prom-client's defaults may have none yet (no GC so far); Ensign's must, for their labels to be checked.
      else if (!scrape.labels.has(name) && ENSIGN_FAMILY.test(name)) problems.push(`${where}: ${name} has no samples after the test's traffic`);
      if (family !== undefined) onDashboard.add(family);
    }
    for (const { name, labels } of use.selectors) {
      if (name === undefined || name in PROMETHEUS_SERIES || !scrape.labels.has(name)) continue;
      for (const label of labels) {
        if (!TARGET_LABELS.has(label) && !labelsOf(name).has(label)) problems.push(`${where}: ${name} has no label ${label}`);
      }
    }
    const sampled = exposed.filter((n) => scrape.labels.has(n));
    for (const label of use.grouping) {
      if (TARGET_LABELS.has(label) || sampled.length === 0) continue;
      if (!sampled.some((n) => labelsOf(n).has(label))) problems.push(`${where}: groups by ${label}, a label none of ${sampled.join(', ')} has`);
    }
  }
  t.deepEqual(problems, [], 'the dashboard reads metrics or labels the processes do not expose');

  // 2. Every Ensign metric family either process exposes has a panel (or a stated reason not to).
  const families = [...scrape.types.keys()].filter((f) => ENSIGN_FAMILY.test(f));
  t.true(families.length >= 25, `the server's and the evaluator's families: ${families.join(', ')}`);
  const forgotten = families.filter((f) => !onDashboard.has(f) && !(f in NOT_ON_DASHBOARD));
  t.deepEqual(forgotten, [], 'metric families exposed but on no panel: add a panel to deploy/grafana/ensign-dashboard.json');
  for (const name of Object.keys(NOT_ON_DASHBOARD)) {
    t.true(scrape.types.has(name), `${name} is listed in NOT_ON_DASHBOARD but no longer exposed`);
    t.false(onDashboard.has(name), `${name} is listed in NOT_ON_DASHBOARD but is on the dashboard`);
  }
});
