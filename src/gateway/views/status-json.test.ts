import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../util/hex.js';
import { StatusView } from './common.js';
import { type Status, statusJson } from './status-json.js';

/** Deterministic values over the edges a JSON writer can get wrong: 0, large integers, odd strings. */
function statusAt(i: number): Status {
  const n = (k: number) => [0, 1, 7, 999, 65_536, 1_764_120_000_000, Number.MAX_SAFE_INTEGER][(i + k) % 7]!;
  const texts = [
    '',
    'torana-dev',
    'quote " and \\ back',
    'tab\tnew\nline\u0001',
    'é ü 日本 \u2028\u2029',
    '😀',
  ];
  const t = (k: number) => texts[(i + k) % texts.length]!;
  return {
    peers: n(0),
    blocks: n(1),
    blocksNonEmpty: n(2),
    commitTimeMs: n(3),
    txsApproved: n(4),
    txsRejected: n(5),
    txsExpired: n(6),
    uptime: { secs: n(2), nanos: (i * 7_919_000) % 1_000_000_000 },
    viewChanges: n(3),
    queueSize: n(4),
    queueCapacity: n(5),
    stateRoot: toHex(new Uint8Array(32).fill(i * 31)),
    consensus: { mode: t(0), height: n(6), view: n(0), leaderIndex: n(1), validators: n(2) },
    chainId: t(1),
    nodeId: t(2),
    role: t(3),
    version: t(4),
    latestBlockHeight: n(1),
    latestBlockHash: toHex(new Uint8Array(32).fill(255 - i)),
    latestBlockTimeMs: n(5),
    catchingUp: i % 2 === 0,
    validatorsReachable: n(4),
    validatorsTotal: n(5),
    quorumNeeded: n(6),
    quorumReachable: i % 3 === 0,
  };
}

describe('statusJson', () => {
  it('writes exactly the JSON form of StatusView', () => {
    for (let i = 0; i < 42; i++) {
      const s = statusAt(i);
      assert.equal(statusJson(s), JSON.stringify(StatusView.toJson(s)), `value ${i}`);
    }
  });

  it('prints numbers as JSON.stringify does, non-finite ones included', () => {
    const s = { ...statusAt(0), peers: -0, blocks: Number.NaN, commitTimeMs: Number.POSITIVE_INFINITY };
    assert.equal(statusJson(s), JSON.stringify(StatusView.toJson(s)));
  });
});
