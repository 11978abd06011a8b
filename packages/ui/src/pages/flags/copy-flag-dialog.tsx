/**
 * "Copy to namespace…" on a flag's page: the flag with its variants and default variant, its name,
 * description, state and metadata, into another namespace (Flipt's UI copies the same). Rules and
 * rollouts stay behind: they name segments the other namespace may not have.
 */
import type { Flag } from '@ensign/core';
import { CopyToNamespaceButton } from '../../components/copy-to-namespace-dialog.js';
import { KeyText } from '../../components/key-text.js';
import { countNoun } from '../../lib/count-noun.js';

/** What the copy of `flag` takes along, in a sentence. */
function takenAlong(flag: Flag): string {
  if (flag.type === 'BOOLEAN_FLAG_TYPE') return 'its name, description, state and metadata';
  const variants = countNoun(flag.variants.length, 'variant');
  return `its ${variants}${flag.defaultVariant === undefined ? '' : ` (default “${flag.defaultVariant.key}”)`}, name, description, state and metadata`;
}

export function CopyFlagAction({ ns, flag }: { ns: string; flag: Flag }) {
  return (
    <CopyToNamespaceButton
      ns={ns}
      source={{ kind: 'flag', flag }}
      about={
        <>
          <p>
            Creates flag <KeyText value={flag.key} /> in another namespace with {takenAlong(flag)}.
          </p>
          <p className="notice" role="note">
            Rules and rollouts are not copied. They use segments the other namespace may not have: add them there after copying.
          </p>
        </>
      }
    />
  );
}
