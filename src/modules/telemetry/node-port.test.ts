// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigLoadError } from '../../config/errors.js';
import { loadConfig } from '../../config/load.js';
import type { ModulePeerChannel } from '../descriptor.js';
import { configuredGatewayUrl, telemetryPort, wildcardHost } from './node-port.js';
import { encodeReport } from './report-codec.js';

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

/** A route env of a node with (or without) a peer channel that records what is sent and who listens. */
function env(withPeers: boolean) {
  const r = loadConfig({ overrides: { 'network.role': 'observer' } });
  assert.ok(r.ok);
  const sent: Uint8Array[] = [];
  const listeners: ((from: string, bytes: Uint8Array) => void)[] = [];
  const peers: ModulePeerChannel = {
    broadcast: (bytes) => {
      sent.push(bytes);
      return 2;
    },
    onMessage: (fn) => listeners.push(fn),
  };
  const deps = {
    ports: {
      node: {
        peerId: 'ed0120AA',
        address: '127.0.0.1:8080',
        chainId: 'chain-1',
        version: 'torana/9.9.9',
        peers: () => [],
        nowMs: () => 5,
      },
      consensus: { snapshot: () => ({ mode: 'bft' }) },
    },
  } as never;
  return {
    env: { deps, config: r.config, ...(withPeers ? { peers } : {}) },
    sent,
    deliver: (from: string, bytes: Uint8Array) => {
      for (const l of listeners) l(from, bytes);
    },
  };
}

const report = encodeReport({
  sentAtMs: 1,
  version: 'v',
  role: 'validator',
  consensus: 'bft',
  height: 7,
  queueDepth: 0,
  connectedPeers: 1,
  blocks: [],
})!;

describe('telemetryPort over the route env', () => {
  it('describes this node from the node info port, the configuration and the consensus engine', () => {
    const self = telemetryPort(env(true).env).self();
    assert.deepEqual(self, {
      peerId: 'ed0120AA',
      url: 'http://127.0.0.1:8080',
      reportedUrl: 'http://127.0.0.1:8080',
      version: 'torana/9.9.9',
      chainId: 'chain-1',
      role: 'observer',
      consensus: 'bft',
    });
  });

  it("sends over the env's peer channel and hands on peers' reports only, until unsubscribed", () => {
    const e = env(true);
    const port = telemetryPort(e.env);
    assert.equal(port.broadcast(report), 2);
    assert.deepEqual(e.sent, [report]);
    const got: string[] = [];
    const stop = port.onPeerMessage((from, bytes) => got.push(`${from}:${bytes.length}`));
    e.deliver('p1', new Uint8Array([0x03, 0x07])); // a consensus message: an enum tag below 0x54
    e.deliver('p2', report);
    stop();
    e.deliver('p3', report);
    assert.deepEqual(got, [`p2:${report.length}`]);
  });

  it('a lone node (no peer channel) sends to nobody and hears nobody', () => {
    const port = telemetryPort(env(false).env);
    assert.equal(port.broadcast(report), 0);
    assert.doesNotThrow(() => port.onPeerMessage(() => assert.fail('no peer'))());
  });
});
