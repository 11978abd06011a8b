/** A large import is a few bulk statements in one transaction: one change, one revision, in seconds. */
import test from 'ava';
import { TEST_DIALECTS } from '@ensign/testkit';
import { manyFlags } from './helpers/document-seed.js';
import { changesOf, useStore } from './helpers/store-harness.js';

const FLAGS = 10_000;

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: ${FLAGS.toLocaleString('en')} flags (two variants, a rule and a distribution each) in one change`, async (t) => {
    const { store } = h();
    const ns = `bulk-${process.pid}`;
    const doc = manyFlags(ns, FLAGS);

    const started = performance.now();
    const summary = await store.documents.importDocuments([doc], {});
    const importMs = performance.now() - started;
    t.log(`${dialect}: imported ${FLAGS} flags in ${Math.round(importMs)} ms`);
    t.like(summary.namespaces[0], { flags: { imported: FLAGS, skipped: 0, removed: 0 }, segments: { imported: 1 } });

    const changes = changesOf(h(), ns);
    t.is(changes.length, 1);
    const effect = changes[0]?.effect;
    t.is(effect?.kind === 'flags' ? effect.state.flags.length : 0, FLAGS, 'the effect carries every flag');
    t.is(effect?.kind === 'flags' ? effect.state.rules.length : 0, FLAGS);

    const readStarted = performance.now();
    const exported = await store.documents.exportNamespace(ns);
    t.log(`${dialect}: exported them in ${Math.round(performance.now() - readStarted)} ms`);
    t.is(exported?.flags.length, FLAGS);
    t.deepEqual(exported?.flags.slice(0, 2), doc.flags.slice(0, 2), 'in document order, default variants and attachments kept');
    t.deepEqual(exported?.flags.at(-1), doc.flags.at(-1));
  });
}
