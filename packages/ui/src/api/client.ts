/**
 * The one way the UI talks to the service: JSON over fetch to the public `/api/v1`, `/auth/v1`
 * and `/evaluate/v1` routes, with the caller's credential (the browser session's cookie, plus its
 * CSRF token on writes) and errors turned into `ApiError`s that name their field.
 */
import { fieldOfMessage } from '../lib/field-errors.js';
import { messageText, type UserMessage, userMessage } from '../lib/user-messages.js';

/** The header a browser session's CSRF token travels in (`GET /auth/v1/self` hands it out). */
export const CSRF_HEADER = 'X-CSRF-Token';

/**
 * An answer other than 2xx, with Flipt's `{code, message}` body when the service sent one. Its
 * `message` is the sentence the UI shows (`userMessage`, with its links in `shown`); the service's
 * own words stay in `serviceMessage`.
 */
export class ApiError extends Error {
  /** The request field the message names (`key`, `threshold.percentage` …), when it names one. */
  readonly field: string | undefined;
  readonly serviceMessage: string;
  /** What the UI shows, with links to the resources it names. */
  readonly shown: UserMessage;

  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    const shown = userMessage(message);
    super(messageText(shown));
    this.name = 'ApiError';
    this.serviceMessage = message;
    this.shown = shown;
    this.field = fieldOfMessage(message);
  }
}

type Listener = () => void;

let csrfToken: string | undefined;
let sessionNamespace: string | undefined;
const unauthenticatedListeners = new Set<Listener>();

/** Remembers the CSRF token of the browser session for the writes that follow. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/**
 * The one namespace a session opened with a namespace-scoped token may touch (undefined: any).
 * The service answers such a session 401 everywhere else, which would end it: the calls that are
 * not about one namespace (the namespace list) ask about this one instead.
 */
export function setSessionNamespace(namespace: string | undefined): void {
  sessionNamespace = namespace;
}

export function scopedNamespace(): string | undefined {
  return sessionNamespace;
}

/**
 * Calls `listener` whenever the service answers 401: the credential is gone or was never there.
 * Never for a 403: the session is valid but may not make that call, so it stays, and the refusal
 * is shown where it happened.
 */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

export interface RequestOptions {
  /** Do not tell the listeners about a 401 (the sign-in probes expect one). */
  quiet401?: boolean;
  signal?: AbortSignal;
  /** Headers of the route's own (OFREP's namespace travels in `X-Flipt-Namespace`). */
  headers?: Record<string, string>;
}

/** The answer's body and headers, for the callers that need a header (the CSRF token). */
export interface RawResponse<T> {
  body: T;
  headers: Headers;
}

const WRITES = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/** What goes over the wire: a body already serialised, with its Content-Type, and what is accepted back. */
export interface Wire {
  body?: string;
  contentType?: string;
  accept: string;
}

/** Sends one request with the caller's credential; a non-2xx answer is thrown as an `ApiError`. */
async function send(method: string, path: string, wire: Wire, options: RequestOptions): Promise<{ text: string; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers, Accept: wire.accept };
  if (wire.contentType !== undefined) headers['Content-Type'] = wire.contentType;
  if (csrfToken !== undefined && WRITES.has(method)) headers[CSRF_HEADER] = csrfToken;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(wire.body === undefined ? {} : { body: wire.body }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 14, 'the service could not be reached; check your connection and try again');
  }
  const text = await response.text();
  if (!response.ok) {
    const error = parseJson(text) as { code?: unknown; message?: unknown } | undefined;
    const message = typeof error?.message === 'string' && error.message !== '' ? error.message : `${response.status} ${response.statusText}`.trim();
    if (response.status === 401 && !options.quiet401) for (const listener of unauthenticatedListeners) listener();
    throw new ApiError(response.status, typeof error?.code === 'number' ? error.code : 0, message);
  }
  return { text, headers: response.headers };
}

const parseJson = (text: string): unknown => {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Sends one request; resolves the parsed JSON body (undefined for an empty one). */
export async function requestRaw<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<RawResponse<T>> {
  const wire: Wire = body === undefined ? { accept: 'application/json' } : { accept: 'application/json', body: JSON.stringify(body), contentType: 'application/json' };
  const { text, headers } = await send(method, path, wire, options);
  return { body: parseJson(text) as T, headers };
}

/** A request whose body or answer is not JSON (a YAML document): the text goes as is and comes back as is. */
export async function requestText(method: string, path: string, wire: Wire, options: RequestOptions = {}): Promise<string> {
  return (await send(method, path, wire, options)).text;
}

/** Sends one request; resolves the parsed JSON body. */
export async function request<T>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<T> {
  return (await requestRaw<T>(method, path, body, options)).body;
}

/** Encodes one path segment (keys may hold characters such as `:`). */
export const seg = (value: string): string => encodeURIComponent(value);
