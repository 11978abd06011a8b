/**
 * The evaluation console: evaluates a flag of the namespace for an entity and a context through
 * the public `/evaluate/v1` routes, shows the answer in words, the same request as curl, and the
 * last few evaluations to run again. `?flag=<key>` preselects a flag.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { evaluation, flags as flagsApi } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { useSession } from '../../auth/session.js';
import { PageHeader } from '../../components/page-header.js';
import { ErrorBanner } from '../../components/status.js';
import { ADDRESS_FOLLOW_MS } from '../../hooks/address-text.js';
import { formErrors } from '../../hooks/form-errors.js';
import { useNamespace } from '../../layout/namespace.js';
import {
  addToHistory,
  contextOf,
  curlCommand,
  type EvaluationKind,
  type EvaluationRequestBody,
  type HistoryEntry,
  kindOfFlag,
  parseHistory,
  rowsOf,
} from '../../lib/evaluation-console.js';
import { CurlCard } from './curl-card.js';
import { type ConsoleForm, EvaluationForm } from './evaluation-form.js';
import { EvaluationHistory } from './evaluation-history.js';
import { type Evaluation, EvaluationResult } from './evaluation-result.js';
import './console.css';

const historyKey = (ns: string): string => `ensign.console.history.${ns}`;

function storedHistory(ns: string): HistoryEntry[] {
  try {
    return parseHistory(window.sessionStorage.getItem(historyKey(ns)));
  } catch {
    return [];
  }
}

function summaryOf(result: Evaluation): string {
  if (result.kind === 'boolean') return 'enabled' in result.response && result.response.enabled ? 'enabled' : 'disabled';
  const response = result.response as { match: boolean; variantKey: string };
  return response.match ? `variant ${response.variantKey}` : 'no match';
}

export function ConsolePage() {
  const ns = useNamespace();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const [form, setForm] = useState<ConsoleForm>(() => ({ flagKey: params.get('flag') ?? '', kindOverride: undefined, entityId: '', rows: [{ key: '', value: '' }] }));
  const [missingFlag, setMissingFlag] = useState(false);
  const [history, setHistory] = useState<HistoryEntry[]>(() => storedHistory(ns));
  const flags = useQuery({ queryKey: queryKeys.flags(ns), queryFn: () => flagsApi.list(ns) });

  const flagKey = form.flagKey.trim();
  const flag = flags.data?.find((f) => f.key === flagKey);
  const kind: EvaluationKind = form.kindOverride ?? (flag === undefined ? 'variant' : kindOfFlag(flag.type));
  const body: EvaluationRequestBody = { namespaceKey: ns, flagKey, entityId: form.entityId, context: contextOf(form.rows) };

  useEffect(() => {
    try {
      window.sessionStorage.setItem(historyKey(ns), JSON.stringify(history));
    } catch {
      // Without storage the history lasts until the page is left.
    }
  }, [ns, history]);

  // The address follows the flag field once typing pauses: writing it on every key would slow each key down.
  useEffect(() => {
    if ((params.get('flag') ?? '') === flagKey) return;
    const timer = setTimeout(() => setParams(flagKey === '' ? {} : { flag: flagKey }, { replace: true }), ADDRESS_FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [flagKey, params, setParams]);

  const evaluate = useMutation({
    mutationFn: async (request: { kind: EvaluationKind; body: EvaluationRequestBody }): Promise<Evaluation> => {
      const started = performance.now();
      const response = request.kind === 'boolean' ? await evaluation.boolean(request.body) : await evaluation.variant(request.body);
      return { ...request, response, roundTripMs: performance.now() - started };
    },
    onSuccess: (result) => {
      setHistory((h) => addToHistory(h, { kind: result.kind, body: result.body, summary: summaryOf(result), at: new Date().toISOString() }));
    },
  });

  const run = (request: { kind: EvaluationKind; body: EvaluationRequestBody }) => {
    if (request.body.flagKey === '') {
      setMissingFlag(true);
      return;
    }
    setMissingFlag(false);
    evaluate.mutate(request);
  };

  const runAgain = (entry: HistoryEntry) => {
    setForm({ flagKey: entry.body.flagKey, kindOverride: entry.kind, entityId: entry.body.entityId, rows: rowsOf(entry.body.context) });
    run({ kind: entry.kind, body: { ...entry.body, namespaceKey: ns } });
  };

  const errors = formErrors(evaluate.error, ['flagKey', 'entityId']);
  const withToken = session.state.kind === 'signed-in';
  const command = curlCommand({ origin: window.location.origin, kind, body, withToken });

  return (
    <>
      <PageHeader title="Console" subtitle="Evaluate a flag for an entity and its context, exactly as a client would." />
      <div className="console-grid">
        <div className="console-column">
          <section className="card console-request" aria-labelledby="request-title">
            <div className="card-header">
              <h2 id="request-title">Request</h2>
            </div>
            <EvaluationForm
              ns={ns}
              form={form}
              onChange={(next) => {
                if (next.flagKey !== form.flagKey) setMissingFlag(false);
                setForm(next);
              }}
              onEvaluate={() => run({ kind, body })}
              flags={flags.data}
              flag={flag}
              kind={kind}
              pending={evaluate.isPending}
              errors={{ flagKey: missingFlag ? 'Choose a flag to evaluate.' : errors.byField['flagKey'], entityId: errors.byField['entityId'] }}
            />
          </section>
          <EvaluationHistory history={history} onRun={runAgain} onClear={() => setHistory([])} />
        </div>
        <div className="console-column">
          <section className="card console-result" aria-labelledby="result-title">
            <div className="card-header">
              <h2 id="result-title">Result</h2>
            </div>
            <div className="card-body" aria-live="polite" aria-busy={evaluate.isPending}>
              {flags.isError && <ErrorBanner error={flags.error} onRetry={() => void flags.refetch()} />}
              <ErrorBanner error={errors.general} />
              {evaluate.data !== undefined ? (
                <EvaluationResult evaluation={evaluate.data} flag={flags.data?.find((f) => f.key === evaluate.data.body.flagKey)} />
              ) : evaluate.isPending ? (
                <p className="muted">Evaluating…</p>
              ) : evaluate.isError ? null : (
                <p className="muted">Choose a flag and press Evaluate to see the answer here.</p>
              )}
            </div>
          </section>
          <CurlCard command={command} withToken={withToken} />
        </div>
      </div>
    </>
  );
}
