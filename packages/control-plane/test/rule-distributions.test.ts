/**
 * Ensign's extensions of Flipt's management calls that let one request name what has no id yet:
 * a rule created with its distributions by variant key, and a flag's default variant by key.
 */
import test from 'ava';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
const ns = '/api/v1/namespaces/shop';
const variantIds: Record<string, string> = {};

async function ok(method: string, path: string, json?: unknown): Promise<any> {
  const res = await h.call(method, path, json === undefined ? {} : { json });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json;
}

test.before(async () => {
  h = await startHarness({ changeRequests: true, snapshots: true });
  await ok('POST', '/api/v1/namespaces', { key: 'shop', name: 'Shop' });
  await ok('POST', `${ns}/segments`, { key: 'everyone', name: 'Everyone', matchType: 'ANY_MATCH_TYPE' });
  await ok('POST', `${ns}/flags`, { key: 'color', name: 'Color', type: 'VARIANT_FLAG_TYPE', enabled: true });
  for (const key of ['red', 'green', 'blue']) variantIds[key] = (await ok('POST', `${ns}/flags/color/variants`, { key, name: key })).id;
  await ok('POST', `${ns}/flags`, { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE' });
});
test.after.always(() => h?.close());

const rules = (flag: string) => `${ns}/flags/${flag}/rules`;

test.serial('a rule is created with its distributions in one write, answered in Flipt’s shape, in the order sent', async (t) => {
  const before = h.source.peek('shop')!.revision;
  const res = await h.call('POST', rules('color'), {
    json: { segmentKey: 'everyone', rank: 1, distributions: [{ variantKey: 'green', rollout: 60 }, { variantKey: 'red', rollout: 30 }, { variantKey: 'blue', rollout: 10 }] },
  });
  t.is(res.status, 200, res.text);
  t.like(res.json, { flagKey: 'color', segmentKey: 'everyone', rank: 1 });
  t.deepEqual(
    res.json.distributions.map((d: { ruleId: string; variantId: string; rollout: number }) => [d.ruleId, d.variantId, d.rollout]),
    [[res.json.id, variantIds.green, 60], [res.json.id, variantIds.red, 30], [res.json.id, variantIds.blue, 10]],
  );
  t.false('variantKey' in res.json.distributions[0], 'the answer is Flipt’s distribution');
  t.deepEqual((await ok('GET', `${rules('color')}/${res.json.id}`)).distributions, res.json.distributions, 'read back in the order sent (it sets the buckets)');

  const held = h.source.peek('shop')!;
  t.is(held.revision, before + 1, 'one revision');
  const flag = held.snapshot.document.flags.find((f) => f.key === 'color')!;
  t.deepEqual(flag.rules[0]!.distributions.map((d) => [d.variantKey, d.rollout]), [['green', 60], ['red', 30], ['blue', 10]], 'evaluators hold the split at once');
  const history = (await ok('GET', `${ns}/audit/events?type=rule`)).events;
  t.is(history.filter((e: { revision: number }) => e.revision === before + 1).length, 1, 'one change record');
  t.is(history[0].after.distributions.length, 3, 'whose after carries the distributions');
  await ok('DELETE', `${rules('color')}/${res.json.id}`);
});

test.serial('without distributions the create is Flipt’s: a rule with none', async (t) => {
  const res = await h.call('POST', rules('color'), { json: { segmentKey: 'everyone', rank: 1 } });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.json.distributions, []);
  const empty = await h.call('POST', rules('color'), { json: { segmentKey: 'everyone', rank: 2, distributions: [] } });
  t.deepEqual(empty.json.distributions, []);
  await ok('DELETE', `${rules('color')}/${res.json.id}`);
  await ok('DELETE', `${rules('color')}/${empty.json.id}`);
});

test.serial('bad distributions are refused naming the field, and nothing is written', async (t) => {
  const refused = async (distributions: unknown) => {
    const before = h.source.peek('shop')!.revision;
    const res = await h.call('POST', rules('color'), { json: { segmentKey: 'everyone', rank: 1, distributions } });
    t.is(res.status, 400, res.text);
    t.is(h.source.peek('shop')!.revision, before, 'nothing written');
    return res.json;
  };
  t.deepEqual(
    await refused([{ variantKey: 'red', rollout: 50 }, { variantKey: 'purple', rollout: 50 }]),
    invalidBody('invalid field distributions[1].variantKey: flag "shop/color" has no variant "purple"'),
  );
  t.deepEqual(await refused([{ variantKey: 'red', rollout: 101 }]), invalidBody("invalid field distributions[0].rollout: must be less than or equal to '100'"));
  t.deepEqual(await refused([{ variantKey: 'red', rollout: -1 }]), invalidBody("invalid field distributions[0].rollout: must be greater than or equal to '0'"));
  t.deepEqual(
    await refused([{ variantKey: 'red', rollout: 60 }, { variantKey: 'green', rollout: 50 }]),
    invalidBody('invalid field distributions: rollouts must add up to at most 100, not 110'),
  );
  t.deepEqual(await refused([{ rollout: 10 }]), invalidBody('invalid field distributions[0].variantKey: must not be empty'));
  t.deepEqual(await refused([{ variantKey: 'red', rollout: '10' }]), invalidBody('invalid field distributions[0].rollout: must be a number'));
  t.deepEqual(await refused({ variantKey: 'red', rollout: 10 }), invalidBody('invalid field distributions: must be an array of {variantKey, rollout}'));
  t.deepEqual(await refused(['red']), invalidBody('invalid field distributions[0]: must be an object {variantKey, rollout}'));
  t.is((await ok('GET', rules('color'))).rules.length, 0);
  const boolean = await h.call('POST', rules('banner'), { json: { segmentKey: 'everyone', rank: 1, distributions: [{ variantKey: 'on', rollout: 100 }] } });
  t.deepEqual(boolean.json, invalidBody('flag "shop/banner" is not a variant flag'));
  t.is((await ok('GET', rules('banner'))).rules.length, 0);
  t.is((await h.call('POST', rules('ghost'), { json: { segmentKey: 'everyone', rank: 1, distributions: [{ variantKey: 'red', rollout: 1 }] } })).status, 404);
});

test.serial('rollouts adding up to 100 within floating point are taken', async (t) => {
  const res = await h.call('POST', rules('color'), {
    json: { segmentKey: 'everyone', rank: 1, distributions: [{ variantKey: 'red', rollout: 33.3 }, { variantKey: 'green', rollout: 33.3 }, { variantKey: 'blue', rollout: 33.4 }] },
  });
  t.is(res.status, 200, res.text);
  await ok('DELETE', `${rules('color')}/${res.json.id}`);
});

test.serial('a change request makes a flag, its variants, a rule split over them and its default in one revision, by keys', async (t) => {
  const path = '/api/v1/namespaces/shop/change-requests';
  const changes = [
    { method: 'POST', path: `${ns}/flags`, body: { key: 'layout', name: 'Layout', type: 'VARIANT_FLAG_TYPE', enabled: true } },
    { method: 'POST', path: `${ns}/flags/layout/variants`, body: { key: 'wide', name: 'Wide' } },
    { method: 'POST', path: `${ns}/flags/layout/variants`, body: { key: 'narrow', name: 'Narrow' } },
    { method: 'POST', path: rules('layout'), body: { segmentKey: 'everyone', rank: 1, distributions: [{ variantKey: 'wide', rollout: 25 }, { variantKey: 'narrow', rollout: 75 }] } },
    { method: 'PUT', path: `${ns}/flags/layout`, body: { name: 'Layout', enabled: true, defaultVariantKey: 'narrow' } },
  ];
  const made = await h.call('POST', path, { json: { title: 'layout', changes } });
  t.is(made.status, 200, made.text);
  t.deepEqual(made.json.diff.map((r: { resource: string; action: string }) => `${r.resource} ${r.action}`), ['flag created', 'variant created', 'variant created', 'rule created', 'flag updated']);
  t.deepEqual(made.json.diff[3].after.distributions.map((d: { rollout: number }) => d.rollout), [25, 75]);
  t.is(made.json.diff[4].after.defaultVariant.key, 'narrow');
  await ok('POST', `${path}/${made.json.id}/submit`, {});
  await ok('POST', `${path}/${made.json.id}/approvals`, {});
  const revision = h.source.peek('shop')!.revision;
  t.is((await ok('POST', `${path}/${made.json.id}/apply`, {})).state, 'applied');
  t.is(h.source.peek('shop')!.revision, revision + 1);
  const exported = (await ok('GET', `${ns}/export?format=json`)).flags.find((f: { key: string }) => f.key === 'layout');
  t.deepEqual(exported.rules, [{ segment: 'everyone', distributions: [{ variant: 'wide', rollout: 25 }, { variant: 'narrow', rollout: 75 }] }]);
  t.deepEqual(exported.variants.filter((v: { default?: boolean }) => v.default).map((v: { key: string }) => v.key), ['narrow']);

  const unknown = await h.call('POST', path, { json: { title: 'x', changes: [{ method: 'POST', path: rules('layout'), body: { segmentKey: 'everyone', rank: 2, distributions: [{ variantKey: 'tall', rollout: 5 }] } }] } });
  t.is(unknown.status, 400);
  t.is(unknown.json.message, `changes[0] (POST ${rules('layout')}): invalid field distributions[0].variantKey: flag "shop/layout" has no variant "tall"`);
});

test.serial('a flag’s default variant by key: set, refused when unknown or sent with an id, cleared', async (t) => {
  const flag = `${ns}/flags/color`;
  const set = await h.call('PUT', flag, { json: { name: 'Color', enabled: true, defaultVariantKey: 'blue' } });
  t.is(set.status, 200, set.text);
  t.like(set.json.defaultVariant, { id: variantIds.blue, key: 'blue' });
  const unknown = await h.call('PUT', flag, { json: { name: 'Color', enabled: true, defaultVariantKey: 'purple' } });
  t.deepEqual(unknown.json, invalidBody('invalid field defaultVariantKey: flag "shop/color" has no variant "purple"'));
  const both = await h.call('PUT', flag, { json: { name: 'Color', enabled: true, defaultVariantKey: 'red', defaultVariantId: variantIds.red } });
  t.deepEqual(both.json, invalidBody('invalid field defaultVariantKey: cannot be sent with defaultVariantId: name the default variant once'));
  t.is((await ok('GET', flag)).defaultVariant.key, 'blue', 'refusals changed nothing');
  const cleared = await ok('PUT', flag, { name: 'Color', enabled: true });
  t.false('defaultVariant' in cleared);
});
