import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHostCheck } from './host-check.js';

describe('createHostCheck', () => {
  it('refuses a foreign Host every time, also between requests of an allowed one', () => {
    const check = createHostCheck(['localhost', '127.0.0.1']);
    for (let i = 0; i < 3; i++) {
      assert.equal(check('localhost:8080'), undefined);
      assert.equal(check('evil.example:8080')?.code, 'host_not_allowed');
      assert.equal(check('127.0.0.1'), undefined);
      assert.equal(check('LOCALHOST'), undefined);
      assert.equal(check('localhost.evil.example')?.code, 'host_not_allowed');
    }
    assert.equal(check(undefined), undefined);
  });
});
