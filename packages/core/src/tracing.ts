/**
 * Tracing as the packages see it: a process installs one `Tracing` at start when `tracing.enabled`
 * is set (the CLI's OpenTelemetry SDK), and code that has something worth a span asks for it. With
 * none installed, `activeTracing()` is undefined and instrumented paths run exactly as untraced
 * ones: no span objects, no context switching, no SDK loaded.
 */

export type SpanAttributes = Record<string, string | number | boolean>;

/** Incoming headers or gRPC metadata carrying a remote parent (`traceparent`, `baggage`). */
export type TraceCarrier = Readonly<Record<string, string | string[] | undefined>>;

export interface TraceSpan {
  setAttributes(attributes: SpanAttributes): void;
  /** Names the span once what it is about is known (an HTTP route after routing). */
  rename(name: string): void;
  /** Marks the span failed, with the error recorded. */
  fail(err: unknown): void;
}

export interface Tracing {
  /**
   * Runs `work` inside a new span, a child of the active span or of the remote parent in `carrier`;
   * the span ends when `work` returns or, for a promise, settles (failed when it throws or rejects).
   */
  inSpan<T>(name: string, attributes: SpanAttributes, work: (span: TraceSpan) => T, carrier?: TraceCarrier): T;
}

let installed: Tracing | undefined;

/** Installs the process's tracing (undefined uninstalls it). */
export function installTracing(tracing: Tracing | undefined): void {
  installed = tracing;
}

/** The process's tracing, or undefined when tracing is off. */
export function activeTracing(): Tracing | undefined {
  return installed;
}

/** `work` in a span when tracing is on, else `work` alone. */
export function traced<T>(name: string, attributes: SpanAttributes, work: (span: TraceSpan | undefined) => T): T {
  const tracing = installed;
  return tracing === undefined ? work(undefined) : tracing.inSpan(name, attributes, work);
}
