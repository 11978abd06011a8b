/** The variant a flag returns when no rule matches; saved as soon as it is chosen. */
import type { Flag, Variant } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { flags } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { Field } from '../../components/field.js';
import { useToast } from '../../components/toast.js';
import { useLock } from '../../hooks/permissions.js';
import { flagUpdate, messageOf } from './flag-update.js';

const variantLabel = (v: Variant): string => (v.name === '' || v.name === v.key ? v.key : `${v.key} (${v.name})`);

export function DefaultVariantSelect({ ns, flag }: { ns: string; flag: Flag }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const lock = useLock('flag.update', ns);
  const save = useMutation({
    mutationFn: (defaultVariantId: string) => flags.update(ns, flag.key, flagUpdate(flag, { defaultVariantId })),
    onSuccess: (saved) => {
      if (isDrafted(saved)) return;
      queryClient.setQueryData<Flag>(queryKeys.flag(ns, flag.key), (old) => (old === undefined ? saved : { ...old, ...saved }));
      toast(saved.defaultVariant === undefined ? 'Default variant cleared' : `Default variant set to ${saved.defaultVariant.key}`);
    },
    onError: (error) => toast(`The default variant was not saved: ${messageOf(error)}`, 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.flag(ns, flag.key) }),
  });
  const current = save.isPending ? save.variables : (flag.defaultVariant?.id ?? '');
  const chosen = flag.variants.find((v) => v.id === current);

  return (
    <Field label="Default variant" hint="Returned when the flag is enabled and no rule matches." className="default-variant">
      <select value={current} aria-busy={save.isPending} disabled={lock.on} title={lock.hint ?? (chosen === undefined ? undefined : variantLabel(chosen))} onChange={(e) => save.mutate(e.target.value)}>
        <option value="">None (no variant)</option>
        {flag.variants.map((v) => (
          <option key={v.id} value={v.id}>
            {variantLabel(v)}
          </option>
        ))}
      </select>
    </Field>
  );
}
