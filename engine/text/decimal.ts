// Strict decimal parsing shared by snapshot files and query parameters: no Number() leniency.

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const STRICT_DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Parses a plain decimal (`-12.5`, `3`, `1e-4`) and returns NaN for anything else
 * (`''`, `' 1'`, `0x10`, `Infinity`, `1,000`). Callers treat `''` as null before calling.
 */
export function parseDecimal(text: string): number {
  // Fast path: up to 15 significant digits and no exponent. m / 10^k with m < 2^53 and
  // k ≤ 22 is one correctly rounded division, so it equals Number(text) exactly.
  const len = text.length;
  let i = 0;
  let negative = false;
  const first = text.charCodeAt(0);
  if (first === 45 || first === 43) {
    negative = first === 45;
    i = 1;
  }
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === 46 && fraction < 0) {
      fraction = 0;
    } else {
      return slowParse(text);
    }
  }
  if (digits === 0) return NaN;
  if (digits > 15 || fraction > 22) return slowParse(text);
  const value = fraction > 0 ? mantissa / POW10[fraction] : mantissa;
  return negative ? -value : value;
}

function slowParse(text: string): number {
  if (!STRICT_DECIMAL.test(text)) return NaN;
  const value = Number(text);
  return Number.isFinite(value) ? value : NaN;
}
