// The forms users type for a symbol: exchange suffixes, Hong Kong numbers, bare tickers, crypto
// separators and bare codes, in any case; ambiguous bare codes resolve to nothing but list every match.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SymbolIndex, TYPED_CHARACTERS } from '../../engine/dataset/symbol-index.js';

const indexOf = (market: string, codes: string[]): SymbolIndex =>
  new SymbolIndex(
    codes,
    { names: codes.map(() => null), marketNames: codes.map(() => null), marketTypes: codes.map(() => null) },
    market,
  );

/** The canonical code `text` finds, or null. */
const found = (symbols: SymbolIndex, text: string): string | null => {
  const i = symbols.find(text);
  return i < 0 ? null : symbols.codes[i];
};

test('mainland codes: .SH, .SS, .SZ and .BJ suffixes in any case, and the bare number', () => {
  const ashare = indexOf('ashare', ['bj830799', 'sh600000', 'sh600519', 'sz000001', 'sz300750']);
  for (const [text, code] of [
    ['600000.SH', 'sh600000'],
    ['600000.ss', 'sh600000'],
    ['600519.Ss', 'sh600519'],
    ['000001.SZ', 'sz000001'],
    ['300750.sz', 'sz300750'],
    ['830799.BJ', 'bj830799'],
    ['600000', 'sh600000'],
    ['000001', 'sz000001'],
    ['SH600000', 'sh600000'],
  ])
    assert.equal(found(ashare, text), code, text);
  for (const text of ['600000.SZ', '000001.SH', '1', '600000.HK', '600000.US', 'sh60000', '600000.'])
    assert.equal(found(ashare, text), null, text);
});

test('a bare number two symbols share resolves to neither; matches lists both, ascending', () => {
  const indices = indexOf('indices', ['hkHSI', 'sh000001', 'sh000300', 'sz000001', 'sz399001']);
  assert.equal(found(indices, '000001'), null);
  assert.deepEqual(
    indices.matches('000001').map((i) => indices.codes[i]),
    ['sh000001', 'sz000001'],
  );
  assert.equal(found(indices, '000001.SH'), 'sh000001');
  assert.equal(found(indices, '000001.sz'), 'sz000001');
  assert.equal(found(indices, '000300'), 'sh000300');
  assert.equal(found(indices, 'hshi'), null);
});

test('Hong Kong: the number with or without leading zeros, with or without .HK', () => {
  const hk = indexOf('hkstock', ['hk00005', 'hk00700', 'hk09988']);
  for (const [text, code] of [
    ['0700.HK', 'hk00700'],
    ['00700.hk', 'hk00700'],
    ['700.HK', 'hk00700'],
    ['700', 'hk00700'],
    ['0700', 'hk00700'],
    ['9988.HK', 'hk09988'],
    ['5', 'hk00005'],
    ['HK00700', 'hk00700'],
  ])
    assert.equal(found(hk, text), code, text);
  for (const text of ['070', '7000', '0700.SH', '.HK']) assert.equal(found(hk, text), null, text);
});

test('usstock: the bare ticker and TICKER.US in any case, only in usstock', () => {
  const us = indexOf('usstock', ['usAAPL', 'usBRK.B', 'usMSFT']);
  for (const [text, code] of [
    ['AAPL', 'usAAPL'],
    ['aapl', 'usAAPL'],
    ['AAPL.US', 'usAAPL'],
    ['brk.b', 'usBRK.B'],
    ['BRK.B.US', 'usBRK.B'],
    ['usmsft', 'usMSFT'],
  ])
    assert.equal(found(us, text), code, text);
  assert.equal(found(us, 'AAP'), null);
  // Elsewhere a code starting with "us" is not a ticker behind a prefix.
  const crypto = indexOf('crypto', ['BTCUSDT', 'USDCUSDT']);
  assert.equal(found(crypto, 'DCUSDT'), null);
});

