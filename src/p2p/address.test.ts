import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { formatHostPort, parseHostPort, parseListen, parsePeerEntries, parsePeerEntry } from './address.js';
import { isP2pError } from './errors.js';

const key = Ed25519KeyPair.generate().publicKeyText();

describe('p2p: addresses and peer entries', () => {
  it('parses host:port and [v6]:port, and nothing else', () => {
    assert.deepEqual(parseHostPort('127.0.0.1:7000'), { host: '127.0.0.1', port: 7000 });
    assert.deepEqual(parseHostPort('node-1.example:1'), { host: 'node-1.example', port: 1 });
    assert.deepEqual(parseHostPort('[::1]:0'), { host: '::1', port: 0 });
    for (const bad of [
      '',
      '127.0.0.1',
      ':80',
      'h:65536',
      'h:-1',
      'h:80x',
      'a b:1',
      '::1:80',
      `${'a'.repeat(254)}:1`,
    ]) {
      assert.equal(parseHostPort(bad), undefined, bad);
    }
    assert.equal(formatHostPort({ host: '::1', port: 9 }), '[::1]:9');
    assert.equal(formatHostPort({ host: 'h', port: 9 }), 'h:9');
  });

  it('network.listen: empty is off, junk is p2p_invalid_address', () => {
    assert.equal(parseListen(''), undefined);
    assert.deepEqual(parseListen('0.0.0.0:7100'), { host: '0.0.0.0', port: 7100 });
    assert.throws(
      () => parseListen('7100'),
      (e) => isP2pError(e) && e.code === 'p2p_invalid_address',
    );
  });

  it('a peer entry is a key with an optional @host:port; the id is the canonical key text', () => {
    const e = parsePeerEntry(`${key.toLowerCase()}@10.0.0.2:7100`);
    assert.equal(e.peerId, key);
    assert.equal(e.publicKey.length, 32);
    assert.deepEqual(e.address, { host: '10.0.0.2', port: 7100 });
    assert.equal(parsePeerEntry(key).address, undefined);
  });

  it('refuses malformed entries, BLS keys, port 0 and repeated keys with p2p_invalid_peer', () => {
    const bls = `ea0130${'11'.repeat(48)}`;
    for (const bad of ['', 'ed25519:abc@h:1', `${key}@`, `${key}@h`, `${key}@h:0`, `${bls}@h:1`, `x${key}`]) {
      assert.throws(
        () => parsePeerEntry(bad, 3),
        (e) => isP2pError(e) && e.code === 'p2p_invalid_peer' && e.message.startsWith('network.peers[3]'),
        bad,
      );
    }
    assert.throws(
      () => parsePeerEntries([`${key}@h:1`, key]),
      (e) => isP2pError(e) && e.code === 'p2p_invalid_peer' && e.message.includes('[1]'),
    );
  });

  it('skips the node itself', () => {
    const other = Ed25519KeyPair.generate().publicKeyText();
    assert.deepEqual(
      parsePeerEntries([`${key}@h:1`, `${other}@h:2`], key).map((e) => e.peerId),
      [other],
    );
  });
});
