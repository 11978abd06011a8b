/**
 * Saves a flag's prerequisites: the flag is written with the new list (`[]` removes them all),
 * held as the service answered it, and the namespace's flag list refreshed (its dependents read it).
 */
import type { Flag, Prerequisite } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { flags } from '../../../api/endpoints.js';
import { isDrafted } from '../../../api/drafting.js';
import { queryKeys } from '../../../api/query-keys.js';
import { refreshList } from '../../../api/refresh-list.js';
import { flagUpdate } from '../flag-update.js';

export function usePrerequisitesSave(ns: string, flag: Flag, onSaved?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prerequisites: Prerequisite[]) => flags.update(ns, flag.key, flagUpdate(flag, { prerequisites })),
    onSuccess: async (saved) => {
      if (isDrafted(saved)) {
        onSaved?.();
        return;
      }
      // The service leaves the field out once there are none.
      queryClient.setQueryData<Flag>(queryKeys.flag(ns, flag.key), (old) => {
        const { prerequisites: _gone, ...rest } = old ?? saved;
        return { ...rest, ...saved };
      });
      onSaved?.();
      await refreshList(queryClient, queryKeys.flags(ns));
    },
  });
}
