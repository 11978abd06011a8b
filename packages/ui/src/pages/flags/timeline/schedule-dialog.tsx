/**
 * Schedules a change of the flag's enabled state: a date-time read in the user's time zone, and
 * on or off (the opposite of its state now, to start with). A time the service refuses (one that
 * has passed) is shown beside the field, with what was typed kept.
 */
import type { Flag } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { schedules } from '../../../api/endpoints.js';
import { isDrafted } from '../../../api/drafting.js';
import { queryKeys } from '../../../api/query-keys.js';
import { Dialog, DialogButtons } from '../../../components/dialog.js';
import { Field } from '../../../components/field.js';
import { ErrorBanner } from '../../../components/status.js';
import { useToast } from '../../../components/toast.js';
import { formErrors } from '../../../hooks/form-errors.js';
import { useTimeZone, useZoneHint } from '../../../hooks/time-zone.js';
import { wallTimeToUtc } from '../../../lib/zoned-datetime.js';

export function ScheduleDialog({ ns, flag, open, onClose }: { ns: string; flag: Flag; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const id = useId();
  const zone = useTimeZone();
  const hint = useZoneHint();
  const [wall, setWall] = useState('');
  const [enabled, setEnabled] = useState(!flag.enabled);
  const save = useMutation({
    mutationFn: (at: string) => schedules.create(ns, flag.key, { at, enabled }),
    onSuccess: async (saved) => {
      if (!isDrafted(saved)) toast(enabled ? 'Switching the flag on is scheduled' : 'Switching the flag off is scheduled');
      onClose();
      await queryClient.invalidateQueries({ queryKey: queryKeys.schedules(ns, flag.key) });
    },
  });
  const errors = formErrors(save.error, { at: 'at', enabled: 'enabled' });
  const at = wallTimeToUtc(wall, zone);
  const canSave = at !== undefined && !save.isPending;

  return (
    <Dialog
      open={open}
      title="Schedule a change"
      onClose={onClose}
      onSubmit={() => {
        if (canSave) save.mutate(at);
      }}
      footer={<DialogButtons onCancel={onClose} label="Schedule change" busy={save.isPending} busyLabel="Scheduling…" disabled={!canSave} />}
    >
      <ErrorBanner error={errors.general} />
      <Field label="When" hint={hint} error={errors.byField['at']}>
        <input type="datetime-local" value={wall} onChange={(e) => setWall(e.target.value)} />
      </Field>
      <fieldset className="choice-group">
        <legend>Change</legend>
        <label className="choice">
          <input type="radio" name={`${id}-enabled`} checked={enabled} onChange={() => setEnabled(true)} />
          <span>Switch the flag on</span>
        </label>
        <label className="choice">
          <input type="radio" name={`${id}-enabled`} checked={!enabled} onChange={() => setEnabled(false)} />
          <span>Switch the flag off</span>
        </label>
      </fieldset>
      <p className="muted">The flag is {flag.enabled ? 'on' : 'off'} now. Evaluators make the change on their own clock, on time, even when cut off from this server.</p>
    </Dialog>
  );
}
