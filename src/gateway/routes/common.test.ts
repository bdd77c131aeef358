import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConsensusSnapshot } from '../../consensus/engine.js';
import type { RouteDeps } from '../deps.js';
import { StatusView } from '../views/common.js';
import { statusJson } from '../views/status-json.js';
import { quorumOf, stateRootHex, statusOf, statusTextOf } from './common.js';

/** A node whose every status input can be moved by the test (the ports `statusOf` reads, nothing else). */
function fakeNode() {
  const m = {
    nowMs: 1_764_000_000_000,
    peers: [] as { peerId: string; connected: boolean }[],
    role: 'single' as 'validator' | 'observer' | 'single',
    version: 'torana/0.1.0',
    height: 1,
    tipHash: new Uint8Array(32).fill(1),
    tipTimeMs: 1_763_999_000_000,
    stateVersion: 1,
    root: new Uint8Array(32).fill(9),
    queue: 0,
    capacity: 65_536,
    leader: 0,
    counters: { txsApproved: 0, txsRejected: 0, txsExpired: 0, blocksNonEmpty: 0, lastCommitMs: 0 },
    mode: 'single-peer',
    view: 0,
    viewChanges: 0,
    catchingUp: false,
    validators: [{ peer: 'ed0120aa' }],
  };
  const state = {
    get version() {
      return m.stateVersion;
    },
    stateRoot: () => m.root,
  };
  const ports = {
    node: {
      chainId: 'torana-test "quoted"',
      peerId: 'ed0120aa',
      get role() {
        return m.role;
      },
      get version() {
        return m.version;
      },
      startedAtMs: 1_764_000_000_000 - 5_000,
      nowMs: () => m.nowMs,
      connectedPeers: () => m.peers.filter((p) => p.connected).map((p) => `${p.peerId}@127.0.0.1:1`),
      peers: () => m.peers,
    },
    chain: { height: () => m.height, tipHash: () => m.tipHash, tipTimeMs: () => m.tipTimeMs },
    transactions: { counters: () => m.counters, queueDepth: () => m.queue, queueCapacity: () => m.capacity },
    consensus: {
      snapshot: () =>
        ({
          mode: m.mode,
          height: m.height,
          view: m.view,
          leaderIndex: m.leader,
          validatorSet: {
            size: m.validators.length,
            quorum: Math.floor((2 * m.validators.length) / 3) + 1,
            validators: m.validators,
          },
          viewChanges: m.viewChanges,
          catchingUp: m.catchingUp,
        }) as unknown as ConsensusSnapshot,
    },
    state,
  };
  const d = { ports } as unknown as RouteDeps;
  /** A block committed: height, tip hash and time, the state root and its version move together. */
  const commit = () => {
    m.height++;
    m.tipHash = new Uint8Array(32).fill(m.height);
    m.tipTimeMs += 1_000;
    m.stateVersion++;
    m.root = new Uint8Array(32).fill(100 + m.height);
    m.counters = { ...m.counters, blocksNonEmpty: m.counters.blocksNonEmpty + 1, lastCommitMs: 3.6 };
  };
  return { m, d, commit };
}

