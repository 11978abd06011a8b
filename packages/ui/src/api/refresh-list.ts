import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Invalidates a list after a write and refetches it at once, also when it is off screen (a write
 * on a detail page), so going back to the list shows the write instead of the old rows first.
 */
export const refreshList = (queries: QueryClient, queryKey: QueryKey): Promise<void> => queries.invalidateQueries({ queryKey, refetchType: 'all' });
