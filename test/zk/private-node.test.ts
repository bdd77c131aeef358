// Private conferences on a real node from `torana init`'s dev genesis (pool account, entry fee and
// development verifying keys set out of the box): shield, private create and join with real proofs,
// then `torana rebuild` (world state deleted, every block replayed) gives the identical state root.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rebuild } from '../../src/cli/node-actions.js';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import { getCall } from '../../src/modules/conference/rows.js';
import {
  createFeeBind,
  noteOwnerHash,
  proveNoteSpend,
  provePrivateJoin,
  releaseProver,
  rosterCommitment,
  rosterNullifier,
} from '../../src/modules/conference/sdk-zk.js';
import { NATIVE_ASSET } from '../../src/node/init.js';
import { devPoolAccount } from '../../src/node/zk-dev-genesis.js';
import { toHex } from '../../src/util/hex.js';
import { fieldFromHex, fieldToHex } from '../../src/zk/field.js';
import { run, startTestNode, type TestNode } from '../helpers/node.js';

const CALL = 'system:private-standup';
const SECRET = 4242n;
const NOTE = { value: 3_000_000n, secret: 17n, blinding: 18n };
const FEE = 1_000_000n; // dev entry fee "1" at the native scale 6

const hex = (s: { root: bigint; nullifier: bigint; changeCommitment: bigint; proof: unknown }) => ({
  root: fieldToHex(s.root),
  nullifier: fieldToHex(s.nullifier),
  changeCommitment: fieldToHex(s.changeCommitment),
  proof: s.proof as { a: Uint8Array; b: Uint8Array; c: Uint8Array },
});

describe('private conference on a dev-genesis node, then rebuild', () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode();
  });
  after(async () => {
    await releaseProver();
    await t.cleanup();
  });

  const ok = async (instructions: Instruction[]) => {
    const r = await run(t, t.admin, instructions);
    assert.equal(r.status.kind, 'Committed', JSON.stringify(r.status));
  };
  const leaves = () => t.node.ledger.state.shieldedPool().leaves.map((h) => fieldFromHex(h)!);
  const balance = (account: string) =>
    t.node.ledger.state.asset(`${NATIVE_ASSET}#${account}`)?.value.mantissa ?? 0n;

  it('shields, creates and joins privately; the pool pays exactly the fees', async () => {
    const pool = devPoolAccount('system');
    const ownerHash = fieldToHex(noteOwnerHash(NOTE.secret, NOTE.blinding));
    await ok([{ kind: 'ShieldAsset', amount: numeric('3'), ownerHash }]);
    assert.equal(balance(pool), NOTE.value);
    const roster = [rosterCommitment(SECRET), rosterCommitment(SECRET + 1n)];
    const createFee = await proveNoteSpend({
      note: NOTE,
      poolLeaves: leaves(),
      fee: FEE,
      bind: createFeeBind(CALL, t.admin.id),
      change: { secret: 19n, blinding: 20n },
    });
    await ok([
      {
        kind: 'CreateConference',
        call: CALL,
        policy: { kind: 'Public' },
        privacy: { kind: 'ZkRosterV1' },
        title: 'private',
        description: '',
        scheduledStartMs: 0n,
        maxParticipants: 4,
        gasRatePerMinute: numeric('0'),
        billingAccount: t.admin.id,
        metadata: new Map(),
        rosterCommitments: roster.map(fieldToHex),
        fee: hex(createFee),
      },
    ]);
    // Both proofs at once; the nullifier computed without proving is the one the proof publishes.
    const join = await provePrivateJoin({
      callId: CALL,
      secret: SECRET,
      roster,
      sender: t.admin.id,
      note: { value: NOTE.value - FEE, secret: 19n, blinding: 20n },
      poolLeaves: leaves(),
      fee: FEE,
      change: { secret: 21n, blinding: 22n },
    });
    assert.equal(join.private.nullifier, rosterNullifier(CALL, SECRET, 'join'));
    await ok([
      {
        kind: 'JoinConference',
        call: CALL,
        private: { nullifier: fieldToHex(join.private.nullifier), proof: join.private.proof },
        fee: hex(join.fee),
      },
    ]);
    assert.equal(balance(pool), NOTE.value - 2n * FEE);
    const call = getCall(t.node.ledger.state, CALL)!;
    assert.ok(call.roster.kind === 'ZkRosterV1' && call.roster.active === 1);
  });

  it('torana rebuild replays every block to the identical state root', async () => {
    const root = toHex(t.node.ledger.state.stateRoot());
    await t.node.stop();
    const out: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      await rebuild({ dir: t.dir, json: true });
    } finally {
      process.stdout.write = write;
    }
    const report = JSON.parse(out.join('')) as { state_root: string; replayed_blocks: number };
    assert.ok(report.replayed_blocks >= 4);
    assert.equal(report.state_root, root);
    const node = await t.restart();
    assert.equal(toHex(node.ledger.state.stateRoot()), root);
  });
});
