/**
 * The files written into a real database (SQLite, PostgreSQL, MariaDB): namespaces created and
 * filled, only changed namespaces rewritten, a renamed namespace updated, a namespace no file
 * declares any more deleted and `default` emptied, and an invalid set writing nothing at all.
 */
import { evaluateVariant } from '@ensign/engine';
import { openStore, type SqlStore } from '@ensign/store';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@ensign/testkit';
import test from 'ava';
import { DeclarativeError, DocumentApplier } from '../../src/declarative/index.js';
import { buildVersion } from '../../src/index.js';

const file = (path: string, text: string) => ({ path, content: Buffer.from(text) });

const SHOP = (variant: string, name = 'Shop') => `namespace: {key: shop, name: ${name}}
flags:
  - key: color
    name: Color
    type: VARIANT_FLAG_TYPE
    enabled: true
    variants: [{key: blue, name: Blue}, {key: green, name: Green}]
    rules:
      - segment: pro
        distributions: [{variant: ${variant}, rollout: 100}]
segments:
  - {key: pro, name: Pro, match_type: ALL_MATCH_TYPE, constraints: [{type: STRING_COMPARISON_TYPE, property: plan, operator: eq, value: pro}]}
`;
/** A rule served from 2030 on, to those who see the banner (Ensign's extension of the document). */
const TIMED = (banner: boolean) => `namespace: timed
flags:
  - {key: banner, name: Banner, type: BOOLEAN_FLAG_TYPE, enabled: ${banner}}
  - key: checkout
    name: Checkout
    type: VARIANT_FLAG_TYPE
    enabled: true
    variants: [{key: new, name: New}, {key: old, name: Old, default: true}]
    rules:
      - segment: everyone
        distributions: [{variant: new, rollout: 100}]
        valid_from: 2030-01-01T00:00:00Z
    prerequisites: [{flag: banner, enabled: true}]
segments:
  - {key: everyone, name: Everyone, match_type: ALL_MATCH_TYPE}
`;
const BILLING = 'namespace: billing\nflags:\n  - {key: invoices, name: Invoices, type: BOOLEAN_FLAG_TYPE, enabled: true}\n';
const DEFAULT = 'flags:\n  - {key: banner, name: Banner, type: BOOLEAN_FLAG_TYPE, enabled: true}\n';

for (const dialect of TEST_DIALECTS) {
  let db: TestDatabase;
  let store: SqlStore;
  const committed: string[] = [];

  test.before(async () => {
    db = await createTestDatabase(dialect);
    store = await openStore({ url: db.url });
    await store.migrate();
    store.onCommit((change) => void committed.push(`${change.record.namespaceKey}:${change.record.resource}:${change.record.action}`));
  });
  test.after.always(async () => {
    await store?.close();
    await db?.drop();
  });

  const keys = async (): Promise<string[]> => (await store.namespaces.list({ limit: 100, offset: 0 })).items.map((n) => n.key).sort();
  const flagKeys = async (ns: string): Promise<string[]> => (await store.flags.list(ns, { limit: 100, offset: 0 })).items.map((f) => f.key);

  test.serial(`${dialect}: files become namespaces; only what changed is rewritten; what is gone is removed`, async (t) => {
    const applier = new DocumentApplier({ documents: store.documents, namespaces: store.namespaces });
    await store.namespaces.create({ key: 'leftover', name: 'Leftover', description: 'made before the files' });

    t.deepEqual(await applier.apply([file('default.features.yml', DEFAULT), file('shop.features.yml', SHOP('blue')), file('billing.features.yml', BILLING)]), {
      applied: ['default', 'shop', 'billing'],
      removed: ['leftover'],
    });
    t.deepEqual(await keys(), ['billing', 'default', 'shop']);
    t.deepEqual(await flagKeys('shop'), ['color']);
    t.deepEqual(await flagKeys('default'), ['banner']);
    const rule = (await store.rules.list('shop', 'color', { limit: 10, offset: 0 })).items[0];
    t.deepEqual(rule?.segmentKey, 'pro');
    t.is((await store.namespaces.get('shop')).name, 'Shop');

    committed.length = 0;
    t.deepEqual(await applier.apply([file('default.features.yml', DEFAULT), file('shop.features.yml', SHOP('green')), file('billing.features.yml', BILLING)]), { applied: ['shop'], removed: [] });
    t.true(committed.every((c) => c.startsWith('shop:')), `only shop was written: ${committed.join(', ')}`);
    const variants = (await store.flags.get('shop', 'color')).variants;
    const green = variants.find((v) => v.key === 'green')?.id;
    const [again] = (await store.rules.list('shop', 'color', { limit: 10, offset: 0 })).items;
    t.is(again?.distributions[0]?.variantId, green);

    t.deepEqual(await applier.apply([file('shop.features.yml', SHOP('green', 'Online shop'))]), { applied: ['default', 'shop'], removed: ['billing'] });
    t.is((await store.namespaces.get('shop')).name, 'Online shop');
    t.deepEqual(await keys(), ['default', 'shop']);
    t.deepEqual(await flagKeys('default'), [], 'default is emptied, never deleted');
  });

  test.serial(`${dialect}: a rule's window and a flag's prerequisite in a file are served`, async (t) => {
    const applier = new DocumentApplier({ documents: store.documents, namespaces: store.namespaces });
    const served = async (at: string) => {
      const state = await store.readNamespaceState('timed');
      if (state === undefined) throw new Error('namespace timed missing');
      const { compiled } = buildVersion(state, { hash: 'murmur3' });
      const result = evaluateVariant(compiled, { flagKey: 'checkout', entityId: 'u1', context: {} }, { now: () => Date.parse(at) });
      return 'variantKey' in result ? [result.variantKey, result.match, result.prerequisite] : result;
    };
    await applier.apply([file('timed.features.yml', TIMED(true))]);
    t.deepEqual((await store.rules.list('timed', 'checkout', { limit: 10, offset: 0 })).items[0]?.validFrom, '2030-01-01T00:00:00.000Z');
    t.deepEqual(await served('2029-12-31T23:59:59.999Z'), ['old', false, undefined], 'before the window: the default variant');
    t.deepEqual(await served('2030-01-01T00:00:00.000Z'), ['new', true, undefined], 'from its start: the rule');

    await applier.apply([file('timed.features.yml', TIMED(false))]);
    t.deepEqual(await served('2030-06-01T00:00:00.000Z'), ['old', false, 'banner'], 'the banner is off: the prerequisite fails');

    const err = await t.throwsAsync(applier.apply([file('timed.features.yml', TIMED(true).replace('{flag: banner', '{flag: bannner'))]), { instanceOf: DeclarativeError });
    t.is(err?.file, 'timed.features.yml');
    t.is(err?.path, 'flags[1].prerequisites[0].flag');
  });

  test.serial(`${dialect}: an invalid set writes nothing`, async (t) => {
    const applier = new DocumentApplier({ documents: store.documents, namespaces: store.namespaces });
    await applier.apply([file('shop.features.yml', SHOP('blue'))]);
    committed.length = 0;
    const broken = SHOP('purple');
    const err = await t.throwsAsync(applier.apply([file('a.features.yml', BILLING), file('shop.features.yml', broken)]), { instanceOf: DeclarativeError });
    t.is(err?.file, 'shop.features.yml');
    t.deepEqual(committed, []);
    t.deepEqual(await keys(), ['default', 'shop']);
  });
}
