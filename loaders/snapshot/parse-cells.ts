// Cell shape rules of snapshot files that are not numbers or dates.

/** Symbols travel in URL paths and query lists: letters, digits, dot, dash, underscore. */
const SYMBOL_SHAPE = /^[A-Za-z0-9._-]{1,32}$/;

export function isValidSymbol(text: string): boolean {
  return SYMBOL_SHAPE.test(text);
}
