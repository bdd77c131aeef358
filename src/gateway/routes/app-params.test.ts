import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AssetDefinitionId, DomainId } from '../../model/ids.js';
import { type GatewayError, isGatewayError } from '../errors.js';
import { pathHash, pathHeight, pathId } from './app-params.js';

function refusal(f: () => unknown): GatewayError {
  try {
    f();
  } catch (e) {
    if (isGatewayError(e)) return e;
    throw e;
  }
  assert.fail('expected a refusal');
}

describe('pathId, the one parser of path ids', () => {
  it('answers the canonical text form of a well-formed id', () => {
    assert.equal(pathId(DomainId, 'wonderland'), 'wonderland');
    assert.equal(pathId(DomainId, 'relay-1', 'a name'), 'relay-1');
    assert.equal(pathId(AssetDefinitionId, 'rose#wonderland', '<name>#<domain>'), 'rose#wonderland');
  });

  it('refuses a malformed id with 400 bad_request naming the expected form', () => {
    const e = refusal(() => pathId(DomainId, 'not a domain'));
    assert.equal(e.code, 'bad_request');
    assert.equal(e.status, 400);
    assert.equal(e.details['location'], 'params');
    assert.equal(e.details['expected'], '<name>');
    const def = refusal(() => pathId(AssetDefinitionId, 'no-hash', '<name>#<domain>'));
    assert.equal(def.details['expected'], '<name>#<domain>');
    assert.equal(def.details['id'], 'no-hash');
  });

  it('cuts the echoed id to 128 characters', () => {
    const e = refusal(() => pathId(DomainId, `${'x'.repeat(300)} `, 'a name'));
    assert.equal((e.details['id'] as string).length, 128);
  });

  it('heights and hashes', () => {
    assert.equal(pathHeight('12'), 12);
    assert.equal(refusal(() => pathHeight('012')).code, 'bad_request');
    assert.equal(pathHash('ab'.repeat(32)).length, 32);
    assert.equal(refusal(() => pathHash('ab')).code, 'bad_request');
  });
});
