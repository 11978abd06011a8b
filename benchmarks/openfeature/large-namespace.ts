/**
 * The 10,000-flag namespace the memory figure is taken with, written as Flipt's export and imported
 * with `ensign import` before the server starts: a third variant flags (two variants, a rule on one
 * of 20 segments of two constraints, split 50/50, an attachment), a fifth boolean flags with a
 * segment and a threshold rollout, the rest plain boolean flags (the mix of `bench:writes`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runEnsign } from '@ensign/testkit';
import { stringify } from 'yaml';

export const LARGE_NAMESPACE = 'large';

function largeDocument(flags: number): Record<string, unknown> {
  const segments = Array.from({ length: 20 }, (_, i) => ({
    key: `segment-${i}`,
    name: `Segment ${i}`,
    match_type: 'ALL_MATCH_TYPE',
    constraints: [
      { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: i % 2 === 0 ? 'pro' : 'team' },
      { type: 'NUMBER_COMPARISON_TYPE', property: 'seats', operator: 'gte', value: String(i) },
    ],
  }));
  return {
    version: '1.4',
    namespace: { key: LARGE_NAMESPACE, name: 'Large' },
    flags: Array.from({ length: flags }, (_, i) => {
      const key = `flag-${String(i).padStart(5, '0')}`;
      const segment = `segment-${i % 20}`;
      if (i % 3 === 0) {
        return {
          key,
          name: key,
          type: 'VARIANT_FLAG_TYPE',
          enabled: true,
          variants: [
            { key: 'control', name: 'Control', attachment: { layout: 'classic' } },
            { key: 'treatment', name: 'Treatment', attachment: { layout: 'compact' } },
          ],
          rules: [{ segment, distributions: [{ variant: 'control', rollout: 50 }, { variant: 'treatment', rollout: 50 }] }],
        };
      }
      if (i % 5 === 1) {
        return {
          key,
          name: key,
          type: 'BOOLEAN_FLAG_TYPE',
          enabled: false,
          rollouts: [{ segment: { key: segment, value: true } }, { threshold: { percentage: 25, value: true } }],
        };
      }
      return { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: i % 2 === 0 };
    }),
    segments,
  };
}

/** Writes the document to `dir` and imports it into the database `env` names; resolves its variant flags' keys. */
export async function importLargeNamespace(dir: string, env: Record<string, string>, flags: number): Promise<string[]> {
  const file = join(dir, 'large.yml');
  const document = largeDocument(flags);
  writeFileSync(file, stringify(document));
  const imported = await runEnsign(['import', file], { env, cwd: dir, timeoutMs: 600_000 });
  if (imported.code !== 0) throw new Error(`importing the large namespace failed: ${imported.stderr}${imported.stdout}`);
  return (document.flags as Array<{ key: string; type: string }>).filter((f) => f.type === 'VARIANT_FLAG_TYPE').map((f) => f.key);
}
