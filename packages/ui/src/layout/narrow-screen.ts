/** Whether the screen is a phone's: the width below which the navigation becomes a drawer (index.css). */
import { useSyncExternalStore } from 'react';

const QUERY = '(max-width: 760px)';

const subscribe = (onChange: () => void) => {
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
};

export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(QUERY).matches);
}
