import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainRoot, eventSubject, prefixProblem, subjectToken } from './subjects.js';

describe('export subjects', () => {
  it('keeps every event at six tokens, with `_` for an event about no domain', () => {
    const root = chainRoot('torana', 'main-net');
    assert.equal(root, 'torana.main-net.events');
    assert.equal(
      eventSubject(root, { kind: 'block', block_status: 'Applied', block_height: 3 }),
      `${root}.block.Applied._`,
    );
    assert.equal(
      eventSubject(root, { kind: 'transaction', tx_status: 'Rejected' }),
      `${root}.transaction.Rejected._`,
    );
    assert.equal(
      eventSubject(root, { kind: 'data', data_kind: 'AccountCreated', domain: 'acme' }),
      `${root}.data.AccountCreated.acme`,
    );
  });

  it('escapes what would split a token or act as a wildcard, reversibly and without collisions', () => {
    const names = ['a.b', '*', '>', 'a%2Eb', '_', '%5F', 'ünï', 'plain-Name_1'];
    const tokens = names.map(subjectToken);
    assert.deepEqual(tokens, [
      'a%2Eb',
      '%2A',
      '%3E',
      'a%252Eb',
      '%5F',
      '%255F',
      '%C3%BCn%C3%AF',
      'plain-Name_1',
    ]);
    for (const [i, tok] of tokens.entries()) {
      assert.match(tok, /^[\x21-\x7e]+$/);
      assert.ok(!/[.*>]/.test(tok), tok);
      assert.equal(decodeURIComponent(tok), names[i]);
    }
    assert.equal(new Set(tokens).size, names.length);
    const root = chainRoot('torana', 'c');
    assert.equal(
      eventSubject(root, { kind: 'data', data_kind: 'DomainCreated', domain: 'x.y' }).split('.').length,
      6,
    );
  });

  it('takes a prefix of plain tokens only', () => {
    assert.equal(prefixProblem('torana'), undefined);
    assert.equal(prefixProblem('acme.ledger'), undefined);
    assert.equal(prefixProblem('a..b'), 'an empty token');
    assert.equal(prefixProblem('a.>'), 'a wildcard');
    assert.equal(prefixProblem('a b'), 'the character  ');
  });
});
