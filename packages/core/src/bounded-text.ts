/**
 * Input quoted back in a message is cut to a bounded length, with its length named: an answer never
 * grows with its input. (gRPC carries the message in a trailer, which a peer refuses past its header
 * size limit: an unbounded echo there means a call that is never answered.)
 */

/** Characters of one quoted input kept in a message. */
export const MAX_QUOTED_INPUT = 256;

/** The longest message any error carries, whatever it quotes. */
export const MAX_ERROR_MESSAGE = 2048;

/** `value`, or its first `max` characters and how long it was. */
export function boundedInput(value: string, max = MAX_QUOTED_INPUT): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

/**
 * A refusal's message with what it quotes bounded: messages quote the input they refuse in double
 * quotes, so each stretch between quotes (a quoted input, or the words around it) is cut to
 * `max` characters with its length named. Splitting at every quote also cuts an input that holds
 * quotes itself, piece by piece.
 */
export function boundedQuotes(message: string, max = MAX_QUOTED_INPUT): string {
  return message.length <= max ? message : message.split('"').map((part) => (alreadyBounded(part, max) ? part : boundedInput(part, max))).join('"');
}

const BOUNDED_MARK = /… \(\d+ characters\)/;

/**
 * A stretch its author bounded already (`ns/<key cut>… (N characters)`): cutting it again would name
 * the length of the cut text instead of the input's. Only a short one counts, so an input that
 * merely contains the mark is still cut.
 */
const alreadyBounded = (part: string, max: number): boolean => part.length <= 2 * max && BOUNDED_MARK.test(part);

/** A whole message cut to `MAX_ERROR_MESSAGE` characters. */
export function boundedMessage(message: string): string {
  return message.length <= MAX_ERROR_MESSAGE ? message : `${message.slice(0, MAX_ERROR_MESSAGE)}… (message of ${message.length} characters cut)`;
}
