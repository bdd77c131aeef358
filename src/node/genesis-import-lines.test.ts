import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ImportLine, parseImportLine } from './genesis-import-lines.js';

const KEY = `ed0120${'3B'.repeat(32)}`;
const ID = `${KEY}@scale`;

/** What parseImportLine gives for `text`: the line, or the error's message. */
function outcome(text: string): ImportLine | undefined | string {
  try {
    return parseImportLine(text, 7);
  } catch (e) {
    return (e as Error).message;
  }
}

/** The same JSON written with spaces: never the compact form, so read through JSON.parse. */
function spaced(text: string): string {
  return JSON.stringify(JSON.parse(text), null, 1).replace(/\n/g, ' ');
}

describe('genesis import lines', () => {
  it('reads a compact account line as JSON.parse reads it: ids, balances, their order, errors', () => {
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`c${i}#scale`, `${i + 1}`]));
    const lines = [
      `{"account":"${ID}","balances":{"coin#scale":"12.50"}}`,
      `{"account":"${ID}","balances":{"coin#scale":"1","pts#club":"0.25"}}`,
      `{"account":"${ID}","balances":{}}`,
      // A key given twice: JSON.parse keeps the last value at the first key's place.
      `{"account":"${ID}","balances":{"coin#scale":"1","pts#club":"2","coin#scale":"3"}}`,
      // Array-index keys come first in Object.entries.
      `{"account":"${ID}","balances":{"pts#club":"1","7":"2","05":"3"}}`,
      `{"account":"${ID}","balances":{"__proto__":"4","":"5"}}`,
      `{"account":"${ID}","balances":${JSON.stringify(many)}}`,
      // An escape in the id or a key.
      `{"account":"\\u0065d0120${'3B'.repeat(32)}@scale","balances":{"coin\\u0023scale":"1"}}`,
      `{"account":"alice@scale","balances":{"coin#scale":"1"}}`,
      `{"account":"${KEY.toLowerCase()}@scale","balances":{}}`,
      `{"account":"${ID}","balances":{"coin#scale":"x"}}`,
      `{"account":"${ID}","balances":{"coin#scale":12}}`,
      `{"account":"${ID}","balances":{"coin#scale":"1"},"extra":1}`,
      `{"account":"${ID}","balances":[]}`,
      `{"account":"alice@scale","balances":[]}`,
      `{"account":"${ID}"}`,
      `{"account":"${ID}","balances":{"coin#scale":"1"}} `,
    ];
    let compact = 0;
    for (const text of lines) {
      const got = outcome(text);
      assert.deepEqual(got, outcome(spaced(text)), text);
      if (typeof got === 'object' && got.kind === 'account') {
        compact++;
        assert.equal(got.domain, 'scale');
      }
    }
    assert.ok(compact >= 8, `${compact} lines read`);
    const one = parseImportLine(lines[0]!, 1);
    assert.deepEqual(one, {
      kind: 'account',
      id: ID,
      domain: 'scale',
      balances: [{ definition: 'coin#scale', text: '12.50', amount: { mantissa: 1250n, scale: 2 } }],
    });
    const twice = parseImportLine(lines[3]!, 1);
    assert.deepEqual(twice?.kind === 'account' && twice.balances.map((b) => [b.definition, b.text]), [
      ['coin#scale', '3'],
      ['pts#club', '2'],
    ]);
  });

  it('refuses a compact-looking line that is not JSON, naming the line', () => {
    for (const text of [
      `{"account":"${ID}","balances":{"coin#scale":"1",}}`,
      `{"account":"${ID}","balances":{"coin#scale":"1"}}x`,
      `{"account":"${ID}\t","balances":{}}`,
      `{"account":"${ID}","balances":{"coin#scale":"1"}`,
      `{"account":"${ID}","balances":{"coin#scale":"1}}`,
    ])
      assert.match(String(outcome(text)), /^line 7: not JSON/, text);
  });
});
