/**
 * The namespace's activity: every stored change, newest first, filtered by type and action (kept
 * in the address, as is the key a flag's or segment's "See its changes" link sets), each linked to
 * the flag or segment it belongs to.
 */
import { CHANGE_ACTIONS, CHANGE_RESOURCES, type ChangeAction, type ChangeResource } from '@ensign/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { HistoryFilter } from '../../api/endpoints.js';
import { ChangeFeed } from '../../components/change-feed.js';
import { PageHeader } from '../../components/page-header.js';
import { useNamespace } from '../../layout/namespace.js';
import './activity.css';

const TYPE_LABEL: Readonly<Record<ChangeResource, string>> = {
  namespace: 'Namespace',
  flag: 'Flags',
  variant: 'Variants',
  rule: 'Rules',
  distribution: 'Distributions',
  rollout: 'Rollouts',
  segment: 'Segments',
  constraint: 'Constraints',
  schedule: 'Schedules',
};
const TYPE_ORDER: readonly ChangeResource[] = ['flag', 'variant', 'rule', 'distribution', 'rollout', 'schedule', 'segment', 'constraint', 'namespace'];
const ACTION_LABEL: Readonly<Record<ChangeAction, string>> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  reordered: 'Reordered',
  imported: 'Imported',
  stepped: 'Stepped (schedules, windows, ramps)',
};

/** `value` when it is one of `allowed`, else nothing (an address typed by hand). */
const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined => allowed.find((item) => item === value);

interface FilterSelectProps {
  label: string;
  /** The first option's text: no filter. */
  all: string;
  value: string | undefined;
  /** Value and text of each other option. */
  options: ReadonlyArray<readonly [string, string]>;
  onChange: (value: string) => void;
}

/** One filter: everything (`""`), or one of `options`. */
function FilterSelect({ label, all, value, options, onChange }: FilterSelectProps) {
  return (
    <select aria-label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
      <option value="">{all}</option>
      {options.map(([option, text]) => (
        <option key={option} value={option}>
          {text}
        </option>
      ))}
    </select>
  );
}

export function ActivityPage() {
  const ns = useNamespace();
  const [params, setParams] = useSearchParams();
  const type = oneOf(params.get('type'), CHANGE_RESOURCES);
  const action = oneOf(params.get('action'), CHANGE_ACTIONS);
  const key = params.get('key') ?? '';
  const filter = useMemo<HistoryFilter>(() => ({ types: type === undefined ? [] : [type], actions: action === undefined ? [] : [action], key }), [type, action, key]);
  const filtered = type !== undefined || action !== undefined || key !== '';

  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value === '') next.delete(name);
    else next.set(name, value);
    setParams(next, { replace: true });
  };
  const clear = (
    <button type="button" className="button" onClick={() => setParams({}, { replace: true })}>
      Clear filters
    </button>
  );

  return (
    <>
      <PageHeader title="Activity" subtitle="Every change to this namespace’s flags and segments, newest first: what changed, who changed it and when." />
      <div className="card">
        <div className="card-body">
          <div className="toolbar activity-toolbar" role="search">
            <FilterSelect label="Type" all="All types" value={type} options={TYPE_ORDER.map((t) => [t, TYPE_LABEL[t]])} onChange={(value) => set('type', value)} />
            <FilterSelect label="Action" all="All actions" value={action} options={CHANGE_ACTIONS.map((a) => [a, ACTION_LABEL[a]])} onChange={(value) => set('action', value)} />
            {key !== '' && (
              <span className="activity-key">
                Only changes of <code>{key}</code>
                <button type="button" className="button button-small button-ghost" onClick={() => set('key', '')}>
                  Show all keys
                </button>
              </span>
            )}
          </div>
          <ChangeFeed ns={ns} filter={filter} showOwner emptyTitle={filtered ? 'No changes match these filters' : 'No changes yet'} emptyAction={filtered ? clear : undefined} />
        </div>
      </div>
    </>
  );
}
