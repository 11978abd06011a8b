/**
 * The flag's on/off switch. It saves at once: the page shows the new state before the service
 * answers, and goes back to the old one (with a toast saying why) when the service refuses.
 */
import type { Flag } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { flags } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { useToast } from '../../components/toast.js';
import { useLock } from '../../hooks/permissions.js';
import { flagUpdate, messageOf } from './flag-update.js';

export function EnabledSwitch({ ns, flag }: { ns: string; flag: Flag }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const lock = useLock('flag.update', ns);
  const key = queryKeys.flag(ns, flag.key);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => flags.update(ns, flag.key, flagUpdate(flag, { enabled })),
    onMutate: async (enabled) => {
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const previous = queryClient.getQueryData<Flag>(key);
      queryClient.setQueryData<Flag>(key, (old) => old && { ...old, enabled });
      return { previous };
    },
    onError: (error, enabled, context) => {
      if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
      toast(`The flag was not ${enabled ? 'enabled' : 'disabled'}: ${messageOf(error)}`, 'error');
    },
    onSuccess: (saved, _enabled, context) => {
      // In a draft: the switch shows what is applied until the draft is.
      if (isDrafted(saved)) {
        if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
        return;
      }
      queryClient.setQueryData<Flag>(key, (old) => (old === undefined ? saved : { ...old, ...saved }));
      toast(saved.enabled ? 'Flag enabled' : 'Flag disabled');
    },
    onSettled: () => refreshList(queryClient, queryKeys.flags(ns)),
  });

  return (
    <label className="switch enabled-switch" title={lock.hint}>
      <input
        type="checkbox"
        role="switch"
        checked={flag.enabled}
        disabled={lock.on}
        aria-busy={toggle.isPending}
        onChange={(e) => {
          if (!toggle.isPending) toggle.mutate(e.target.checked);
        }}
      />
      <span>Enabled</span>
    </label>
  );
}
