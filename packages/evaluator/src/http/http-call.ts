/** One HTTP request as the evaluator's routes see it, and the input it hands to an evaluation. */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Fields } from '@ensign/core';
import type { EvaluationInput } from '../request/evaluation-operation.js';
import type { OutputStyle } from './respond.js';

/** What a route answers through. */
export interface HttpCall {
  res: ServerResponse;
  headers: IncomingHttpHeaders;
  style: OutputStyle;
}

/** A request's first value of a header. */
export const headerValue = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The evaluation input of an HTTP request: its parsed body, path parameters and headers. */
export class HttpInput implements EvaluationInput {
  constructor(
    readonly body: Fields,
    readonly params: readonly string[],
    private readonly headers: IncomingHttpHeaders,
  ) {}

  header(name: string): string | undefined {
    return headerValue(this.headers, name);
  }
}
