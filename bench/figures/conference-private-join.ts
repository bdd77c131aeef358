// Figure `conference_private_join_p99_ms`: a private (zk-roster-v1) join as a client
// makes it — the roster proof and the fee note spend proved with the SDK prover, the transaction signed,
// submitted over HTTP and waited for until committed — against a transparent join through the same
// node in the same run (build, sign, submit, commit; no proof). A served node of `torana init`'s dev
// genesis (development verifying keys, pool account, entry fee 1 gas) in the bench process; the
// prover's worker threads share the two cores with it, as a client on the node's machine would.
// Joins run one after another; every private join spends its own shielded note.

import {
  createFeeBind,
  joinBindFor,
  noteCommitment,
  noteOwnerHash,
  proveNoteSpend,
  proveRoster,
  randomField,
  releaseProver,
  rosterCommitment,
} from '../../src/modules/conference/sdk-zk.js';
import { NATIVE_ASSET } from '../../src/node/init.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions } from '../../src/sdk/instructions.js';
import { fieldToHex } from '../../src/zk/field.js';
import { startServedNode } from '../../test/helpers/served.js';
import { newAccount } from '../../test/helpers/tx.js';
import { percentile } from '../lib/timing.js';
import { type Figure, type FigureResult, ratioOf } from '../lib/types.js';

const GOAL_MS = 5_000;
/** The dev entry fee (1 gas) in base units of the native asset (scale 6). */
const FEE_UNITS = 1_000_000n;
const NOTE_UNITS = 2_000_000n;

const hexField = (v: bigint) => fieldToHex(v);
const spendJson = (s: Awaited<ReturnType<typeof proveNoteSpend>>) => ({
  root: hexField(s.root),
  nullifier: hexField(s.nullifier),
  changeCommitment: hexField(s.changeCommitment),
  proof: s.proof,
});

export const conferencePrivateJoinFigure: Figure = {
  id: 'conference_private_join_p99_ms',
  async run(ctx): Promise<FigureResult> {
    const joins = ctx.quick ? 5 : 20;
    const node = await startServedNode();
    try {
      const host = new ToranaClient({ url: node.url, account: node.admin.id, signer: node.admin.key });
      const domain = node.admin.id.split('@')[1]!;
      // Notes: one for the create, one per join, shielded by the host; the pool tree is ours alone.
      const notes = Array.from({ length: joins + 1 }, () => ({
        value: NOTE_UNITS,
        secret: randomField(),
        blinding: randomField(),
      }));
      const leaves: bigint[] = notes.map((n) => noteCommitment(n.value, noteOwnerHash(n.secret, n.blinding)));
      await host.submitAndWait(
        await host.build(
          notes.map((n) => instructions.shieldAsset('2', hexField(noteOwnerHash(n.secret, n.blinding)))),
        ),
      );
      const secrets = Array.from({ length: joins }, () => randomField());
      const roster = secrets.map(rosterCommitment);
      const call = `${domain}:bench-private`;
      const change = () => ({ secret: randomField(), blinding: randomField() });
      const createSpend = await proveNoteSpend({
        note: notes[0]!,
        poolLeaves: leaves,
        fee: FEE_UNITS,
        bind: createFeeBind(call, node.admin.id),
        change: change(),
      });
      leaves.push(createSpend.changeCommitment);
      const base = { title: 'bench', scheduledStartMs: 0, maxParticipants: 1000, gasRatePerMinute: '1' };
      await host.submitAndWait(
        await host.build([
          instructions.createConference(call, {
            ...base,
            privacy: 'zk-roster-v1',
            billingAccount: node.admin.id,
            rosterCommitments: roster.map(hexField),
            fee: spendJson(createSpend),
          }),
        ]),
      );
      const privateMs: number[] = [];
      for (let i = 0; i < joins; i++) {
        const t0 = performance.now();
        const proof = await proveRoster({
          callId: call,
          secret: secrets[i]!,
          roster,
          action: 'join',
          sender: node.admin.id,
        });
        const spend = await proveNoteSpend({
          note: notes[i + 1]!,
          poolLeaves: leaves,
          fee: FEE_UNITS,
          bind: joinBindFor(call, proof),
          change: change(),
        });
        const tx = await host.build([
          instructions.joinConference(call, {
            private: { nullifier: hexField(proof.nullifier), proof: proof.proof },
            fee: spendJson(spend),
          }),
        ]);
        await host.submitAndWait(tx);
        privateMs.push(performance.now() - t0);
        leaves.push(spend.changeCommitment);
      }
      await releaseProver();
      // Baseline: transparent joins of the same node and run.
      const open = `${domain}:bench-open`;
      const guests = Array.from({ length: joins }, () => newAccount(domain));
      await host.submitAndWait(
        await host.build([
          ...guests.map((g) => instructions.registerAccount(g.id)),
          instructions.createConference(open, { ...base, billingAccount: node.admin.id }),
        ]),
      );
      const openMs: number[] = [];
      for (const g of guests) {
        const guest = new ToranaClient({ url: node.url, account: g.id, signer: g.key });
        const t0 = performance.now();
        await guest.submitAndWait(
          await guest.build([instructions.joinConference(open, { participant: g.id })]),
        );
        openMs.push(performance.now() - t0);
      }
      const value = percentile(privateMs, 99);
      const baseline = percentile(openMs, 99);
      ctx.log(
        `private p99 ${value.toFixed(0)} ms, transparent p99 ${baseline.toFixed(0)} ms over ${joins} joins`,
      );
      return {
        id: 'conference_private_join_p99_ms',
        value: Math.round(value),
        unit: 'ms',
        baseline: 'transparent join p99 (build, submit, commit), same node and run',
        baseline_value: Math.round(baseline),
        ratio: ratioOf(value, baseline),
        goal: `≤ ${GOAL_MS} ms`,
        met: value <= GOAL_MS,
        assessed: !ctx.quick,
        extra: {
          joins,
          private_p50_ms: Math.round(percentile(privateMs, 50)),
          transparent_p50_ms: Math.round(percentile(openMs, 50)),
          native_asset: NATIVE_ASSET,
        },
      };
    } finally {
      await releaseProver();
      await node.stopAll();
    }
  },
};
