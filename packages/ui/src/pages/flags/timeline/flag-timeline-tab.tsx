/**
 * A flag's Timeline tab: its scheduled changes, its rules' and rollouts' windows and its ramps'
 * steps in time order, past and to come; scheduling a change and cancelling a pending one. The
 * steps taken are also changes in the flag's history.
 */
import type { Flag, FlagSchedule } from '@ensign/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { rollouts, rules, schedules } from '../../../api/endpoints.js';
import { isDrafted } from '../../../api/drafting.js';
import { queryKeys } from '../../../api/query-keys.js';
import { useConfirm } from '../../../components/confirm.js';
import { EmptyState, ErrorBanner, Loading } from '../../../components/status.js';
import { useToast } from '../../../components/toast.js';
import { useEditDialog } from '../../../hooks/edit-dialog.js';
import { useNow } from '../../../hooks/now.js';
import { useLocks } from '../../../hooks/permissions.js';
import { useTimeZone } from '../../../hooks/time-zone.js';
import { flagTimeline, stepText } from '../../../lib/flag-timeline.js';
import { formatInstant } from '../../../lib/time-format.js';
import { paths } from '../../../layout/namespace.js';
import { messageOf } from '../flag-update.js';
import { ScheduleDialog } from './schedule-dialog.js';
import { TimelineList } from './timeline-list.js';
import './timeline.css';

/** How often the tab looks again: steps come due, and the service applies them. */
const REFRESH_MS = 30_000;

export function FlagTimelineTab({ ns, flag }: { ns: string; flag: Flag }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const zone = useTimeZone();
  const now = useNow(REFRESH_MS);
  const dialog = useEditDialog<undefined>();
  const lockOf = useLocks();
  const adding = lockOf('schedule.create', ns);
  const mayCancel = !lockOf('schedule.cancel', ns).on;
  const variantFlag = flag.type === 'VARIANT_FLAG_TYPE';
  const scheduleList = useQuery({ queryKey: queryKeys.schedules(ns, flag.key), queryFn: () => schedules.list(ns, flag.key), refetchInterval: REFRESH_MS });
  const ruleList = useQuery({ queryKey: queryKeys.rules(ns, flag.key), queryFn: () => rules.list(ns, flag.key), enabled: variantFlag });
  const rolloutList = useQuery({ queryKey: queryKeys.rollouts(ns, flag.key), queryFn: () => rollouts.list(ns, flag.key), enabled: !variantFlag });
  const parts = variantFlag ? ruleList : rolloutList;
  const steps = useMemo(
    () => flagTimeline(scheduleList.data ?? [], ruleList.data ?? [], rolloutList.data ?? []),
    [scheduleList.data, ruleList.data, rolloutList.data],
  );

  const cancel = useMutation({
    mutationFn: (schedule: FlagSchedule) => schedules.cancel(ns, flag.key, schedule.id),
    onSuccess: (result) => {
      if (!isDrafted(result)) toast('Scheduled change cancelled');
    },
    onError: (error) => toast(`The scheduled change was not cancelled: ${messageOf(error)}`, 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.schedules(ns, flag.key) }),
  });
  const askCancel = async (schedule: FlagSchedule) => {
    const what = stepText({ kind: 'schedule', at: schedule.at, schedule }, 'upcoming').toLowerCase();
    const yes = await confirm({ title: 'Cancel scheduled change', message: `Cancel the change that ${what} at ${formatInstant(schedule.at, zone)}?`, action: 'Cancel change' });
    if (yes) cancel.mutate(schedule);
  };

  const loading = scheduleList.isPending || parts.isPending;
  const failed = scheduleList.error ?? parts.error;
  return (
    <section className="card" aria-labelledby="timeline-title">
      <div className="card-header">
        <div>
          <h2 id="timeline-title">Timeline</h2>
          <p>
            Scheduled changes, the windows of its {variantFlag ? 'rules' : 'rollouts'}
            {variantFlag ? '' : ' and the steps of their ramps'}, in time order. Steps taken are also in its <Link to={paths.flagHistory(ns, flag.key)}>history</Link>.
          </p>
        </div>
        <button type="button" className="button" disabled={adding.on} title={adding.hint} onClick={() => dialog.show(undefined)}>
          Schedule a change
        </button>
      </div>
      <div className="card-body">
        {loading && failed === null ? (
          <Loading label="Loading the timeline…" />
        ) : failed !== null ? (
          <ErrorBanner
            error={failed}
            onRetry={() => {
              void scheduleList.refetch();
              void parts.refetch();
            }}
          />
        ) : steps.length === 0 ? (
          <EmptyState title="Nothing scheduled">
            Schedule a change of the flag’s state, give a {variantFlag ? 'rule' : 'rollout'} a window{variantFlag ? '' : ', or a threshold rollout a ramp'} to see it here.
          </EmptyState>
        ) : (
          <TimelineList steps={steps} now={now} onCancel={mayCancel ? (schedule) => void askCancel(schedule) : undefined} cancelling={cancel.isPending ? cancel.variables?.id : undefined} />
        )}
      </div>
      <ScheduleDialog key={dialog.key} ns={ns} flag={flag} open={dialog.open} onClose={dialog.close} />
    </section>
  );
}
