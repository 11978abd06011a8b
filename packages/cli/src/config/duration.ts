/** Go-style durations, the spelling Flipt configs use; the reference shows defaults the same way. */
export { formatGoDuration as formatDuration, parseGoDuration } from '@ensign/core';
