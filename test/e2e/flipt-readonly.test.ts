/**
 * Flipt's own readonly integration suite (build/testing/integration/readonly/readonly_test.go at
 * v1.61.1), with the snapshot and OFREP suites Flipt runs on the same test data, ported to HTTP.
 * The expected answers are Flipt's assertions. Every case runs against each way of loading the data
 * (`ensign import` into the database, `ensign import --address` into the running server, and
 * `storage.type: local` on the directory), each on one server started on first use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import { type JsonClient, type JsonResponse, runEnsign, scratchDir } from '@ensign/testkit';
import { assertInvalid, ok } from '../helpers/api.js';
import { withToken } from '../helpers/auth.js';
import { FLIPT_READONLY_FILES, fliptReadonlyDir, namespaceOfFile, type ReadonlyTree } from '../helpers/flipt-readonly-fixtures.js';
import { evaluationIn, listQuery, NAMESPACES, type Namespace, pages, rolloutsOf, routesOf } from '../helpers/flipt-readonly-requests.js';
import { LOADING_WAYS, type LoadingWay, READONLY_TOKEN, type ReadonlyServer, startReadonlyServer } from '../helpers/flipt-readonly-servers.js';

const test = anyTest as TestFn;

const started = new Map<string, Promise<ReadonlyServer>>();
/** The server of `way` holding `tree`, started on first use. */
function serverOf(way: LoadingWay, tree: ReadonlyTree = 'main'): Promise<ReadonlyServer> {
  const id = `${way}/${tree}`;
  if (!started.has(id)) started.set(id, startReadonlyServer(way, tree));
  return started.get(id)!;
}

