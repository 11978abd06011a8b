/** A small JSON client over fetch for black-box tests of the HTTP API. */

/** A response with its body parsed as JSON when it is JSON (else the raw text). */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Request bodies: a value is sent as JSON; a string is sent exactly as given (for malformed input). */
export type RequestBody = unknown;

/** The methods of the management API, relative to a base URL. */
export interface JsonClient {
  readonly baseUrl: string;
  request<T = any>(method: string, path: string, body?: RequestBody, headers?: Record<string, string>): Promise<JsonResponse<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<JsonResponse<T>>;
  post<T = any>(path: string, body?: RequestBody, headers?: Record<string, string>): Promise<JsonResponse<T>>;
  put<T = any>(path: string, body?: RequestBody, headers?: Record<string, string>): Promise<JsonResponse<T>>;
  del<T = any>(path: string, headers?: Record<string, string>): Promise<JsonResponse<T>>;
}

/**
 * fetch's own error says only "fetch failed"; the cause (refused, reset, a timeout) is what tells
 * a dead server from a dropped connection. Still a TypeError, as callers that retry expect.
 */
function connectionFailure(method: string, url: string, err: unknown): unknown {
  if (!(err instanceof TypeError)) return err;
  const cause = err.cause as { code?: string; message?: string } | undefined;
  const why = cause === undefined ? '' : `: ${[cause.code, cause.message].filter(Boolean).join(' ')}`;
  return new TypeError(`${method} ${url}: ${err.message}${why}`, { cause: err.cause });
}

/** Creates a client for `baseUrl` (for example `http://127.0.0.1:8080`). */
export function jsonClient(baseUrl: string): JsonClient {
  const request = async <T>(method: string, path: string, body?: RequestBody, headers: Record<string, string> = {}): Promise<JsonResponse<T>> => {
    const init: RequestInit = { method, headers: { Accept: 'application/json', ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) };
    }
    const res = await fetch(`${baseUrl}${path}`, init).catch((err: unknown) => {
      throw connectionFailure(method, `${baseUrl}${path}`, err);
    });
    const text = await res.text();
    let parsed: unknown = text;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    } else {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  return {
    baseUrl,
    request,
    get: (path, headers) => request('GET', path, undefined, headers),
    post: (path, body, headers) => request('POST', path, body, headers),
    put: (path, body, headers) => request('PUT', path, body, headers),
    del: (path, headers) => request('DELETE', path, undefined, headers),
  };
}
