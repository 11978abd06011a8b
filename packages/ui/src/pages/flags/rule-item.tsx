/** One rule as a card: its segments, where its traffic goes, when it applies, and its buttons (move, edit, delete). */
import type { Rule, Variant } from '@ensign/core';
import { Link } from 'react-router';
import { KeyBreaks, KeyText } from '../../components/key-text.js';
import { paths } from '../../layout/namespace.js';
import { assignedShare, unassignedShare } from '../../lib/distribution-share.js';
import { roundPercent } from '../../lib/distributions.js';
import { operatorWord, segmentKeysOf } from '../../lib/segment-ref.js';
import { RankedItem } from './ranked-card.js';
import { WindowSummary } from './window-summary.js';
import type { RankedAbilities } from './use-ranked-card.js';
import type { RankedListControls } from './use-ranked-list.js';

export interface RuleItemProps {
  ns: string;
  rule: Rule;
  index: number;
  variants: readonly Variant[];
  /** The namespace's segments; undefined while they load. */
  knownSegments: ReadonlySet<string> | undefined;
  onEdit: () => void;
  onDelete: () => void;
  ranked: RankedListControls;
  can: RankedAbilities;
}

/** Variant colours of the distribution bar, in variant order. */
export const variantColour = (index: number): string => `var(--variant-${Math.max(0, index) % 6})`;

export function SegmentList({ ns, keys, operator, known }: { ns: string; keys: readonly string[]; operator: 'AND' | 'OR'; known: ReadonlySet<string> | undefined }) {
  return (
    <span className="segment-list">
      {keys.map((key, i) => (
        <span key={key}>
          {i > 0 && <span className="operator-word">{operator}</span>}
          {known === undefined || known.has(key) ? (
            <Link to={paths.segment(ns, key)} className="segment-chip key-text" title={key}>
              <KeyBreaks value={key} />
            </Link>
          ) : (
            <span className="segment-chip segment-missing key-text" title="This segment no longer exists">
              <KeyBreaks value={key} />
            </span>
          )}
        </span>
      ))}
    </span>
  );
}

export function RuleItem({ ns, rule, index, variants, knownSegments, onEdit, onDelete, ranked, can }: RuleItemProps) {
  const titleId = `rule-${rule.id}-title`;
  const shares = rule.distributions.filter((d) => d.rollout > 0);
  const variantOf = (id: string) => variants.findIndex((v) => v.id === id);
  const unassigned = unassignedShare(shares);
  const assigned = assignedShare(shares);
  return (
    <RankedItem id={rule.id} index={index} titleId={titleId} ranked={ranked} can={can} onEdit={onEdit} onDelete={onDelete}>
      <div className="ranked-title">
        <h3 id={titleId}>Rule {index + 1}</h3>
        <span className="muted">if the entity is in</span>
        <SegmentList ns={ns} keys={segmentKeysOf(rule)} operator={operatorWord(rule.segmentOperator)} known={knownSegments} />
      </div>
      {shares.length === 0 ? (
        <p className="muted no-variant">No distribution: matches without a variant.</p>
      ) : (
        <>
          <div className="distribution-bar" aria-hidden="true">
            {shares.map((d) => (
              <span key={d.id} style={{ width: `${d.rollout}%`, background: variantColour(variantOf(d.variantId)) }} />
            ))}
          </div>
          <ul className="distribution-list" aria-label={`Distribution of rule ${index + 1}`}>
            {shares.map((d) => {
              const at = variantOf(d.variantId);
              return (
                <li key={d.id}>
                  <span className="swatch" style={{ background: variantColour(at) }} aria-hidden="true" />
                  <KeyText value={variants[at]?.key ?? d.variantId} /> <span aria-hidden="true">→</span> <strong>{roundPercent(d.rollout)}%</strong>
                </li>
              );
            })}
            {unassigned > 0 && (
              <li className="unassigned-share">
                <span className="swatch swatch-empty" aria-hidden="true" />
                {unassigned}% get no variant
              </li>
            )}
          </ul>
          {assigned > 100 && (
            <p className="notice distribution-over" role="note">
              These distributions add up to {assigned}%, more than 100%: evaluations give out only the first 100%, so the last {roundPercent(assigned - 100)}% never apply. Edit the rule
              to bring them to 100% or less.
            </p>
          )}
        </>
      )}
      <WindowSummary window={rule} />
    </RankedItem>
  );
}
