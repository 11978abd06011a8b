/**
 * A flag's prerequisites (the flags that must hold for it to be served, each linked, with its
 * condition) and its dependents (the namespace's flags that require it, from the flag list);
 * adding and removing prerequisites is an update of the flag.
 */
import type { Flag, Prerequisite } from '@ensign/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { flags as flagsApi } from '../../../api/endpoints.js';
import { queryKeys } from '../../../api/query-keys.js';
import { useConfirm } from '../../../components/confirm.js';
import { KeyBreaks, KeyText } from '../../../components/key-text.js';
import { ErrorBanner, Loading } from '../../../components/status.js';
import { useToast } from '../../../components/toast.js';
import { useEditDialog } from '../../../hooks/edit-dialog.js';
import { useLock } from '../../../hooks/permissions.js';
import { paths } from '../../../layout/namespace.js';
import { conditionText, dependentsOf, withoutPrerequisite } from '../../../lib/prerequisites.js';
import { messageOf } from '../flag-update.js';
import { PrerequisiteDialog } from './prerequisite-dialog.js';
import { usePrerequisitesSave } from './use-prerequisites-save.js';

function FlagLink({ ns, flagKey, known }: { ns: string; flagKey: string; known: boolean }) {
  if (!known) {
    return (
      <span className="segment-chip segment-missing key-text" title="This flag no longer exists">
        <KeyBreaks value={flagKey} />
      </span>
    );
  }
  return (
    <Link to={paths.flag(ns, flagKey)} className="segment-chip key-text" title={flagKey}>
      <KeyBreaks value={flagKey} />
    </Link>
  );
}

export function PrerequisitesCard({ ns, flag }: { ns: string; flag: Flag }) {
  const confirm = useConfirm();
  const toast = useToast();
  const dialog = useEditDialog<undefined>();
  const lock = useLock('flag.update', ns);
  const all = useQuery({ queryKey: queryKeys.flags(ns), queryFn: () => flagsApi.list(ns) });
  const prerequisites = flag.prerequisites ?? [];
  const known = new Set((all.data ?? []).map((f) => f.key));
  const dependents = dependentsOf(flag.key, all.data ?? []);
  const remove = usePrerequisitesSave(ns, flag);

  const askRemove = async (prerequisite: Prerequisite) => {
    const yes = await confirm({
      title: 'Remove prerequisite',
      message: (
        <>
          Serve <KeyText value={flag.key} /> without requiring that <KeyText value={prerequisite.flagKey} /> {conditionText(prerequisite)}?
        </>
      ),
      action: 'Remove prerequisite',
    });
    if (!yes) return;
    remove.mutate(withoutPrerequisite(flag.prerequisites, prerequisite.flagKey), {
      onSuccess: () => toast(`Prerequisite ${prerequisite.flagKey} removed`),
      onError: (error) => toast(`The prerequisite was not removed: ${messageOf(error)}`, 'error'),
    });
  };

  return (
    <section className="card" aria-labelledby="prerequisites-title">
      <div className="card-header">
        <div>
          <h2 id="prerequisites-title">Prerequisites</h2>
          <p>Served only when every one of these holds for the entity; otherwise it answers {flag.type === 'BOOLEAN_FLAG_TYPE' ? 'false' : 'its default variant'}.</p>
        </div>
        <button type="button" className="button" disabled={lock.on || all.isPending} title={lock.hint} onClick={() => dialog.show(undefined)}>
          Add prerequisite
        </button>
      </div>
      <div className="card-body prerequisites-body">
        {prerequisites.length === 0 ? (
          <p className="muted">Requires no other flag.</p>
        ) : (
          <ul className="prerequisite-list" aria-label="Prerequisites">
            {prerequisites.map((p) => (
              <li key={p.flagKey}>
                <span>
                  Requires <FlagLink ns={ns} flagKey={p.flagKey} known={all.data === undefined || known.has(p.flagKey)} /> <span className="prerequisite-condition"><KeyBreaks value={conditionText(p)} /></span>
                </span>
                {!lock.on && (
                  <button
                    type="button"
                    className="button button-small button-ghost danger-text"
                    aria-label={`Remove prerequisite ${p.flagKey}`}
                    disabled={remove.isPending}
                    onClick={() => void askRemove(p)}
                  >
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <h3 className="dependents-title">Required by</h3>
        {all.isPending ? (
          <Loading label="Finding the flags that require it…" />
        ) : all.isError ? (
          <ErrorBanner error={all.error} onRetry={() => void all.refetch()} />
        ) : dependents.length === 0 ? (
          <p className="muted">No flag requires this one.</p>
        ) : (
          <ul className="prerequisite-list" aria-label="Dependents">
            {dependents.map(({ flag: dependent, prerequisite }) => (
              <li key={dependent.key}>
                <span>
                  <FlagLink ns={ns} flagKey={dependent.key} known /> <span className="muted">when this flag</span> <span className="prerequisite-condition"><KeyBreaks value={conditionText(prerequisite)} /></span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {all.data !== undefined && <PrerequisiteDialog key={dialog.key} ns={ns} flag={flag} flags={all.data} open={dialog.open} onClose={dialog.close} />}
    </section>
  );
}
