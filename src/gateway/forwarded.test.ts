import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { badProxyEntry, clientAddress, trustCheck } from './forwarded.js';

describe('client address behind trusted proxies', () => {
  const trust = trustCheck(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);

  it('ignores X-Forwarded-For when no proxy is trusted or the peer is not one', () => {
    assert.equal(clientAddress('203.0.113.9', '198.51.100.1', undefined), '203.0.113.9');
    assert.equal(clientAddress('203.0.113.9', '198.51.100.1', trust), '203.0.113.9');
  });

  it('takes the first untrusted hop from the right', () => {
    assert.equal(clientAddress('127.0.0.1', '198.51.100.1', trust), '198.51.100.1');
    assert.equal(clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.1, 10.1.2.3', trust), '198.51.100.1');
    assert.equal(clientAddress('::ffff:127.0.0.1', ['198.51.100.2'], trust), '198.51.100.2');
    assert.equal(clientAddress('fd00::1', '2001:db8::5', trust), '2001:db8::5');
  });

  it('stops at a malformed hop and keeps the last good one', () => {
    assert.equal(clientAddress('127.0.0.1', 'nonsense, 10.0.0.7', trust), '10.0.0.7');
    assert.equal(clientAddress('127.0.0.1', '', trust), '127.0.0.1');
  });

  it('names a bad list entry', () => {
    assert.equal(badProxyEntry(['127.0.0.1', '10.0.0.0/8']), undefined);
    assert.equal(badProxyEntry(['10.0.0.0/33']), '10.0.0.0/33');
    assert.equal(badProxyEntry(['proxy.example']), 'proxy.example');
  });
});
