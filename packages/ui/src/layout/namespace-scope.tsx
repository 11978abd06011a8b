/** Remembers the namespace of the path for the next visit, and tells when it does not exist. */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Outlet } from 'react-router';
import { namespaces } from '../api/endpoints.js';
import { queryKeys } from '../api/query-keys.js';
import { NotFound } from '../components/status.js';
import { paths, rememberNamespace, useNamespace } from './namespace.js';

export function NamespaceScope() {
  const ns = useNamespace();
  const { data } = useQuery({ queryKey: queryKeys.namespaces, queryFn: namespaces.list });
  const exists = data === undefined || data.some((n) => n.key === ns);
  useEffect(() => {
    if (exists) rememberNamespace(ns);
  }, [ns, exists]);
  if (!exists) return <NotFound what={`Namespace "${ns}"`} back={<Link to={paths.namespaces()}>See all namespaces</Link>} />;
  return <Outlet />;
}
