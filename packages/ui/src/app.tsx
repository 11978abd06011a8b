/** The UI: providers, the sign-in gate, and the routes. */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ApiError } from './api/client.js';
import { isHistoryKey } from './api/query-keys.js';
import { SessionProvider, useSession } from './auth/session.js';
import { ConfirmProvider } from './components/confirm.js';
import { Loading, NotFound } from './components/status.js';
import { ToastProvider } from './components/toast.js';
import { refreshPermissionsOnRefusal } from './hooks/permissions.js';
import { NamespaceScope } from './layout/namespace-scope.js';
import { lastNamespace, paths } from './layout/namespace.js';
import { Shell } from './layout/shell.js';
import { ActivityPage } from './pages/activity/activity-page.js';
import { ChangeRequestPage } from './pages/change-requests/change-request-page.js';
import { ChangeRequestsPage } from './pages/change-requests/change-requests-page.js';
import { ConsolePage } from './pages/console/console-page.js';
import { FlagPage } from './pages/flags/flag-page.js';
import { FlagsPage } from './pages/flags/flags-page.js';
import { LoginPage } from './pages/login/login-page.js';
import { SegmentPage } from './pages/segments/segment-page.js';
import { SegmentsPage } from './pages/segments/segments-page.js';
import { NamespacesPage } from './pages/settings/namespaces-page.js';
import { PreferencesPage } from './pages/settings/preferences-page.js';
import { TokensPage } from './pages/settings/tokens-page.js';

// A refusal (403) is shown where it happened and never ends the session; what the session may do is asked again.
const onRefused = refreshPermissionsOnRefusal(() => queryClient);

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onRefused }),
  mutationCache: new MutationCache({
    // Every write is a change the history listings may show: refresh the ones on screen, mark the rest stale.
    onSettled: () => queryClient.invalidateQueries({ predicate: (query) => isHistoryKey(query.queryKey) }),
    onError: onRefused,
  }),
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // A 4xx will not change by asking again; a lost connection may.
      retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
    },
    mutations: { retry: false },
  },
});

function Gate() {
  const { state } = useSession();
  if (state.kind === 'checking') return <Loading label="Connecting…" />;
  if (state.kind === 'signed-out') return <LoginPage />;
  return (
    <Routes>
      <Route element={<Shell />}>
        <Route index element={<Navigate to={paths.flags(lastNamespace())} replace />} />
        <Route path="namespaces/:ns" element={<NamespaceScope />}>
          <Route index element={<Navigate to="flags" replace />} />
          <Route path="flags" element={<FlagsPage />} />
          <Route path="flags/:flagKey" element={<FlagPage />} />
          <Route path="flags/:flagKey/timeline" element={<FlagPage tab="timeline" />} />
          <Route path="flags/:flagKey/usage" element={<FlagPage tab="usage" />} />
          <Route path="flags/:flagKey/history" element={<FlagPage tab="history" />} />
          <Route path="segments" element={<SegmentsPage />} />
          <Route path="segments/:segmentKey" element={<SegmentPage />} />
          <Route path="segments/:segmentKey/history" element={<SegmentPage tab="history" />} />
          <Route path="console" element={<ConsolePage />} />
          <Route path="activity" element={<ActivityPage />} />
          <Route path="change-requests" element={<ChangeRequestsPage />} />
          <Route path="change-requests/:requestId" element={<ChangeRequestPage />} />
        </Route>
        <Route path="settings" element={<Navigate to={paths.namespaces()} replace />} />
        <Route path="settings/namespaces" element={<NamespacesPage />} />
        <Route path="settings/tokens" element={<TokensPage />} />
        <Route path="settings/preferences" element={<PreferencesPage />} />
        <Route path="*" element={<NotFound what="Page" />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <ConfirmProvider>
          <BrowserRouter>
            <SessionProvider>
              <Gate />
            </SessionProvider>
          </BrowserRouter>
        </ConfirmProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}
