/**
 * Remembers the namespace of the path for the next visit, and tells when it does not exist or when
 * the session is held to another namespace (asking the service would end such a session). Over
 * the pages of a protected namespace, the banner that says where edits go.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Outlet } from 'react-router';
import { namespaces } from '../api/endpoints.js';
import { queryKeys } from '../api/query-keys.js';
import { sessionNamespaceOf, useSession } from '../auth/session.js';
import { EmptyState, NotFound } from '../components/status.js';
import { DraftBanner } from './draft-banner.js';
import { paths, rememberNamespace, useNamespace } from './namespace.js';

export function NamespaceScope() {
  const ns = useNamespace();
  const scoped = sessionNamespaceOf(useSession().state);
  const outside = scoped !== undefined && scoped !== ns;
  const { data } = useQuery({ queryKey: queryKeys.namespaces, queryFn: namespaces.list, enabled: !outside });
  const exists = data === undefined || data.some((n) => n.key === ns);
  useEffect(() => {
    if (exists && !outside) rememberNamespace(ns);
  }, [ns, exists, outside]);
  if (outside) {
    return (
      <EmptyState title={`Namespace "${ns}" is not open to this session`} action={<Link to={paths.flags(scoped)}>Go to {scoped}</Link>}>
        You signed in with a token limited to the namespace {scoped}. To work in "{ns}", sign out and sign in with a token for it or for every namespace.
      </EmptyState>
    );
  }
  if (!exists) return <NotFound what={`Namespace "${ns}"`} back={<Link to={paths.namespaces()}>See all namespaces</Link>} />;
  return (
    <>
      <DraftBanner ns={ns} />
      <Outlet />
    </>
  );
}
