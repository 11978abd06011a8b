/**
 * How a stream's message names the write it carries: write N sets the watched flag's description to
 * `seq-` and N in six digits, so every message (a full snapshot of the namespace) holds
 * `"description":"seq-000017"` and all messages have the same size whatever N.
 */
import { performance } from 'node:perf_hooks';

export const SEQ_DIGITS = 6;
export const MARKER = Buffer.from('"description":"seq-', 'latin1');

export const seqDescription = (seq: number): string => `seq-${String(seq).padStart(SEQ_DIGITS, '0')}`;

/** One clock for every process of the run (all on this machine), in ms. */
export const clock = (): number => performance.timeOrigin + performance.now();

/** The seq of the first marker in `text`, or undefined. */
export function seqIn(text: string): number | undefined {
  const at = text.indexOf(MARKER.toString('latin1'));
  if (at < 0) return undefined;
  const digits = text.slice(at + MARKER.length, at + MARKER.length + SEQ_DIGITS);
  return /^\d+$/.test(digits) ? Number(digits) : undefined;
}

/** `line` with its marker's seq replaced by `seq` (same length). */
export function withSeq(line: string, seq: number): string {
  const at = line.indexOf(MARKER.toString('latin1'));
  if (at < 0) throw new Error('the line carries no seq marker');
  const start = at + MARKER.length;
  return line.slice(0, start) + String(seq).padStart(SEQ_DIGITS, '0') + line.slice(start + SEQ_DIGITS);
}
