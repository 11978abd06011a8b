/** A call about one change request: afterwards the request, the namespace's lists and (after an apply) its flags are read again. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeRequestView } from '../../lib/change-requests.js';
import { queryKeys } from '../../api/query-keys.js';
import { useToast } from '../../components/toast.js';

export function useRequestMutation<V>(ns: string, call: (value: V) => Promise<ChangeRequestView>, done: (saved: ChangeRequestView) => string) {
  const queries = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: call,
    onSuccess: async (saved) => {
      toast(done(saved));
      await queries.invalidateQueries({ queryKey: queryKeys.namespace(ns) });
    },
  });
}
