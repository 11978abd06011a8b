/** The question before deleting a variant: each rule that sends it a share, and what that rule then leaves without a variant. */
import type { Rule, Variant } from '@ensign/core';
import { KeyText } from '../../components/key-text.js';
import { lossSentence, variantLosses } from '../../lib/distribution-share.js';

export function VariantDeleteQuestion({ variant, isDefault, rules }: { variant: Variant; isDefault: boolean; rules: readonly Rule[] | undefined }) {
  const losses = rules === undefined ? [] : variantLosses(rules, variant.id);
  return (
    <>
      <p>
        Delete variant <KeyText value={variant.key} />?{isDefault ? ' The flag loses its default variant.' : ''}
      </p>
      {rules === undefined ? (
        <p>Rules that send traffic to it stop doing so.</p>
      ) : losses.length === 0 ? (
        <p>No rule sends traffic to it.</p>
      ) : (
        <ul className="variant-losses" aria-label="Rules that change">
          {losses.map((loss) => (
            <li key={loss.rank}>{lossSentence(loss, variant.key)}</li>
          ))}
        </ul>
      )}
    </>
  );
}
