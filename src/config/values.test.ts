import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bool, CONFIG_STRING_LENGTH_MAX, int, list, oneOf, str } from './spec.js';
import { type Checked, checkValue, parseText } from './values.js';

const port = int(8080, 0, 65_535, 'port');
const big = int(1, 1, 2 ** 40, 'big');

function value(r: Checked): unknown {
  assert.ok(r.ok, r.ok ? '' : r.problem);
  return r.value;
}
function problem(r: Checked): string {
  assert.ok(!r.ok, 'expected a problem');
  return r.problem;
}

describe('parseText (environment and flag strings)', () => {
  it('parses plain decimal integers', () => {
    assert.equal(value(parseText(port, '0')), 0);
    assert.equal(value(parseText(port, '9000')), 9000);
    assert.equal(value(parseText(port, '65535')), 65535);
    assert.equal(value(parseText(big, '1099511627776')), 2 ** 40);
  });

  for (const text of [
    '08',
    '00',
    '1e3',
    '-1',
    '+5',
    ' 5',
    '5 ',
    '0x10',
    '1_000',
    '1.0',
    '',
    '٣',
    '99999999999999999999',
  ]) {
    it(`refuses the integer text ${JSON.stringify(text)}`, () => {
      const p = problem(parseText(port, text));
      assert.match(p, /an integer in 0\.\.65535/);
      assert.ok(p.includes(JSON.stringify(text)), p);
    });
  }

  it('refuses integers outside the bounds', () => {
    assert.match(problem(parseText(port, '65536')), /0\.\.65535, got "65536"/);
    assert.match(problem(parseText(int(5, 1, 10, 'x'), '0')), /1\.\.10/);
    assert.match(problem(parseText(big, '9007199254740993')), /got "9007199254740993"/);
  });

  it('parses booleans strictly', () => {
    const b = bool(false, 'b');
    assert.equal(value(parseText(b, 'true')), true);
    assert.equal(value(parseText(b, 'false')), false);
    for (const t of ['TRUE', '1', 'yes', ' true', ''])
      assert.match(problem(parseText(b, t)), /'true' or 'false'/);
  });

  it('splits lists on commas, trims items, and refuses empty items', () => {
    const l = list([], 'l');
    assert.deepEqual(value(parseText(l, '')), []);
    assert.deepEqual(value(parseText(l, 'a')), ['a']);
    assert.deepEqual(value(parseText(l, 'https://a.example, https://b.example')), [
      'https://a.example',
      'https://b.example',
    ]);
    assert.match(problem(parseText(l, 'a,,b')), /without empty items/);
    assert.match(problem(parseText(l, 'a,')), /without empty items/);
    assert.match(problem(parseText(list(['x'], 'l', { itemsMin: 1 }), '')), /at least 1/);
  });

  it('takes strings as given, and enforces non-empty and length', () => {
    assert.equal(value(parseText(str('', 's'), ' padded ')), ' padded ');
    assert.equal(value(parseText(str('', 's'), '')), '');
    assert.match(problem(parseText(str('x', 's', { nonEmpty: true }), '')), /non-empty string/);
    assert.match(problem(parseText(str('', 's'), 'x'.repeat(CONFIG_STRING_LENGTH_MAX + 1))), /longer than/);
  });

  it('accepts only the values of an enum', () => {
    const e = oneOf(['a', 'b'], 'a', 'e');
    assert.equal(value(parseText(e, 'b')), 'b');
    assert.match(problem(parseText(e, 'B')), /one of 'a', 'b', got "B"/);
  });
});

describe('checkValue (typed values)', () => {
  const toml = { numbersAreFloats: true };
  const typed = { numbersAreFloats: false };

  it('takes TOML integers as bigint and refuses floats', () => {
    assert.equal(value(checkValue(port, 9000n, toml)), 9000);
    assert.match(problem(checkValue(port, 9000, toml)), /got float 9000/);
    assert.match(problem(checkValue(port, 70000n, toml)), /0\.\.65535, got integer 70000/);
    assert.match(problem(checkValue(port, -1n, toml)), /got integer -1/);
  });

  it('takes JS integers from typed overrides', () => {
    assert.equal(value(checkValue(port, 9000, typed)), 9000);
    assert.ok(Object.is(value(checkValue(port, -0, typed)), 0));
    assert.match(problem(checkValue(port, 1.5, typed)), /got number 1\.5/);
    assert.match(problem(checkValue(port, Number.NaN, typed)), /got number NaN/);
  });

  it('names the expected type and what was given', () => {
    assert.equal(
      problem(checkValue(port, '9000', toml)),
      'expected an integer in 0..65535, got string "9000"',
    );
    assert.equal(
      problem(checkValue(bool(true, 'b'), 'true', toml)),
      'expected a boolean (true or false), got string "true"',
    );
    assert.match(problem(checkValue(str('', 's'), 5n, toml)), /expected a string, got integer 5/);
    assert.match(problem(checkValue(list([], 'l'), 'a', toml)), /list of non-empty strings, got string "a"/);
    assert.match(problem(checkValue(list([], 'l'), ['a', 1n], toml)), /got an array of 2 item/);
    assert.match(problem(checkValue(str('', 's'), new Date(0), toml)), /got a date-time/);
    assert.match(problem(checkValue(str('', 's'), {}, toml)), /got a table/);
  });

  it('checks list items and string well-formedness', () => {
    assert.deepEqual(value(checkValue(list([], 'l'), ['a', 'b'], toml)), ['a', 'b']);
    assert.match(problem(checkValue(list([], 'l'), ['a', ''], toml)), /item 1 is an empty string/);
    assert.match(problem(checkValue(list([], 'l'), Array(1025).fill('a'), toml)), /at most 1024, got 1025/);
    assert.match(problem(checkValue(str('', 's'), 'a\uD800b', typed)), /unpaired/);
    assert.equal(value(checkValue(str('', 's'), 'emoji \u{1F600}', typed)), 'emoji \u{1F600}');
  });
});
