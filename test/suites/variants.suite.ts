/** Variants: embedded in their flag, attachments compacted, cascades, validation. */
import { assertInvalid, assertNotFound, createNamespace, naming, namespaceState, ok, TIMESTAMP, uniqueKey, UUID } from '../helpers/api.js';
import type { ApiTest } from '../helpers/harness.js';

export function variantsSuite(test: ApiTest): void {
  test('variants: create with a compacted attachment, embedded in the flag in creation order', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'variants');
    const flag = `/api/v1/namespaces/${ns}/flags/color`;
    ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'color', name: 'Color' }));

    const blue = await api.post(`${flag}/variants`, {
      key: 'blue',
      name: 'Blue',
      description: 'cool',
      attachment: '{ "hex" : "#00f",\n  "rgb": [0, 0, 255] }',
    });
    t.is(blue.status, 200, blue.text);
    t.deepEqual(Object.keys(blue.body).sort(), ['attachment', 'createdAt', 'description', 'flagKey', 'id', 'key', 'name', 'namespaceKey', 'updatedAt']);
    t.like(blue.body, { key: 'blue', name: 'Blue', description: 'cool', flagKey: 'color', namespaceKey: ns, attachment: '{"hex":"#00f","rgb":[0,0,255]}' });
    t.regex(blue.body.id, UUID);
    t.regex(blue.body.createdAt, TIMESTAMP);

    const red = ok(await api.post(`${flag}/variants`, { key: 'red' }));
    t.like(red, { key: 'red', name: '', description: '', attachment: '' });
    const green = ok(await api.post(`${flag}/variants`, { key: 'green', attachment: '"just a string"' }));
    t.is(green.attachment, '"just a string"');

    const got = ok(await api.get(flag));
    t.deepEqual(got.variants.map((v: { key: string }) => v.key), ['blue', 'red', 'green']);
    t.deepEqual(got.variants[0], blue.body);
  });

  test('variants: update replaces key, name, description and attachment', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'putvariant');
    const flag = `/api/v1/namespaces/${ns}/flags/f`;
    ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'f', name: 'F' }));
    const v = ok(await api.post(`${flag}/variants`, { key: 'a', name: 'A', description: 'first', attachment: '{"n": 1}' }));

    const updated = ok(await api.put(`${flag}/variants/${v.id}`, { key: 'b', attachment: '[ 1, 2 ]' }));
    t.like(updated, { id: v.id, key: 'b', name: '', description: '', attachment: '[1,2]', flagKey: 'f', namespaceKey: ns, createdAt: v.createdAt });
    t.like(ok(await api.get(flag)).variants[0], { id: v.id, key: 'b', attachment: '[1,2]' });
  });

  test('variants: deleting one removes its distributions and unsets it as default', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'delvariant');
    const base = `/api/v1/namespaces/${ns}`;
    ok(await api.post(`${base}/flags`, { key: 'f', name: 'F' }));
    ok(await api.post(`${base}/segments`, { key: 'all', name: 'All' }));
    const a = ok(await api.post(`${base}/flags/f/variants`, { key: 'a' }));
    const b = ok(await api.post(`${base}/flags/f/variants`, { key: 'b' }));
    ok(await api.put(`${base}/flags/f`, { name: 'F', defaultVariantId: a.id }));
    const rule = ok(await api.post(`${base}/flags/f/rules`, { segmentKey: 'all', rank: 1 }));
    ok(await api.post(`${base}/flags/f/rules/${rule.id}/distributions`, { variantId: a.id, rollout: 40 }));
    ok(await api.post(`${base}/flags/f/rules/${rule.id}/distributions`, { variantId: b.id, rollout: 60 }));

    t.deepEqual(ok(await api.del(`${base}/flags/f/variants/${a.id}`)), {});
    const flag = ok(await api.get(`${base}/flags/f`));
    t.deepEqual(flag.variants.map((v: { key: string }) => v.key), ['b']);
    t.false('defaultVariant' in flag);
    const after = ok(await api.get(`${base}/flags/f/rules/${rule.id}`));
    t.deepEqual(after.distributions.map((d: { variantId: string }) => d.variantId), [b.id]);

    t.deepEqual(ok(await api.del(`${base}/flags/f/variants/${a.id}`)), {}, 'deleting again is a silent success');
  });

  test('variants: bad requests are refused by field and change nothing', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'badvariants');
    const flag = `/api/v1/namespaces/${ns}/flags/color`;
    ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'color', name: 'Color' }));
    const blue = ok(await api.post(`${flag}/variants`, { key: 'blue' }));
    ok(await api.post(`${flag}/variants`, { key: 'red' }));
    const before = await namespaceState(api, ns);

    assertInvalid(t, await api.post(`${flag}/variants`, { name: 'no key' }), 'invalid field key: must not be empty');
    assertInvalid(t, await api.post(`${flag}/variants`, { key: 'x', attachment: '{not json' }), 'invalid field attachment: must be a json string');
    assertInvalid(t, await api.post(`${flag}/variants`, { key: 'x', attachment: { hex: '#00f' } }), naming('attachment'), 'object attachment');
    assertInvalid(
      t,
      await api.post(`${flag}/variants`, { key: 'x', attachment: JSON.stringify('a'.repeat(1_024_001)) }),
      'invalid field attachment: must be less than 1000 KB',
    );
    assertInvalid(t, await api.post(`${flag}/variants`, { key: 'blue' }), `variant "blue" is not unique for flag "${ns}/color"`);
    assertInvalid(t, await api.put(`${flag}/variants/${blue.id}`, { key: 'red' }), `variant "red" is not unique for flag "${ns}/color"`);
    assertInvalid(t, await api.put(`${flag}/variants/${blue.id}`, { name: 'no key' }), 'invalid field key: must not be empty');
    assertInvalid(t, await api.post(`${flag}/variants`, { key: 7 }), naming('key'), 'number for a string');
    assertNotFound(t, await api.post(`/api/v1/namespaces/${ns}/flags/nope/variants`, { key: 'x' }), `flag "${ns}/nope" not found`);
    assertNotFound(t, await api.put(`${flag}/variants/00000000-0000-4000-8000-000000000000`, { key: 'x' }), /^variant ".*" not found$/);

    t.deepEqual(await namespaceState(api, ns), before);
  });

  test('variants: legacy routes work on the default namespace', async (t) => {
    const { api } = t.context;
    const key = uniqueKey('legacyvar');
    ok(await api.post('/api/v1/flags', { key, name: 'L' }));
    const v = ok(await api.post(`/api/v1/flags/${key}/variants`, { key: 'on', attachment: '{ "a" : 1 }' }));
    t.like(v, { namespaceKey: 'default', flagKey: key, attachment: '{"a":1}' });
    t.like(ok(await api.put(`/api/v1/flags/${key}/variants/${v.id}`, { key: 'off' })), { key: 'off' });
    t.deepEqual(ok(await api.del(`/api/v1/flags/${key}/variants/${v.id}`)), {});
    t.deepEqual(ok(await api.get(`/api/v1/namespaces/default/flags/${key}`)).variants, []);
    ok(await api.del(`/api/v1/flags/${key}`));
  });
}
