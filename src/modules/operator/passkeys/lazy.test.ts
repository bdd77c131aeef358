// @simplewebauthn/server (with its ASN.1 and certificate dependencies, ~300 modules and ~0.5 s of CPU)
// loads at a node's first passkey ceremony, not when the node is imported: a node whose operator never
// uses a passkey does not pay for it at every start.
// test-runner: own process: it registers a loader hook and needs a process that has not loaded the library.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolvedSoFar } from '../../../../test/helpers/resolve-log.js';

const LIBRARY = /\/node_modules\/@simplewebauthn\/server\//;

describe('the WebAuthn library loads at the first passkey ceremony', () => {
  it('importing a served node and its operator module does not load it', async () => {
    await import('../../../node/serve.js');
    await import('./passkeys.js');
    const urls = await resolvedSoFar();
    assert.ok(
      urls.some((u) => u.includes('/src/node/serve.')),
      'the hook saw the node load',
    );
    assert.deepEqual(
      urls.filter((u) => LIBRARY.test(u)),
      [],
    );
  });

  it('the first ceremony loads it', async () => {
    const { OperatorPasskeys } = await import('./passkeys.js');
    const { memoryPasskeyStore } = await import('./store.js');
    const passkeys = new OperatorPasskeys({
      rpId: 'localhost',
      rpName: 'test node',
      origins: ['http://localhost:8080'],
      bootstrapSecret: 'bootstrap-secret-of-this-node',
      challengeTtlMs: 60_000,
      challengesMax: 4,
      challengesPerClientMax: 4,
      credentialsMax: 1,
      store: memoryPasskeyStore(),
      sessions: {
        issueFor: () => assert.fail('no session in this test'),
        verify: () => assert.fail('no token'),
      },
      now: () => 1_767_225_600_000,
      log: () => undefined,
    });
    const options = await passkeys.loginOptions({ client: 'a', token: undefined });
    assert.equal(typeof (options as { challenge?: unknown }).challenge, 'string');
    const urls = await resolvedSoFar();
    assert.ok(urls.some((u) => LIBRARY.test(u)));
  });
});
