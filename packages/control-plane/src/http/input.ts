import { type Fields, isFields, type PathParams } from '@ensign/core';
import type { AppContext } from './app-state.js';

/** The parsed JSON body; the body middleware has already refused anything but an object. */
export const bodyOf = (ctx: AppContext): Fields => (isFields(ctx.request.body) ? ctx.request.body : {});

/** Query parameters, first value of a repeated one. */
export function queryOf(ctx: AppContext): Fields {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[name] = first;
  }
  return out;
}

/** Path parameters, named after the request fields they fill. */
export const paramsOf = (ctx: AppContext): PathParams => ctx.params;