test.after.always('every server stops cleanly and logged no errors', async (t) => {
  for (const [id, starting] of started) {
    const server = await starting.catch(() => undefined);
    if (server === undefined) continue;
    const code = await server.stop();
    const logs = server.server.logs();
    t.is(code, 0, `${id}: ${logs}`);
    t.false(/^\{"level":(50|60)/m.test(logs), `${id} logged errors: ${logs}`);
  }
});

const assertNotFoundStatus = (t: ExecutionContext, res: JsonResponse, what: string): void => {
  t.is(res.status, 404, `${what}: HTTP ${res.status} ${res.text}`);
  t.is(res.body?.code, 5, `${what}: ${res.text}`);
};

const badPageToken = 'pageToken is not valid: "Hello World"';

interface Flag {
  namespaceKey: string;
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  type: string;
  variants: Array<{ key: string }>;
}
interface Rule {
  id: string;
  namespaceKey: string;
  flagKey: string;
  segmentKey: string;
  rank: number;
  distributions: Array<{ id: string; rollout: number }>;
}

function assertFirstRule(t: ExecutionContext, rule: Rule, ns: Namespace): void {
  t.is(rule.namespaceKey, ns.expected);
  t.is(rule.flagKey, 'flag_001');
  t.is(rule.segmentKey, 'segment_001');
  t.truthy(rule.id);
  t.is(rule.rank, 1);
  t.is(rule.distributions.length, 2);
  for (const distribution of rule.distributions) {
    t.truthy(distribution.id);
    t.is(distribution.rollout, 50);
  }
}

for (const way of LOADING_WAYS) {
  test(`${way}: the default namespace is "Default"`, async (t) => {
    const { api } = await serverOf(way);
    const ns = ok(await api.get(`/api/v1/namespaces/default?reference=`));
    t.is(ns.key, 'default');
    t.is(ns.name, 'Default');
    t.truthy(ns.createdAt);
    t.truthy(ns.updatedAt);
  });

  test(`${way}: ListNamespaces refuses a bad page token and lists both namespaces`, async (t) => {
    const { api } = await serverOf(way);
    assertInvalid(t, await api.get(`/api/v1/namespaces?${listQuery(10, 'Hello World')}`), badPageToken);
    t.is(ok(await api.get(`/api/v1/namespaces?${listQuery()}`)).namespaces.length, 2);
  });

  for (const ns of NAMESPACES) {
    const title = `${way}: namespace "${ns.key}"`;

    test(`${title}: GetFlag`, async (t) => {
      const { api } = await serverOf(way);
      assertNotFoundStatus(t, await api.get(`${routesOf(ns)}/flags/flag_999?reference=`), 'flag_999');
      const flag = ok<Flag>(await api.get(`${routesOf(ns)}/flags/flag_013?reference=`));
      t.is(flag.namespaceKey, ns.expected);
      t.is(flag.key, 'flag_013');
      t.is(flag.name, 'FLAG_013');
      t.is(flag.description, 'Some Description');
      t.true(flag.enabled);
      t.deepEqual(flag.variants.map((v) => v.key), ['variant_001', 'variant_002']);
    });

    test(`${title}: ListFlags, whole and in pages of 10`, async (t) => {
      const { api } = await serverOf(way);
      const base = `${routesOf(ns)}/flags`;
      assertInvalid(t, await api.get(`${base}?${listQuery(10, 'Hello World')}`), badPageToken);
      const flags = ok<{ flags: Flag[] }>(await api.get(`${base}?${listQuery()}`)).flags;
      t.is(flags.length, 57);
      const first = flags[0]!;
      t.is(first.namespaceKey, ns.expected);
      t.is(first.key, 'flag_001');
      t.is(first.name, 'FLAG_001');
      t.is(first.description, 'Some Description');
      t.true(first.enabled);
      t.deepEqual(first.variants.map((v) => v.key), ['variant_001', 'variant_002']);

      const paged = await pages<{ flags: Flag[]; nextPageToken: string }>(api, (token) => `${base}?${listQuery(10, token)}`);
      t.deepEqual(paged.map((page) => page.flags.length), [10, 10, 10, 10, 10, 7]);
    });

    test(`${title}: GetSegment`, async (t) => {
      const { api } = await serverOf(way);
      assertNotFoundStatus(t, await api.get(`${routesOf(ns)}/segments/segment_999?reference=`), 'segment_999');
      const segment = ok(await api.get(`${routesOf(ns)}/segments/segment_013?reference=`));
      t.is(segment.namespaceKey, ns.expected);
      t.is(segment.key, 'segment_013');
      t.is(segment.name, 'SEGMENT_013');
      t.is(segment.description, 'Some Segment Description');
      t.is(segment.constraints.length, 2);
      for (const constraint of segment.constraints) {
        t.truthy(constraint.id);
        t.like(constraint, { type: 'STRING_COMPARISON_TYPE', property: 'in_segment', operator: 'eq', value: 'segment_013' });
      }
    });

    test(`${title}: ListSegments, whole and in pages of 10`, async (t) => {
      const { api } = await serverOf(way);
      const base = `${routesOf(ns)}/segments`;
      assertInvalid(t, await api.get(`${base}?${listQuery(10, 'Hello World')}`), badPageToken);
      t.is(ok(await api.get(`${base}?${listQuery()}`)).segments.length, 53);
      const paged = await pages<{ segments: unknown[]; nextPageToken: string }>(api, (token) => `${base}?${listQuery(10, token)}`);
      t.deepEqual(paged.map((page) => page.segments.length), [10, 10, 10, 10, 10, 3]);
    });

    test(`${title}: GetRule`, async (t) => {
      const { api } = await serverOf(way);
      const base = `${routesOf(ns)}/flags/flag_001/rules`;
      assertNotFoundStatus(t, await api.get(`${base}/notfound?reference=`), 'rule notfound');
      const [listed] = ok<{ rules: Rule[] }>(await api.get(`${base}?${listQuery(1)}`)).rules;
      assertFirstRule(t, ok<Rule>(await api.get(`${base}/${listed!.id}?reference=`)), ns);
    });

    test(`${title}: ListRules, whole and in pages of 10`, async (t) => {
      const { api } = await serverOf(way);
      const base = `${routesOf(ns)}/flags/flag_001/rules`;
      assertInvalid(t, await api.get(`${base}?${listQuery(10, 'Hello World')}`), badPageToken);
      const rules = ok<{ rules: Rule[] }>(await api.get(`${base}?${listQuery()}`)).rules;
      t.is(rules.length, 50, 'unexpected number of rules returned');
      assertFirstRule(t, rules[0]!, ns);

      const paged = await pages<{ rules: Rule[]; nextPageToken: string }>(api, (token) => `${base}?${listQuery(10, token)}`);
      // Every page is full: the fifth holds the last rule and has no next page.
      t.deepEqual(paged.map((page) => page.rules.length), [10, 10, 10, 10, 10]);
      t.deepEqual(paged.flatMap((page) => page.rules), rules);
    });

    test(`${title}: ListRollouts, whole and in pages of 2`, async (t) => {
      const { api } = await serverOf(way);
      const base = rolloutsOf(ns, 'flag_boolean');
      assertInvalid(t, await api.get(`${base}?${listQuery(0, 'Hello World', false)}`), badPageToken);
      const rollouts = ok(await api.get(`${base}?${listQuery(0, '', false)}`)).rules;
      t.is(rollouts.length, 5, 'unexpected number of rules returned');
      const first = rollouts[0];
      t.is(first.namespaceKey, ns.expected);
      t.is(first.flagKey, 'flag_boolean');
      t.is(first.segment?.segmentKey, 'segment_001');
      t.true(first.segment?.value);
      t.truthy(first.id);
      t.is(first.rank, 1);

      const paged = await pages<{ rules: unknown[]; nextPageToken: string }>(api, (token) => `${base}?${listQuery(2, token, false)}`);
      t.deepEqual(paged.map((page) => page.rules.length), [2, 2, 1]);
      t.deepEqual(paged.flatMap((page) => page.rules), rollouts);
    });

    test(`${title}: legacy Evaluate and BatchEvaluate`, async (t) => {
      const { api } = await serverOf(way);
      const base = routesOf(ns);
      const single = ok(await api.post(`${base}/evaluate`, evaluationIn(ns, { flagKey: 'flag_001', entityId: 'some-fixed-entity-id', context: { in_segment: 'segment_005' } })));
      t.like(single, { match: true, value: 'variant_002', reason: 'MATCH_EVALUATION_REASON' });

      const batch = ok(
        await api.post(
          `${base}/batch-evaluate`,
          evaluationIn(ns, {
            requests: [
              { flagKey: 'flag_001', entityId: 'some-fixed-entity-id', context: { in_segment: 'segment_005' } },
              { flagKey: 'flag_002', entityId: 'some-fixed-entity-id', context: { in_segment: 'segment_006' } },
            ],
          }),
        ),
      );
      t.is(batch.responses.length, 2);
      t.like(batch.responses[0], { match: true, value: 'variant_002', reason: 'MATCH_EVALUATION_REASON' });
      t.like(batch.responses[1], { match: true, value: 'variant_001', reason: 'MATCH_EVALUATION_REASON' });
    });

    test(`${title}: Variant evaluation`, async (t) => {
      const { api } = await serverOf(way);
      const variant = async (request: Record<string, unknown>) => ok(await api.post('/evaluate/v1/variant', evaluationIn(ns, request)));

      const match = await variant({ flagKey: 'flag_001', entityId: 'some-fixed-entity-id', context: { in_segment: 'segment_005' } });
      t.like(match, { match: true, flagKey: 'flag_001', variantKey: 'variant_002', reason: 'MATCH_EVALUATION_REASON' }, 'match');
      t.true(match.segmentKeys.includes('segment_005'), 'match');

      const anding = await variant({ flagKey: 'flag_variant_and_segments', entityId: 'some-fixed-entity-id', context: { in_segment: 'segment_001', anding: 'segment' } });
      t.like(anding, { match: true, variantKey: 'variant_002', flagKey: 'flag_variant_and_segments', reason: 'MATCH_EVALUATION_REASON' }, 'match segment ANDing');
      t.true(anding.segmentKeys.includes('segment_001') && anding.segmentKeys.includes('segment_anding'), 'match segment ANDing');

      const none = await variant({ flagKey: 'flag_001', entityId: 'some-fixed-entity-id', context: { in_segment: 'unknown' } });
      t.like(none, { match: false, variantKey: '', reason: 'UNKNOWN_EVALUATION_REASON' }, 'no match');

      const entity = await variant({ flagKey: 'flag_using_entity_id', entityId: 'user@flipt.io', context: {} });
      t.like(entity, { match: true, variantKey: 'variant_001', flagKey: 'flag_using_entity_id', reason: 'MATCH_EVALUATION_REASON' }, 'entity id matching');
      t.true(entity.segmentKeys.includes('segment_entity_id'), 'entity id matching');

      const disabled = await variant({ flagKey: 'flag_disabled', entityId: 'some-fixed-entity-id', context: {} });
      t.like(disabled, { match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: '' }, 'flag disabled');

      const noDistributions = await variant({ flagKey: 'flag_no_distributions', entityId: 'some-fixed-entity-id', context: { in_segment: 'segment_001' } });
      t.like(noDistributions, { match: true, flagKey: 'flag_no_distributions', reason: 'MATCH_EVALUATION_REASON' }, 'match no distributions');
      t.true(noDistributions.segmentKeys.includes('segment_001'), 'match no distributions');
    });

    test(`${title}: Variant evaluation of an unknown flag is NotFound`, async (t) => {
      const { api } = await serverOf(way);
      const res = await api.post('/evaluate/v1/variant', evaluationIn(ns, { flagKey: 'unknown_flag', entityId: 'some-fixed-entity-id', context: {} }));
      t.is(res.status, 404, res.text);
      t.like(res.body, { code: 5, message: `flag "${ns.expected}/unknown_flag" not found` });
    });

    test(`${title}: Boolean evaluation`, async (t) => {
      const { api } = await serverOf(way);
      const boolean = async (request: Record<string, unknown>) => ok(await api.post('/evaluate/v1/boolean', evaluationIn(ns, request)));
      t.like(await boolean({ flagKey: 'flag_boolean', entityId: 'hello', context: {} }), { reason: 'DEFAULT_EVALUATION_REASON', flagKey: 'flag_boolean', enabled: false }, 'default flag value');
      t.like(await boolean({ flagKey: 'flag_boolean', entityId: 'fixed', context: {} }), { reason: 'MATCH_EVALUATION_REASON', flagKey: 'flag_boolean', enabled: true }, 'percentage match');
      t.like(
        await boolean({ flagKey: 'flag_boolean', entityId: 'fixed', context: { in_segment: 'segment_001' } }),
        { reason: 'MATCH_EVALUATION_REASON', flagKey: 'flag_boolean', enabled: true },
        'segment match',
      );
      t.like(
        await boolean({ flagKey: 'flag_boolean_no_constraints' }),
        { reason: 'MATCH_EVALUATION_REASON', flagKey: 'flag_boolean_no_constraints', enabled: true },
        'segment with no constraints',
      );
      t.like(
        await boolean({ flagKey: 'flag_boolean_and_segments', context: { in_segment: 'segment_001', anding: 'segment' } }),
        { reason: 'MATCH_EVALUATION_REASON', flagKey: 'flag_boolean_and_segments', enabled: true },
        'segment with ANDing',
      );
    });

    test(`${title}: Batch evaluation with a not-found flag`, async (t) => {
      const { api } = await serverOf(way);
      const batch = ok(
        await api.post('/evaluate/v1/batch', {
          requests: [
            evaluationIn(ns, { flagKey: 'flag_boolean', entityId: 'fixed', context: {} }),
            evaluationIn(ns, { flagKey: 'foobarnotfound' }),
            evaluationIn(ns, { flagKey: 'flag_001', entityId: 'some-fixed-entity-id', context: { in_segment: 'segment_005' } }),
          ],
        }),
      );
      t.is(batch.responses.length, 3);
      const [boolean, error, variant] = batch.responses;
      t.is(boolean.type, 'BOOLEAN_EVALUATION_RESPONSE_TYPE');
      t.like(boolean.booleanResponse, { enabled: true, flagKey: 'flag_boolean', reason: 'MATCH_EVALUATION_REASON' });
      t.is(error.type, 'ERROR_EVALUATION_RESPONSE_TYPE');
      t.like(error.errorResponse, { flagKey: 'foobarnotfound', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
      t.is(variant.type, 'VARIANT_EVALUATION_RESPONSE_TYPE');
      t.like(variant.variantResponse, { match: true, reason: 'MATCH_EVALUATION_REASON', variantKey: 'variant_002', flagKey: 'flag_001' });
      t.true(variant.variantResponse.segmentKeys.includes('segment_005'));
    });

    // Flipt runs these against a git branch through `reference`; Ensign has no references, so the
    // alternate tree is loaded into a server of its own and read without one.
    test(`${title}: the alternate tree (Flipt's "Custom Reference")`, async (t) => {
      const { api } = await serverOf(way, 'alternate');
      const list = ok(await api.get(`${routesOf(ns)}/flags?${listQuery()}`));
      t.is(list.totalCount, 2);
      t.is(list.flags.length, 2);
      t.like(ok(await api.get(`${routesOf(ns)}/flags/flag_variant?reference=`)), {
        namespaceKey: ns.expected,
        key: 'flag_variant',
        type: 'VARIANT_FLAG_TYPE',
        name: 'Alternate Flag Type Variant',
        description: 'Variant Flag Description',
        enabled: false,
      });
      t.like(ok(await api.get(`${routesOf(ns)}/flags/flag_boolean?reference=`)), {
        namespaceKey: ns.expected,
        key: 'flag_boolean',
        type: 'BOOLEAN_FLAG_TYPE',
        name: 'Alternate Flag Type Boolean',
        description: 'Boolean Flag Description',
        enabled: true,
      });
    });

    // snapshot_test.go (Flipt runs it on this data served by `storage.type: local`).
    test(`${title}: the client-side snapshot has an ETag and answers 304 to it`, async (t) => {
      const server = await serverOf(way);
      const path = `/internal/v1/evaluation/snapshot/namespace/${ns.expected}`;
      const clients: Array<[string, JsonClient]> = [['bootstrap token', server.api]];
      const scoped = ok(await server.api.post('/auth/v1/method/token', { name: `snapshot-${ns.expected}`, description: 'namespace scoped', namespaceKey: ns.expected }));
      clients.push(['namespace-scoped token', withToken(server.server.baseUrl, scoped.clientToken)]);
      for (const [who, client] of clients) {
        const first = await client.get(path);
        t.is(first.status, 200, `${who}: ${first.text}`);
        const etag = first.headers.get('etag');
        t.truthy(etag, who);
        t.not(first.text, '', who);
        const again = await client.get(path, { 'If-None-Match': etag ?? '' });
        t.is(again.status, 304, who);
      }
    });

    // ofrep_test.go (also run by Flipt on this data served by `storage.type: local`).
    test(`${title}: OFREP single evaluations`, async (t) => {
      const { api } = await serverOf(way);
      const headers = { 'X-Flipt-Namespace': ns.key };
      const single = (flag: string, context: Record<string, string>) => api.post(`/ofrep/v1/evaluate/flags/${flag}`, { context }, headers);

      const boolean = await single('flag_boolean', { in_segment: 'segment_001' });
      t.is(boolean.status, 200, boolean.text);
      t.like(boolean.body, { value: true, reason: 'TARGETING_MATCH' });
      t.is(boolean.body.errorCode, undefined);
      // The provider turns any 404 into FLAG_NOT_FOUND "flag for key 'idontexist' does not exist".
      t.is((await single('idontexist', { in_segment: 'segment_001' })).status, 404);

      const string = await single('flag_001', { in_segment: 'segment_005', targetingKey: 'some-fixed-entity-id' });
      t.is(string.status, 200, string.text);
      t.like(string.body, { value: 'variant_002', variant: 'variant_002', reason: 'TARGETING_MATCH' });
      t.is(string.body.errorCode, undefined);
      t.is((await single('idontexist', { in_segment: 'segment_005', targetingKey: 'some-fixed-entity-id' })).status, 404);
    });

    test(`${title}: OFREP bulk evaluation`, async (t) => {
      const { api } = await serverOf(way);
      const bulk = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'some-fixed-entity-id', in_segment: 'segment_005' } }, { 'X-Flipt-Namespace': ns.key });
      t.is(bulk.status, 200, bulk.text);
      const byKey = new Map<string, Record<string, unknown>>(bulk.body.flags.map((flag: { key: string }) => [flag.key, flag]));
      t.like(byKey.get('flag_boolean'), { value: true, reason: 'TARGETING_MATCH' });
      t.is(byKey.get('flag_boolean')?.errorCode, undefined);
      t.like(byKey.get('flag_001'), { value: 'variant_002', variant: 'variant_002', reason: 'TARGETING_MATCH' });
      t.is(byKey.get('flag_001')?.errorCode, undefined);
      // The provider answers FLAG_NOT_FOUND for a key the bulk answer does not hold.
      t.false(byKey.has('idontexist'));
    });
  }

  // Flipt's "import/export" case: after the import, `flipt export` of each namespace gives back the
  // file it was imported from, byte for byte, below the export's header line. The export reads
  // where the import wrote: the database, or the server.
  if (way !== 'declarative') {
    test(`${way}: export gives back each file imported`, async (t) => {
      const { server, env } = await serverOf(way);
      const remote = way === 'import --address' ? ['--address', server.baseUrl, '--token', READONLY_TOKEN] : [];
      const out = join(scratchDir('flipt-export-'), 'output.yaml');
      for (const file of FLIPT_READONLY_FILES) {
        const ns = namespaceOfFile(file);
        const only = ns === 'default' ? [] : ['--namespaces', ns];
        const exported = await runEnsign(['export', '-o', out, ...remote, ...only], { env });
        t.is(exported.code, 0, exported.stderr);
        const generated = readFileSync(out, 'utf8');
        t.regex(generated, /^# exported by .*\n\n/);
        t.is(generated.slice(generated.indexOf('\n') + 2), readFileSync(join(fliptReadonlyDir('main'), file), 'utf8'), file);
      }
    });
  }

  test(`${way}: Auth: the token's own authentication and the public list of methods`, async (t) => {
    const { api } = await serverOf(way);
    const self = await api.get('/auth/v1/self');
    t.is(self.status, 200, self.text);
    const methods = await api.get('/auth/v1/method');
    t.is(methods.status, 200, methods.text);
  });
}
