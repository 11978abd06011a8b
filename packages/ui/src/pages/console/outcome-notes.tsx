/**
 * What the console can add to an answer about the flag's timing and dependencies: which
 * prerequisite failed (Flipt's wire says only DEFAULT; OFREP names it, so the console asks OFREP
 * for the same entity and context), and which rules or rollouts were skipped for being outside
 * their window at the time of the evaluation. Rows of the result's list; nothing when there is
 * nothing to say.
 */
import type { Flag, Rollout, Rule } from '@ensign/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { scopedNamespace } from '../../api/client.js';
import { ofrep, rollouts, rules } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { KeyBreaks } from '../../components/key-text.js';
import { useTimeZone } from '../../hooks/time-zone.js';
import { paths } from '../../layout/namespace.js';
import { unmetText } from '../../lib/prerequisites.js';
import { failedPrerequisiteOf, skippedByWindow } from '../../lib/outcome-notes.js';
import { formatInstant } from '../../lib/time-format.js';
import type { Evaluation } from './evaluation-result.js';

/** Answers a prerequisite can have turned away: Flipt's default (or unknown, without a default variant). */
const FALLBACK_REASONS = new Set(['DEFAULT_EVALUATION_REASON', 'UNKNOWN_EVALUATION_REASON']);

function PrerequisiteNote({ evaluation, flag }: { evaluation: Evaluation; flag: Flag }) {
  const { body, response } = evaluation;
  const ask = FALLBACK_REASONS.has(response.reason) && scopedNamespace() === undefined;
  const answer = useQuery({
    queryKey: ['ofrep-explain', body.namespaceKey, body.flagKey, response.requestId, response.timestamp],
    queryFn: () => ofrep.flag(body),
    enabled: ask,
    staleTime: Infinity,
    retry: false,
  });
  if (!ask || answer.isError) return null;
  const failed = answer.data === undefined ? undefined : failedPrerequisiteOf(answer.data);
  const prerequisite = flag.prerequisites?.find((p) => p.flagKey === failed);
  return (
    <>
      <dt>Prerequisites</dt>
      <dd className="prerequisite-outcome">
        {answer.isPending ? (
          <span className="muted">Checking…</span>
        ) : failed === undefined ? (
          'Every prerequisite held for this entity.'
        ) : (
          <>
            Not met:{' '}
            <Link to={paths.flag(body.namespaceKey, failed)} className="key-text">
              <KeyBreaks value={failed} />
            </Link> <KeyBreaks value={prerequisite === undefined ? 'did not hold' : unmetText(prerequisite)} /> for this entity, so the flag served {flag.type === 'BOOLEAN_FLAG_TYPE' ? 'false' : 'its default'}.{' '}
            <span className="muted mono">PREREQUISITE_FAILED</span>
          </>
        )}
      </dd>
    </>
  );
}

function WindowNote({ evaluation, flag }: { evaluation: Evaluation; flag: Flag }) {
  const zone = useTimeZone();
  const { body, response } = evaluation;
  const variantFlag = flag.type === 'VARIANT_FLAG_TYPE';
  const ruleList = useQuery({ queryKey: queryKeys.rules(body.namespaceKey, flag.key), queryFn: () => rules.list(body.namespaceKey, flag.key), enabled: variantFlag });
  const rolloutList = useQuery({ queryKey: queryKeys.rollouts(body.namespaceKey, flag.key), queryFn: () => rollouts.list(body.namespaceKey, flag.key), enabled: !variantFlag });
  const items: readonly (Rule | Rollout)[] = (variantFlag ? ruleList.data : rolloutList.data) ?? [];
  const at = Date.parse(response.timestamp);
  const skipped = skippedByWindow(items, Number.isNaN(at) ? Date.now() : at);
  if (skipped.length === 0) return null;
  const noun = variantFlag ? 'Rule' : 'Rollout';
  return (
    <>
      <dt>Windows</dt>
      <dd>
        <ul className="inline-list window-outcome" aria-label="Skipped for their window">
          {skipped.map((s) => (
            <li key={s.position}>
              {noun} {s.position} was skipped: {s.state === 'before' ? 'it applies from' : 'it stopped applying at'}{' '}
              <time dateTime={s.bound}>{formatInstant(s.bound, zone)}</time>
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}

export function OutcomeNotes({ evaluation, flag }: { evaluation: Evaluation; flag: Flag | undefined }) {
  if (flag === undefined) return null;
  return (
    <>
      {(flag.prerequisites?.length ?? 0) > 0 && <PrerequisiteNote evaluation={evaluation} flag={flag} />}
      <WindowNote evaluation={evaluation} flag={flag} />
    </>
  );
}
