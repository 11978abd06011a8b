/** The module hooks `module-trace.ts` registers: they run off the main thread and see every ES module resolution. */
import { appendFileSync } from 'node:fs';
import type { InitializeHook, ResolveHook } from 'node:module';

/** What `register` hands `initialize`. */
export interface TraceData {
  file: string;
}

let file = '';

export const initialize: InitializeHook<TraceData> = (data) => {
  file = data.file;
};

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
};
