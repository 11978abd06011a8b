/**
 * Whether the server refuses management writes (flags served from feature files, or
 * `storage.read_only`), read from `GET /meta/info` once per session: the shell waits for it before
 * showing a page, so no control that writes is ever offered on a read-only server. A server that
 * cannot say (an older one, or the request failed) is taken as writable.
 */
import { useQuery } from '@tanstack/react-query';
import { meta } from '../api/endpoints.js';
import { queryKeys } from '../api/query-keys.js';
import { readOnlyHeadline } from '../lib/read-only.js';

/** `/meta/info`'s storage, asked once per session (sign-in and sign-out clear it). */
export function useServerStorage() {
  return useQuery({ queryKey: queryKeys.storage, queryFn: meta.storage, staleTime: Infinity, gcTime: Infinity });
}

export interface ReadOnly {
  /** The server refuses every management write: controls that write are hidden or disabled. */
  on: boolean;
  /** The tooltip of a disabled control that would write ("Read-only: flags are served from …"); undefined when writable. */
  hint: string | undefined;
}

const WRITABLE: ReadOnly = { on: false, hint: undefined };

export function useReadOnly(): ReadOnly {
  const { data } = useServerStorage();
  if (data === undefined || !data.readOnly) return WRITABLE;
  return { on: true, hint: readOnlyHeadline(data) };
}
