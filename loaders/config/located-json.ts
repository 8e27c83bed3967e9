// JSON (RFC 8259, as strict as JSON.parse) read with the line of every object member, so that a
// settings file's mistake, in its syntax or in a value, is reported as file:line.

/** A syntax error, or a member named twice in one object, at a 1-based line. */
export class JsonLineError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** A parsed document: the value as JSON.parse gives it, and where each object member's name stands. */
export interface LocatedJson {
  readonly value: unknown;
  /** Line of the document's value (after leading white space). */
  readonly line: number;
  /** Line of member `name` of `object` (an object of `value`), or the document's line when it has none. */
  lineOf(object: object, name: string): number;
}

/** Objects nested deeper than this are refused (a settings file needs three). */
const MAX_DEPTH = 64;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Parses `text` as one JSON value. Accepts exactly what JSON.parse accepts and gives the same
 * value, except that a member name given twice in one object is an error (JSON.parse keeps
 * the last): in a settings file it is a mistake. Throws {@link JsonLineError}.
 */
export function parseLocatedJson(text: string): LocatedJson {
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines.push(i);
  /** 1-based line of offset `at`: one more than the newlines before it. */
  const lineAt = (at: number): number => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (newlines[mid] < at) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  const lines = new WeakMap<object, Map<string, number>>();
  let pos = 0;
  /** The first member named twice: reported once the whole text reads as JSON (a syntax error after it comes first). */
  let twice: JsonLineError | null = null;

  const fail = (reason: string, at = pos): never => {
    throw new JsonLineError(lineAt(at), reason);
  };
  const shown = (at: number): string =>
    at >= text.length ? 'the end of the file' : `'${text[at] === '\n' ? '\\n' : text[at]}'`;
  const space = (): void => {
    for (
      let c = text.charCodeAt(pos);
      c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
      c = text.charCodeAt(++pos)
    );
  };

  function value(depth: number): unknown {
    space();
    const c = text[pos];
    if (c === '{') return object(depth + 1);
    if (c === '[') return array(depth + 1);
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return v;
      }
    }
    return fail(`expected a value, found ${shown(pos)}`);
  }

  function object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) fail(`objects and arrays nested deeper than ${MAX_DEPTH}`);
    pos++; // {
    const out: Record<string, unknown> = {};
    const at = new Map<string, number>();
    lines.set(out, at);
    space();
    if (text[pos] === '}') return (pos++, out);
    for (;;) {
      space();
      if (text[pos] !== '"') fail(`expected a member name in double quotes, found ${shown(pos)}`);
      const line = lineAt(pos);
      const name = string();
      if (at.has(name))
        twice ??= new JsonLineError(
          lineAt(pos - 1),
          `'${name}' is given twice in one object (first on line ${at.get(name)})`,
        );
      else at.set(name, line);
      space();
      if (text[pos] !== ':') fail(`expected ':' after the member name '${name}', found ${shown(pos)}`);
      pos++;
      // As JSON.parse does: an own property even for "__proto__", never the prototype.
      Object.defineProperty(out, name, { value: value(depth), enumerable: true, writable: true, configurable: true });
      space();
      if (text[pos] === ',') pos++;
      else if (text[pos] === '}') return (pos++, out);
      else fail(`expected ',' or '}' after a member, found ${shown(pos)}`);
    }
  }

  function array(depth: number): unknown[] {
    if (depth > MAX_DEPTH) fail(`objects and arrays nested deeper than ${MAX_DEPTH}`);
    pos++; // [
    const out: unknown[] = [];
    space();
    if (text[pos] === ']') return (pos++, out);
    for (;;) {
      out.push(value(depth));
      space();
      if (text[pos] === ',') pos++;
      else if (text[pos] === ']') return (pos++, out);
      else fail(`expected ',' or ']' after an element, found ${shown(pos)}`);
    }
  }

  function string(): string {
    const start = pos;
    pos++; // "
    let out = '';
    let from = pos;
    for (;;) {
      if (pos >= text.length) fail('a string is not closed', start);
      const c = text.charCodeAt(pos);
      if (c === 0x22) break;
      if (c < 0x20) fail('a control character (a line break?) inside a string');
      if (c !== 0x5c) {
        pos++;
        continue;
      }
      out += text.slice(from, pos);
      const e = text[pos + 1];
      if (e === 'u') {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('\\u must be followed by four hex digits');
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        pos += 2;
      } else {
        fail(`unknown escape \\${e ?? ''} in a string`);
      }
      from = pos;
    }
    out += text.slice(from, pos);
    pos++; // "
    return out;
  }

  function number(): number {
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m === null) return fail(`expected a number, found ${shown(pos)}`);
    const next = text[pos + m[0].length];
    if (next !== undefined && /[0-9.eE+-]/.test(next))
      fail(`malformed number ${text.slice(pos, pos + m[0].length + 1)}`);
    pos += m[0].length;
    return Number(m[0]);
  }

  space();
  const line = lineAt(pos);
  const v = value(0);
  space();
  if (pos < text.length) fail(`unexpected ${shown(pos)} after the JSON value`);
  if (twice !== null) throw twice;
  return {
    value: v,
    line,
    lineOf: (object, name) => lines.get(object)?.get(name) ?? line,
  };
}
