/**
 * Go's `strconv.ParseFloat(s, 64)` acceptance: decimal and hexadecimal (`0x1.8p3`, exponent required)
 * literals, `_` digit separators placed as Go allows, `inf`/`infinity` (signed) and `nan` in any case.
 * Overflow to ±Inf is an error in Go (ErrRange), so it is a failure here too.
 */

const DECIMAL = /^[+-]?(?:[\d_]+\.?[\d_]*|\.[\d_]+)(?:[eE][+-]?[\d_]+)?$/;
const HEX = /^([+-]?)0[xX]([\da-fA-F_]*)(?:\.([\da-fA-F_]*))?[pP]([+-]?[\d_]+)$/;
const SPECIAL = /^(?:[+-]?(?:inf|infinity)|nan)$/i;

/** The parsed number, or `undefined` when Go would return an error. */
export function goParseFloat(s: string): number | undefined {
  // Fast path for the common shapes: an optional sign, then digits with at most one dot.
  const n = s.length;
  let i = 0;
  let digits = 0;
  let dot = false;
  let integer = 0;
  const first = s.charCodeAt(0);
  if (first === 0x2b || first === 0x2d) i = 1;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      digits++;
      integer = integer * 10 + (c - 0x30);
    } else if (c === 0x2e && !dot) {
      dot = true;
    } else {
      return parseUnusual(s);
    }
  }
  if (digits === 0) return undefined;
  // Up to 15 digits an integer is exact in a double, so the sum above is what Number() would give.
  if (!dot && digits <= 15) return first === 0x2d ? -integer : integer;
  return finite(Number(s));
}

function parseUnusual(s: string): number | undefined {
  if (SPECIAL.test(s)) {
    const c = s.charCodeAt(0);
    if (c === 0x6e || c === 0x4e) return NaN;
    return c === 0x2d ? -Infinity : Infinity;
  }
  if (DECIMAL.test(s)) {
    if (!s.includes('_')) return finite(Number(s));
    return underscoresOk(s) ? finite(Number(s.replaceAll('_', ''))) : undefined;
  }
  const hex = HEX.exec(s);
  if (hex === null || !underscoresOk(s)) return undefined;
  return parseHex(hex[1] === '-', hex[2] ?? '', hex[3] ?? '', hex[4] ?? '0');
}

function parseHex(negative: boolean, whole: string, fraction: string, exponent: string): number | undefined {
  const intDigits = whole.replaceAll('_', '');
  const fracDigits = fraction.replaceAll('_', '');
  if (intDigits.length + fracDigits.length === 0) return undefined;
  const mantissa = BigInt('0x0' + intDigits + fracDigits);
  const binaryExponent = Number(exponent.replaceAll('_', '')) - 4 * fracDigits.length;
  const value = Number.isFinite(Number(mantissa))
    ? scale(Number(mantissa), binaryExponent)
    : scaleHuge(mantissa, binaryExponent);
  return finite(negative ? -value : value);
}

/** m·2^e in two steps, so that 2^e alone never overflows or underflows when the product would not. */
function scale(m: number, e: number): number {
  const half = Math.trunc(e / 2);
  return m * 2 ** half * 2 ** (e - half);
}

function scaleHuge(mantissa: bigint, binaryExponent: number): number {
  const shift = mantissa.toString(2).length - 64;
  return scale(Number(mantissa >> BigInt(shift)), binaryExponent + shift);
}

/** Go's `underscoreOK`: `_` only between digits, or between a base prefix and a digit. */
function underscoresOk(s: string): boolean {
  let i = 0;
  if (s[0] === '+' || s[0] === '-') i = 1;
  let saw = '^';
  let hex = false;
  if (s.length - i >= 2 && s[i] === '0' && /[bBoOxX]/.test(s[i + 1] ?? '')) {
    hex = s[i + 1] === 'x' || s[i + 1] === 'X';
    i += 2;
    saw = '0';
  }
  for (; i < s.length; i++) {
    const c = s[i] ?? '';
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

function finite(n: number): number | undefined {
  return n === Infinity || n === -Infinity ? undefined : n;
}
