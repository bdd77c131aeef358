import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorFormat, type FormatOffer, negotiate, parseAccept } from './negotiate.js';

const BOTH_JSON: FormatOffer = { default: 'json', offers: ['json', 'codec'] };
const BOTH_CODEC: FormatOffer = { default: 'codec', offers: ['json', 'codec'] };
const JSON_ONLY: FormatOffer = { default: 'json', offers: ['json'] };
const CODEC_ONLY: FormatOffer = { default: 'codec', offers: ['codec'] };

// [Accept header, offer, expected format or 406]
const TABLE: [string | undefined, FormatOffer, string][] = [
  [undefined, BOTH_JSON, 'json'],
  [undefined, BOTH_CODEC, 'codec'],
  ['', BOTH_CODEC, 'codec'],
  ['application/json', BOTH_CODEC, 'json'],
  ['application/x-codec', BOTH_JSON, 'codec'],
  ['application/json, application/x-codec', BOTH_JSON, 'codec'], // explicit tie: codec wins
  ['application/x-codec;q=0.5, application/json;q=0.5', BOTH_JSON, 'codec'],
  ['application/x-codec;q=0.4, application/json;q=0.5', BOTH_JSON, 'json'],
  ['application/json;q=0.9, application/x-codec;q=0.899', BOTH_CODEC, 'json'],
  ['*/*', BOTH_JSON, 'json'], // wildcard only: no preference, route default
  ['*/*', BOTH_CODEC, 'codec'],
  ['application/*', BOTH_JSON, 'json'],
  ['application/json, */*', BOTH_CODEC, 'json'], // named beats wildcard on a tie
  ['application/json;q=0.5, */*', BOTH_JSON, 'codec'], // codec gets q=1 from */*
  ['application/x-codec;q=0, */*', BOTH_CODEC, 'json'], // q=0 excludes
  ['text/html, application/xhtml+xml, */*;q=0.8', JSON_ONLY, 'json'], // a browser
  ['text/html', JSON_ONLY, '406'],
  ['application/x-codec', JSON_ONLY, '406'],
  ['application/json', CODEC_ONLY, '406'],
  ['application/json;q=0', JSON_ONLY, '406'],
  ['application/json;q=2', JSON_ONLY, '406'], // invalid q-value
  ['application/json;q=abc', JSON_ONLY, '406'],
  ['application/json;q=0.1234', JSON_ONLY, '406'], // more than three decimals
  ['application/json;q=1.001', JSON_ONLY, '406'],
  ['application/json;q=1.000', JSON_ONLY, 'json'],
  ['application', JSON_ONLY, '406'], // malformed range
  ['*/json', JSON_ONLY, '406'],
  ['APPLICATION/JSON;Q=0.5', JSON_ONLY, 'json'], // case-insensitive
  ['application/json; charset=utf-8', JSON_ONLY, 'json'],
  ['text/plain;version=0.0.4;q=0.4, */*;q=0.1', { default: 'text', offers: ['text'] }, 'text'],
  ['text/event-stream', { default: 'sse', offers: ['sse'] }, 'sse'],
  [' , application/json ,', JSON_ONLY, 'json'], // empty list elements are ignored
];

describe('negotiate', () => {
  for (const [accept, offer, expected] of TABLE) {
    it(`${JSON.stringify(accept)} with ${offer.offers.join('+')} (default ${offer.default}) -> ${expected}`, () => {
      const n = negotiate(accept, offer);
      if (expected === '406') assert.equal(n.ok, false);
      else assert.deepEqual(n, { ok: true, format: expected });
    });
  }

  it('keeps q-values as integer thousandths', () => {
    assert.deepEqual(parseAccept('a/b;q=0.25, c/*;q=0, */*'), [
      { type: 'a', subtype: 'b', qMilli: 250 },
      { type: 'c', subtype: '*', qMilli: 0 },
      { type: '*', subtype: '*', qMilli: 1000 },
    ]);
  });

  it('refuses absurd headers instead of parsing them', () => {
    assert.equal(negotiate('a/b,'.repeat(2000), JSON_ONLY).ok, false);
    assert.equal(negotiate(Array.from({ length: 100 }, () => 'a/b').join(','), JSON_ONLY).ok, false);
  });

  it('negotiates error bodies the same way but never fails', () => {
    assert.equal(errorFormat('application/x-codec', true), 'codec');
    assert.equal(errorFormat('application/x-codec', false), 'json');
    assert.equal(errorFormat('*/*', true), 'json');
    assert.equal(errorFormat(undefined, true), 'json');
    assert.equal(errorFormat('application/json;q=7', true), 'json');
  });
});
