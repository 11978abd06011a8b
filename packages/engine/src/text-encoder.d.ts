/**
 * The part of the WHATWG `TextEncoder` the engine uses. It is a global in every JS runtime, but the
 * engine compiles without DOM or Node typings so that nothing else leaks in.
 */
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