describe('statusTextOf (GET /status from cached parts)', () => {
  it('writes exactly the JSON form of the status, whatever moved since the last answer', () => {
    const { m, d, commit } = fakeNode();
    const root = stateRootHex(d.ports.state);
    const text = statusTextOf(d, root);
    const expected = () => {
      const s = statusOf(d, root);
      const json = JSON.stringify(StatusView.toJson(s));
      assert.equal(statusJson(s), json);
      return json;
    };
    const steps: [string, () => void][] = [
      ['nothing', () => {}],
      [
        'the clock',
        () => {
          m.nowMs += 1_234.5;
        },
      ],
      [
        'the queue',
        () => {
          m.queue = 17;
        },
      ],
      // Each value alone, so that each is seen to reach the text.
      ...(['txsApproved', 'txsRejected', 'txsExpired', 'blocksNonEmpty', 'lastCommitMs'] as const).map(
        (k): [string, () => void] => [
          `${k} alone`,
          () => {
            m.counters = { ...m.counters, [k]: m.counters[k] + 1 };
          },
        ],
      ),
      [
        'view changes alone',
        () => {
          m.viewChanges += 1;
        },
      ],
      [
        'the view alone',
        () => {
          m.view += 1;
        },
      ],
      [
        'the leader alone',
        () => {
          m.leader = 1;
        },
      ],
      [
        'the queue capacity alone',
        () => {
          m.capacity = 1_024;
        },
      ],
      [
        'the counters',
        () => {
          m.counters = { ...m.counters, txsApproved: 5, txsExpired: 2 };
        },
      ],
      ['a commit', commit],
      [
        'the view',
        () => {
          m.view = 3;
          m.viewChanges = 1;
        },
      ],
      [
        'a peer',
        () => {
          m.peers.push({ peerId: 'ed0120bb', connected: true });
        },
      ],
      [
        'the validators',
        () => {
          m.validators.push({ peer: 'ed0120bb' }, { peer: 'ed0120cc' });
        },
      ],
      [
        'catching up',
        () => {
          m.catchingUp = true;
        },
      ],
      [
        'the mode',
        () => {
          m.mode = 'bft';
        },
      ],
      [
        'the role',
        () => {
          m.role = 'validator';
        },
      ],
      [
        'the version',
        () => {
          m.version = 'torana/0.2.0';
        },
      ],
      ['another commit', commit],
      [
        'a tip hash alone',
        () => {
          m.tipHash = new Uint8Array(32).fill(77);
        },
      ],
      [
        'a tip time alone',
        () => {
          m.tipTimeMs += 1;
        },
      ],
      [
        'the state alone',
        () => {
          m.stateVersion += 1;
          m.root = new Uint8Array(32).fill(55);
        },
      ],
    ];
    let previous = '';
    for (const [what, move] of steps) {
      move();
      const answer = text();
      assert.equal(answer, expected(), `after ${what}`);
      if (what !== 'nothing') assert.notEqual(answer, previous, `${what} shows in the answer`);
      previous = answer;
      // Asked again without a change: the same text.
      assert.equal(text(), answer, `again after ${what}`);
    }
  });

  it('moves the uptime on every request, between commits', () => {
    const { m, d } = fakeNode();
    const text = statusTextOf(d, stateRootHex(d.ports.state));
    const uptime = () => (JSON.parse(text()) as { uptime: { secs: number; nanos: number } }).uptime;
    assert.deepEqual(uptime(), { secs: 5, nanos: 0 });
    m.nowMs += 2_250;
    assert.deepEqual(uptime(), { secs: 7, nanos: 250_000_000 });
  });
});

describe('quorumOf', () => {
  it('counts the validators this node has a live session with, itself included', () => {
    const set = (peers: string[]) =>
      ({
        size: peers.length,
        quorum: Math.floor((2 * peers.length) / 3) + 1,
        validators: peers.map((peer) => ({ peer })),
      }) as unknown as ConsensusSnapshot['validatorSet'];
    const node = (peers: { peerId: string; connected: boolean }[]) => ({ peerId: 'a', peers: () => peers });
    assert.deepEqual(quorumOf(set(['a']), node([])), {
      validatorsReachable: 1,
      validatorsTotal: 1,
      quorumNeeded: 1,
      quorumReachable: true,
    });
    // An observer (not in the set) with no peers reaches nobody.
    assert.equal(quorumOf(set(['b', 'c']), node([])).validatorsReachable, 0);
    const peers = [
      { peerId: 'b', connected: true },
      { peerId: 'c', connected: false },
      { peerId: 'x', connected: true },
    ];
    assert.deepEqual(quorumOf(set(['a', 'b', 'c', 'd']), node(peers)), {
      validatorsReachable: 2,
      validatorsTotal: 4,
      quorumNeeded: 3,
      quorumReachable: false,
    });
    peers[1]!.connected = true;
    assert.equal(quorumOf(set(['a', 'b', 'c', 'd']), node(peers)).quorumReachable, true);
  });
});