test('a ticker that is also another code in another case names both: no answer of the wrong company', () => {
  const us = indexOf('usstock', ['usO', 'usUSO']);
  assert.equal(found(us, 'usO'), 'usO', 'the canonical code as written');
  assert.equal(found(us, 'usUSO'), 'usUSO');
  assert.equal(found(us, 'USO.US'), 'usUSO', 'the ticker with its suffix is one');
  for (const text of ['USO', 'uso'])
    assert.deepEqual(
      us.matches(text).map((i) => us.codes[i]),
      ['usO', 'usUSO'],
      `${text}: usO in another case, or the ticker of usUSO`,
    );
  assert.equal(found(us, 'USO'), null);
});

test('separators and internal keys are not forms: 600-000, #700 and a NUL prefix name nothing', () => {
  const ashare = indexOf('ashare', ['sh600000']);
  const hk = indexOf('hkstock', ['hk00700']);
  for (const text of ['600-000', '6_0_0_0_0_0', '600/000']) assert.equal(found(ashare, text), null, text);
  for (const text of ['#700', '\u0000hk700', '%23700']) assert.equal(found(hk, text), null, text);
});

test('crypto: BTC-USDT, BTC/USDT and BTC_USDT in any case name BTCUSDT', () => {
  const crypto = indexOf('crypto', ['BTCUSDT', 'ETHBTC', 'ETHUSDT']);
  for (const text of ['BTC-USDT', 'btc/usdt', 'Btc_Usdt', 'btcusdt'])
    assert.equal(found(crypto, text), 'BTCUSDT', text);
  assert.equal(found(crypto, 'ETH-BTC'), 'ETHBTC');
  assert.equal(found(crypto, 'BTC-ETH'), null);
  assert.equal(found(indexOf('crypto', ['1INCHUSDT']), '1INCH-USDT'), '1INCHUSDT', 'a pair with digits');
});

test('a form asked again finds what it found the first time, unknown and ambiguous ones too, and after a flood of made-up texts', () => {
  const ashare = indexOf('ashare', ['bj830799', 'sh000001', 'sh600000', 'sz000001', 'sz300750']);
  const texts = ['600000.SH', 'sh600000', 'SZ000001', '000001', '000001.sz', '830799', 'nope', '600000.SZ'];
  const first = texts.map((t) => found(ashare, t));
  assert.deepEqual(first, ['sh600000', 'sh600000', 'sz000001', null, 'sz000001', 'bj830799', null, null]);
  assert.deepEqual(
    texts.map((t) => found(ashare, t)),
    first,
    'asked again',
  );
  // more characters of made-up texts than a symbol index keeps: it starts over, answering the same
  for (let k = 0; k * 12 < 3 * TYPED_CHARACTERS; k++) assert.equal(ashare.find(`made-up-${k}`), -1);
  assert.deepEqual(
    texts.map((t) => found(ashare, t)),
    first,
    'after the flood',
  );
});

test('a form read in place from a longer text (a list as sent) finds what the form alone finds: part of a code names nothing', () => {
  const codes = ['bj830799', 'sh000001', 'sh600000', 'sh600001', 'sz000001', 'sz300750'];
  const ashare = indexOf('ashare', codes);
  const forms = [...codes, '600000.SH', 'SH600000', 'sh60000', 'h600000', 'sh6000001', '000001', '830799', 'nope', ''];
  const text = `x${forms.join(',')}sh600000`; // each form between commas, and codes touching the ends
  const alone = indexOf('ashare', codes); // a second index: its answers are not the first's kept forms
  let from = 1;
  for (const form of forms) {
    const i = ashare.findIn(text, from, from + form.length);
    assert.equal(i, alone.find(form), `${JSON.stringify(form)} at ${from}`);
    from += form.length + 1;
  }
  assert.equal(from - 1 + 'sh600000'.length, text.length);
  assert.equal(ashare.findIn(text, from - 1, text.length), codes.indexOf('sh600000'), 'a code ending the text');
  assert.equal(ashare.findIn(text, 0, 9), -1, 'x and a code: not the code');
  assert.equal(found(ashare, 'sh60000'), null);
  assert.equal(found(ashare, 'sh6000001'), null);
});
