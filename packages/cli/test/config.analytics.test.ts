/** The `analytics` section: defaults, what each key refuses, and what is counted with metrics on or off. */
import test from 'ava';
import { Registry } from 'prom-client';
import { loadConfig } from '../src/config/config.loader.js';
import { countingOf } from '../src/counting.js';
import { errorOf, fromYaml } from './helpers/config-load.js';


test('analytics is on by default: a 10s flush, minutes kept a week, hours 90 days, inactive after 30 days', (t) => {
  const { config } = loadConfig({ env: {} });
  t.deepEqual(config.analytics, { enabled: true, buffer: { flush_period: 10_000 }, retention: 604_800_000, usage_retention: 7_776_000_000, stale_after: 2_592_000_000 });
});

test('Flipt’s flush period key is read from a file, and Ensign accepts it down to 1s', (t) => {
  const { config, warnings } = fromYaml('analytics:\n  buffer:\n    flush_period: 1s\n  retention: 24h\n');
  t.deepEqual(warnings, []);
  t.is(config.analytics.buffer.flush_period, 1000);
  t.is(config.analytics.retention, 86_400_000);
  t.is(loadConfig({ env: { ENSIGN_ANALYTICS_ENABLED: 'false' } }).config.analytics.enabled, false);
});

test('each bad analytics setting is refused with its key named', (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ ENSIGN_ANALYTICS_BUFFER_FLUSH_PERIOD: '500ms' }, 'analytics.buffer.flush_period: must be at least 1s (got "500ms")'],
    [{ ENSIGN_ANALYTICS_ENABLED: 'maybe' }, 'analytics.enabled: must be true or false (got "maybe")'],
    [{ ENSIGN_ANALYTICS_RETENTION: '30s' }, 'analytics.retention: must be at least 1m (got "30s")'],
    [{ ENSIGN_ANALYTICS_USAGE_RETENTION: '30m' }, 'analytics.usage_retention: must be at least 1h (got "30m")'],
    [{ ENSIGN_ANALYTICS_STALE_AFTER: '1s' }, 'analytics.stale_after: must be at least 1m (got "1s")'],
    [{ ENSIGN_ANALYTICS_USAGE_RETENTION: '24h', ENSIGN_ANALYTICS_STALE_AFTER: '48h' }, 'analytics.usage_retention: must be at least analytics.stale_after'],
  ];
  for (const [env, message] of cases) t.is(errorOf(() => loadConfig({ env })), message, JSON.stringify(env));
});

const lines = async (registry: Registry): Promise<string> => registry.metrics();

test('with metrics on, evaluations and requests are counted and shown on /metrics', async (t) => {
  const registry = new Registry();
  const counting = countingOf(loadConfig({ env: {} }).config, registry);
  t.truthy(counting.recorder);
  t.truthy(counting.requests);
  counting.recorder?.boolean('ns', 'f', { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] }, 1);
  t.regex(await lines(registry), /flipt_evaluations_requests_total\{namespace="ns",flag="f"\} 1/);
});

test('with metrics off and analytics on, evaluations are counted for shipping but no metric line is registered', async (t) => {
  const registry = new Registry();
  const counting = countingOf(loadConfig({ env: { ENSIGN_METRICS_ENABLED: 'false' } }).config, registry);
  t.truthy(counting.recorder, 'the shipper has a tally to read');
  t.is(counting.requests, undefined, 'requests are counted for /metrics only');
  counting.recorder?.boolean('ns', 'f', { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] }, 1);
  t.is((await lines(registry)).trim(), '');
});

test('with metrics and analytics off, nothing is counted', (t) => {
  t.deepEqual(countingOf(loadConfig({ env: { ENSIGN_METRICS_ENABLED: 'false', ENSIGN_ANALYTICS_ENABLED: 'false' } }).config, new Registry()), {});
});
