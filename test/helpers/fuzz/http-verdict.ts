/** What every HTTP answer must be: no server error, and an error message that is bounded. */
import type { HttpAnswer } from './http-send.js';
import { unboundedMessage } from './message-bounds.js';

/** COMPAT(flipt): grpc-gateway answers a method a known path does not serve with 501 and code 12 (HEAD: no body). */
function methodNotAllowed(answer: HttpAnswer, method: string): boolean {
  if (answer.status !== 501) return false;
  if (method === 'HEAD') return answer.text === '';
  try {
    const body = JSON.parse(answer.text) as { code?: unknown; message?: unknown };
    return body.code === 12 && body.message === 'Method Not Allowed';
  } catch {
    return false;
  }
}

/** The message of an error body: Flipt's `message`, OFREP's `errorDetails`, or the text itself. */
function messageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; errorDetails?: unknown };
    if (typeof body.message === 'string') return body.message;
    if (typeof body.errorDetails === 'string') return body.errorDetails;
  } catch {
    // Not JSON: the text is the message.
  }
  return text;
}

/** Why `answer` is wrong, or undefined. */
export function httpFault(answer: HttpAnswer, method: string): string | undefined {
  if (answer.status >= 500 && !methodNotAllowed(answer, method)) return `HTTP ${answer.status}`;
  if (answer.status >= 400) return unboundedMessage(messageOf(answer.text));
  return undefined;
}
