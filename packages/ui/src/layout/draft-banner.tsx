/**
 * The banner over every page of a protected namespace: its changes need approval, so the caller's
 * edits go into their draft (linked, with how many changes it holds) to be submitted for review;
 * a session that may bypass the policy is told its edits apply at once.
 */
import { Link } from 'react-router';
import { useOwnDraft, useReview } from '../hooks/change-policy.js';
import { KeyText } from '../components/key-text.js';
import { countNoun } from '../lib/count-noun.js';
import { paths } from './namespace.js';
import './draft-banner.css';

export function DraftBanner({ ns }: { ns: string }) {
  const review = useReview(ns);
  const draft = useOwnDraft(ns, review.drafts);
  if (review.required === 0) return null;
  return (
    <section className="draft-banner" aria-label="Protected namespace">
      <p>
        <strong>Protected:</strong> Changes to <KeyText value={ns} /> need {countNoun(review.required, 'approval')} before they apply.{' '}
        {review.bypass ? (
          <>Your role may bypass this: your edits apply at once.</>
        ) : draft.data ? (
          <>
            Your edits go into your draft{' '}
            <Link to={paths.changeRequest(ns, draft.data.id)} className="draft-banner-link">
              {draft.data.title}
            </Link>
            , which holds <span className="draft-banner-count">{countNoun(draft.data.changes.length, 'change')}</span>; submit it for review when it is ready.
          </>
        ) : (
          <>Your edits go into a draft change request, which you submit for review.</>
        )}
      </p>
      <Link to={paths.changeRequests(ns)} className="button button-small">
        Change requests
      </Link>
    </section>
  );
}
