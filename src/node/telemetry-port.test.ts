// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigLoadError } from './load-config.js';
import { configuredGatewayUrl, wildcardHost } from './telemetry-port.js';

describe('telemetry.gateway_url', () => {
  it('takes empty (none) or an http(s) URL of at most 512 bytes', () => {
    assert.equal(configuredGatewayUrl(''), undefined);
    assert.equal(configuredGatewayUrl('https://node-1.example:8443'), 'https://node-1.example:8443');
    assert.equal(configuredGatewayUrl(`http://h/${'a'.repeat(500)}`)?.length, 509);
  });

  it('refuses another scheme, a non-URL and an over-long URL at start', () => {
    for (const bad of ['ftp://h', 'node-1:8080', `http://h/${'a'.repeat(510)}`])
      assert.throws(
        () => configuredGatewayUrl(bad),
        (e) => e instanceof ConfigLoadError && /gateway_url/.test(e.message),
      );
  });

  it('a wildcard listen host gives no URL to report', () => {
    assert.deepEqual(
      ['0.0.0.0:8080', '[::]:8080', '127.0.0.1:8080', '[::1]:8080', 'node-1:80'].map(wildcardHost),
      [true, true, false, false, false],
    );
  });
});
