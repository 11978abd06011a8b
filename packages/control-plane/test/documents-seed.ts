/** A namespace with a bit of everything a Flipt document holds, made through the management API, and its export. */
import type { Harness } from './harness.js';

type Call = Harness['call'];

/** Fails loudly when a seeding call is refused, so a test never runs on a half-made namespace. */
async function ok(call: Call, method: string, path: string, json: unknown): Promise<any> {
  const res = await call(method, path, { json });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json;
}

/**
 * `key` with segments `beta` and `staff`, a variant flag `checkout` (two variants, a default, two
 * rules) and, created after it, a boolean flag `banner` with a segment and a threshold rollout.
 */
export async function seedShop(call: Call, key: string): Promise<void> {
  const ns = `/api/v1/namespaces/${key}`;
  await ok(call, 'POST', '/api/v1/namespaces', { key, name: 'Shop', description: 'Online shop' });
  await ok(call, 'POST', `${ns}/segments`, { key: 'beta', name: 'Beta', matchType: 'ALL_MATCH_TYPE' });
  await ok(call, 'POST', `${ns}/segments/beta/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' });
  await ok(call, 'POST', `${ns}/segments`, { key: 'staff', name: 'Staff', description: 'Employees', matchType: 'ANY_MATCH_TYPE' });
  await ok(call, 'POST', `${ns}/segments/staff/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'email', operator: 'suffix', value: '@example.com' });

  await ok(call, 'POST', `${ns}/flags`, { key: 'checkout', name: 'Checkout', description: 'Button colour', enabled: true, metadata: { team: 'web' } });
  const blue = await ok(call, 'POST', `${ns}/flags/checkout/variants`, { key: 'blue', name: 'Blue', attachment: '{"hex":"#00f"}' });
  const green = await ok(call, 'POST', `${ns}/flags/checkout/variants`, { key: 'green', name: 'Green' });
  await ok(call, 'PUT', `${ns}/flags/checkout`, { name: 'Checkout', description: 'Button colour', enabled: true, metadata: { team: 'web' }, defaultVariantId: blue.id });
  const first = await ok(call, 'POST', `${ns}/flags/checkout/rules`, { segmentKey: 'beta', rank: 1 });
  await ok(call, 'POST', `${ns}/flags/checkout/rules/${first.id}/distributions`, { variantId: blue.id, rollout: 50 });
  await ok(call, 'POST', `${ns}/flags/checkout/rules/${first.id}/distributions`, { variantId: green.id, rollout: 50 });
  const second = await ok(call, 'POST', `${ns}/flags/checkout/rules`, { segmentKeys: ['beta', 'staff'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2 });
  await ok(call, 'POST', `${ns}/flags/checkout/rules/${second.id}/distributions`, { variantId: green.id, rollout: 100 });

  await ok(call, 'POST', `${ns}/flags`, { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE', enabled: false });
  await ok(call, 'POST', `${ns}/flags/banner/rollouts`, { rank: 1, description: 'staff first', segment: { segmentKey: 'staff', value: true } });
  await ok(call, 'POST', `${ns}/flags/banner/rollouts`, { rank: 2, threshold: { percentage: 30, value: true } });
}

/** What `seedShop` exports as, in Flipt 1.4's format (creation order). */
export const shopDocument = (key: string) => ({
  version: '1.4',
  namespace: { key, name: 'Shop', description: 'Online shop' },
  flags: [
    {
      key: 'checkout',
      name: 'Checkout',
      type: 'VARIANT_FLAG_TYPE',
      description: 'Button colour',
      enabled: true,
      metadata: { team: 'web' },
      variants: [
        { default: true, key: 'blue', name: 'Blue', attachment: { hex: '#00f' } },
        { key: 'green', name: 'Green' },
      ],
      rules: [
        { segment: 'beta', distributions: [{ variant: 'blue', rollout: 50 }, { variant: 'green', rollout: 50 }] },
        { segment: { keys: ['beta', 'staff'], operator: 'AND_SEGMENT_OPERATOR' }, distributions: [{ variant: 'green', rollout: 100 }] },
      ],
    },
    {
      key: 'banner',
      name: 'Banner',
      type: 'BOOLEAN_FLAG_TYPE',
      enabled: false,
      rollouts: [
        { description: 'staff first', segment: { key: 'staff', value: true } },
        { threshold: { percentage: 30, value: true } },
      ],
    },
  ],
  segments: [
    { key: 'beta', name: 'Beta', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' }], match_type: 'ALL_MATCH_TYPE' },
    {
      key: 'staff',
      name: 'Staff',
      description: 'Employees',
      constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'email', operator: 'suffix', value: '@example.com' }],
      match_type: 'ANY_MATCH_TYPE',
    },
  ],
});
