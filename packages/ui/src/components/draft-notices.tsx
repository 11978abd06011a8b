/**
 * Says where an edit of a protected namespace went: each edit added to the caller's draft is
 * announced (what it changes, and how many changes the draft holds), and the namespace's data is
 * read again, so a page that showed the edit at once goes back to what is applied.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onDrafted } from '../api/drafting.js';
import { queryKeys } from '../api/query-keys.js';
import { describeChange, ownerOf } from '../lib/change-summary.js';
import { countNoun } from '../lib/count-noun.js';
import { useToast } from './toast.js';

export function DraftNotices() {
  const queries = useQueryClient();
  const toast = useToast();
  useEffect(
    () =>
      onDrafted((drafted) => {
        const { request, records } = drafted;
        const last = records[records.length - 1];
        const owner = last === undefined ? undefined : ownerOf(last);
        const what = last === undefined ? 'The change' : `${describeChange(last)}${owner === undefined || owner.key === last.key ? '' : ` of ${owner.key}`}${last.resource === owner?.kind ? ` ${last.key}` : ''}`;
        toast(`${what} is in your draft “${request.title}” (${countNoun(request.changes.length, 'change')}), not applied until it is reviewed`, 'info');
        void queries.invalidateQueries({ queryKey: queryKeys.namespace(drafted.ns) });
      }),
    [queries, toast],
  );
  return null;
}
