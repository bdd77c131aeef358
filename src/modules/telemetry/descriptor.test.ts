// The telemetry module as the node finds it: the peer messages it claims (kept from the consensus
// engine, node/bft.ts) and where its family is served (its rank in the serving order, docs/design/
// modules.md "Serving order"), so that the route table's order is the one the core family had.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../config/load.js';
import { placeFamilies, type RouteFamily } from '../../gateway/family.js';
import { LEDGER_MODULES, modulePeerMessage } from '../load.js';
import { telemetryModule } from './descriptor.js';
import { encodeReport } from './report-codec.js';

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

describe('the telemetry module', () => {
  it('is installed and claims its peer reports, not consensus messages or time samples', () => {
    assert.ok(LEDGER_MODULES.includes(telemetryModule));
    assert.equal(modulePeerMessage(report), true);
    assert.equal(modulePeerMessage(new Uint8Array([0x03, 0x07])), false, 'a consensus enum tag');
    assert.equal(modulePeerMessage(new TextEncoder().encode('TRTS\x01')), false, 'a time sample');
    assert.equal(modulePeerMessage(report, []), false, 'a build without the module claims none');
  });

  it('is served at its rank: after the bridge, before webhooks and the dashboard, with or without the bridge', () => {
    const r = loadConfig({});
    assert.ok(r.ok);
    const env = {
      deps: {
        ports: {
          node: {
            peerId: 'p',
            address: '127.0.0.1:1',
            chainId: 'c',
            version: 'v',
            peers: () => [],
            nowMs: () => 0,
          },
          consensus: { snapshot: () => ({ mode: 'single-peer' }) },
        },
      },
      config: r.config,
      logError: () => {},
    } as never;
    const telemetry = telemetryModule.routes?.(env) as RouteFamily;
    const f = (name: string, servedAt: number): RouteFamily => ({
      name,
      app: true,
      servedAt,
      routes: () => [],
    });
    const names = (list: RouteFamily[]) => placeFamilies(list).map((x) => x.name);
    assert.equal(telemetry.servedAt, 400);
    const modules = [
      f('conference', 300),
      f('webhooks', 410),
      f('connect', 340),
      f('iso20022', 350),
      telemetry,
    ];
    assert.deepEqual(names([f('ledger-proofs', 200), ...modules, f('dashboard', 430)]), [
      'ledger-proofs',
      'conference',
      'connect',
      'iso20022',
      'telemetry',
      'webhooks',
      'dashboard',
    ]);
    const withoutBridge = modules.filter((m) => m.name !== 'iso20022');
    assert.deepEqual(names([f('ledger-proofs', 200), ...withoutBridge, f('dashboard', 430)]), [
      'ledger-proofs',
      'conference',
      'connect',
      'telemetry',
      'webhooks',
      'dashboard',
    ]);
  });
});
