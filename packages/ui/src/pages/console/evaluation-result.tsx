/** The answer of one evaluation: match or enabled, variant, reason in words (with a failed prerequisite or a window that skipped a rule), matched segments, attachment, timings and the raw JSON. */
import type { BooleanEvaluationResponse, Flag, VariantEvaluationResponse } from '@ensign/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { rules } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { KeyText } from '../../components/key-text.js';
import { paths } from '../../layout/namespace.js';
import { gapMatch, gapSentence } from '../../lib/distribution-share.js';
import { type EvaluationKind, type EvaluationRequestBody, prettyAttachment, reasonText } from '../../lib/evaluation-console.js';
import { OutcomeNotes } from './outcome-notes.js';

/** One finished evaluation: what was asked and what the service answered. */
export interface Evaluation {
  kind: EvaluationKind;
  body: EvaluationRequestBody;
  response: VariantEvaluationResponse | BooleanEvaluationResponse;
  /** Milliseconds from sending the request to reading the answer, as the browser measured it. */
  roundTripMs: number;
}

/**
 * Why a variant answer came out as it did. An unmatched answer that names segments matched a rule
 * but fell in the share its distributions leave unassigned: it says which rule, not "No rule matched".
 */
function VariantReason({ body, response }: { body: EvaluationRequestBody; response: VariantEvaluationResponse }) {
  const inGap = !response.match && response.segmentKeys.length > 0 && response.reason !== 'FLAG_DISABLED_EVALUATION_REASON';
  const flagKey = response.flagKey || body.flagKey;
  const flagRules = useQuery({ queryKey: queryKeys.rules(body.namespaceKey, flagKey), queryFn: () => rules.list(body.namespaceKey, flagKey), enabled: inGap });
  if (!inGap) return <>{reasonText('variant', response.reason)}</>;
  const gap = flagRules.data === undefined ? undefined : gapMatch(flagRules.data, response);
  if (gap !== undefined) return <span className="gap-reason">{gapSentence(gap, response.variantKey)}</span>;
  const outcome = response.variantKey === '' ? 'no variant' : `the default variant ${response.variantKey} applies`;
  return <span className="gap-reason">Matched a rule but fell in the share its distribution leaves unassigned: {outcome}</span>;
}

const formatMs = (ms: number): string => (ms < 1 ? `${ms.toFixed(3)} ms` : ms < 100 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`);

/** `flag` (as the flag list holds it) lets the answer say more about its prerequisites and windows. */
export function EvaluationResult({ evaluation, flag }: { evaluation: Evaluation; flag: Flag | undefined }) {
  const { kind, body, response } = evaluation;
  const variant = kind === 'variant' ? (response as VariantEvaluationResponse) : undefined;
  const boolean = kind === 'boolean' ? (response as BooleanEvaluationResponse) : undefined;
  const positive = variant?.match ?? boolean?.enabled ?? false;
  const attachment = prettyAttachment(variant?.variantAttachment ?? '');

  return (
    <div className="evaluation-result">
      <div className={positive ? 'result-headline result-positive' : 'result-headline'}>
        {variant !== undefined ? (
          variant.match ? (
            <>
              <span className="badge badge-on">Match</span> variant <KeyText value={variant.variantKey} className="result-variant" />
            </>
          ) : (
            <>
              <span className="badge badge-off">No match</span>
              {variant.variantKey !== '' && (
                <>
                  {' '}
                  default variant <KeyText value={variant.variantKey} className="result-variant" />
                </>
              )}
            </>
          )
        ) : (
          <span className={boolean?.enabled ? 'badge badge-on' : 'badge badge-off'}>{boolean?.enabled ? 'Enabled' : 'Disabled'}</span>
        )}
      </div>
      <dl className="result-list">
        <dt>Flag</dt>
        <dd>
          <Link to={paths.flag(body.namespaceKey, response.flagKey || body.flagKey)}>
            <KeyText value={response.flagKey || body.flagKey} />
          </Link>{' '}
          <span className="muted">({kind})</span>
        </dd>
        {variant !== undefined && (
          <>
            <dt>Match</dt>
            <dd>{variant.match ? 'Yes' : 'No'}</dd>
            <dt>Variant</dt>
            <dd>{variant.variantKey === '' ? <span className="muted">none</span> : <KeyText value={variant.variantKey} />}</dd>
          </>
        )}
        {boolean !== undefined && (
          <>
            <dt>Enabled</dt>
            <dd>{boolean.enabled ? 'Yes' : 'No'}</dd>
          </>
        )}
        <dt>Reason</dt>
        <dd>
          {variant !== undefined ? <VariantReason body={body} response={variant} /> : reasonText(kind, response.reason)} <span className="muted mono reason-code">{response.reason}</span>
        </dd>
        <OutcomeNotes evaluation={evaluation} flag={flag} />
        <dt>Segments</dt>
        <dd>
          {response.segmentKeys.length === 0 ? (
            <span className="muted">none matched</span>
          ) : (
            <ul className="inline-list" aria-label="Matched segments">
              {response.segmentKeys.map((key) => (
                <li key={key}>
                  <Link to={paths.segment(body.namespaceKey, key)}>
                    <KeyText value={key} />
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </dd>
        {variant !== undefined && (
          <>
            <dt>Attachment</dt>
            <dd>{attachment === '' ? <span className="muted">none</span> : <pre className="block attachment">{attachment}</pre>}</dd>
          </>
        )}
        <dt>Duration</dt>
        <dd>
          {formatMs(response.requestDurationMillis)} in the service · {formatMs(evaluation.roundTripMs)} round trip
        </dd>
      </dl>
      <details className="raw-response">
        <summary>Raw response</summary>
        <pre className="block">{JSON.stringify(response, null, 2)}</pre>
      </details>
    </div>
  );
}
