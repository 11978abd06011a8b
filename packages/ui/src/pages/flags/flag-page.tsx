/**
 * One flag: its header (name, key, type, the enabled switch, the console link, delete), then its
 * Overview tab (its details, its prerequisites and dependents, and either its variants and rules
 * or its rollouts), its Timeline tab (scheduled changes, windows, ramps), its Usage tab
 * (evaluations over time and what it served) or its History tab.
 */
import type { Flag } from '@ensign/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client.js';
import { flags } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { useConfirm } from '../../components/confirm.js';
import { CopyButton } from '../../components/copy-button.js';
import { KeyBreaks, KeyText } from '../../components/key-text.js';
import { PageHeader } from '../../components/page-header.js';
import { ErrorBanner, Loading, NotFound } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { useLock } from '../../hooks/permissions.js';
import { paths, useNamespace } from '../../layout/namespace.js';
import { PageTabs } from '../../components/page-tabs.js';
import { CopyFlagAction } from './copy-flag-dialog.js';
import { EnabledSwitch } from './enabled-switch.js';
import { FlagDetailsCard } from './flag-details-card.js';
import { FlagHistory } from './flag-history.js';
import { FLAG_TYPE_LABEL, messageOf } from './flag-update.js';
import { PrerequisitesCard } from './prerequisites/prerequisites-card.js';
import { RolloutsCard } from './rollouts-card.js';
import { RulesCard } from './rules-card.js';
import { FlagTimelineTab } from './timeline/flag-timeline-tab.js';
import { FlagUsageTab } from './usage/flag-usage-tab.js';
import { VariantsCard } from './variants-card.js';
import './flags.css';
import './flag-rules.css';

export type FlagTab = 'overview' | 'timeline' | 'usage' | 'history';

export function FlagPage({ tab = 'overview' }: { tab?: FlagTab }) {
  const ns = useNamespace();
  const flagKey = useParams().flagKey ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const deleting = useLock('flag.delete', ns);
  const { data: flag, error, isPending, refetch } = useQuery({ queryKey: queryKeys.flag(ns, flagKey), queryFn: () => flags.get(ns, flagKey) });

  const remove = useMutation({
    mutationFn: () => flags.delete(ns, flagKey),
    onSuccess: async (result) => {
      // In a draft: the flag stays until the draft is applied.
      if (isDrafted(result)) return;
      toast(`Flag ${flagKey} deleted`);
      queryClient.removeQueries({ queryKey: queryKeys.flag(ns, flagKey) });
      await refreshList(queryClient, queryKeys.flags(ns));
      void navigate(paths.flags(ns));
    },
    onError: (err) => toast(`The flag was not deleted: ${messageOf(err)}`, 'error'),
  });

  const back = (
    <>
      <Link to={paths.flags(ns)}>Back to the flags</Link> · <Link to={paths.activity(ns, flagKey)}>See its changes</Link>
    </>
  );
  if (isPending) return <Loading label="Loading the flag…" />;
  if (error instanceof ApiError && error.status === 404) return <NotFound what={`Flag "${flagKey}"`} back={back} />;
  if (flag === undefined) return <ErrorBanner error={error} onRetry={() => void refetch()} />;

  const askDelete = async () => {
    const yes = await confirm({
      title: 'Delete flag',
      message: (
        <>
          Delete flag <KeyText value={flag.key} /> with its {flag.type === 'VARIANT_FLAG_TYPE' ? 'variants and rules' : 'rollouts'}? Applications asking for it get an error from then on.
        </>
      ),
      action: 'Delete flag',
    });
    if (yes) remove.mutate();
  };

  return (
    <>
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link to={paths.flags(ns)}>Flags</Link> / <span><KeyBreaks value={flag.key} /></span>
      </nav>
      <PageHeader
        title={flag.name}
        subtitle={
          <span className="flag-meta">
            <KeyText value={flag.key} />
            <CopyButton text={flag.key} label="Copy key" className="button button-small button-ghost" />
            <span className="badge badge-accent">{FLAG_TYPE_LABEL[flag.type]} flag</span>
          </span>
        }
        actions={
          <>
            <EnabledSwitch ns={ns} flag={flag} />
            <Link className="button" to={paths.console(ns, flag.key)}>
              Evaluate in console
            </Link>
            <CopyFlagAction ns={ns} flag={flag} />
            <button type="button" className="button button-ghost danger-text" onClick={() => void askDelete()} disabled={deleting.on || remove.isPending} title={deleting.hint}>
              Delete flag
            </button>
          </>
        }
      >
        {flag.description !== '' && <p className="flag-page-description">{flag.description}</p>}
      </PageHeader>
      <PageTabs
        label="Flag sections"
        tabs={[
          { label: 'Overview', to: paths.flag(ns, flag.key) },
          { label: 'Timeline', to: paths.flagTimeline(ns, flag.key) },
          { label: 'Usage', to: paths.flagUsage(ns, flag.key) },
          { label: 'History', to: paths.flagHistory(ns, flag.key) },
        ]}
      />
      <FlagTabContent tab={tab} ns={ns} flag={flag} />
    </>
  );
}

function FlagTabContent({ tab, ns, flag }: { tab: FlagTab; ns: string; flag: Flag }) {
  switch (tab) {
    case 'timeline':
      return <FlagTimelineTab ns={ns} flag={flag} />;
    case 'usage':
      return <FlagUsageTab ns={ns} flag={flag} />;
    case 'history':
      return <FlagHistory ns={ns} flag={flag} />;
    default:
      return <FlagOverview ns={ns} flag={flag} />;
  }
}

function FlagOverview({ ns, flag }: { ns: string; flag: Flag }) {
  return (
    <>
      {!flag.enabled && flag.type === 'VARIANT_FLAG_TYPE' && (
        <p className="notice" role="note">
          This flag is disabled: evaluations return no variant until it is enabled.
        </p>
      )}
      {flag.type === 'VARIANT_FLAG_TYPE' ? (
        <>
          <VariantsCard ns={ns} flag={flag} />
          <RulesCard ns={ns} flag={flag} />
        </>
      ) : (
        <RolloutsCard ns={ns} flag={flag} />
      )}
      <PrerequisitesCard ns={ns} flag={flag} />
      <FlagDetailsCard ns={ns} flag={flag} />
    </>
  );
}
