// The code of `torana multisig …` (commands.ts). A multisig is named by its id or a name in place
// of it (resolved by the node, id-args.ts); instructions of a proposal are given in their JSON form.

import { type Flags, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { accountArg } from '../../cli/id-args.js';
import { printJson, printRecord, printTable } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { CodecError } from '../../codec/errors.js';
import { type Instruction, InstructionCodec } from '../../model/instructions.js';
import { instructions as ix } from '../../sdk/instructions.js';
import { type MultisigStatusName, multisigProposals, multisigSpec } from './sdk.js';
import { multisigAccountId, multisigProposalId } from './sdk-instructions.js';
import { MultisigProposalListView, MultisigSpecView } from './views.js';

function integer(text: string, name: string, max: number): number {
  const n = Number(text);
  if (!/^[0-9]{1,16}$/.test(text) || n > max) throw new CliError('invalid_argument', `${name}: 0..${max}`, 2);
  return n;
}

function signatoriesOf(list: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of list) {
    const eq = item.lastIndexOf('=');
    if (eq <= 0)
      throw new CliError('invalid_argument', `--signatory ${item}: expected <account>=<weight>`, 2);
    out[item.slice(0, eq)] = integer(item.slice(eq + 1), '--signatory weight', 255);
  }
  return out;
}

export async function multisigRegister(
  domain: string,
  seed: string,
  flags: Flags & { signatory: string[]; quorum: string; ttlMs: string },
) {
  const signatories = signatoriesOf(flags.signatory);
  const spec = {
    signatories,
    quorum: integer(flags.quorum, '--quorum', 0xffff),
    transactionTtlMs: integer(flags.ttlMs, '--ttl-ms', Number.MAX_SAFE_INTEGER),
  };
  const account = multisigAccountId(domain, seed);
  if (!flags.json) process.stdout.write(`multisig account ${account}\n`);
  await submit(flags, () => [ix.registerMultisig(domain, seed, spec)], { multisig_account_id: account });
}

async function multisigId(flags: Flags, ref: string): Promise<string> {
  const { client } = await resolveClient(flags, false);
  return accountArg(client, ref);
}

function instructionsOf(text: string): Instruction[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError('invalid_argument', 'instructions: not JSON', 2);
  }
  if (!Array.isArray(json) || json.length === 0)
    throw new CliError('invalid_argument', 'instructions: a non-empty JSON array', 2);
  try {
    return json.map((j, i) => InstructionCodec.fromJson(j as Json, `instructions[${i}]`));
  } catch (e) {
    if (e instanceof CodecError) throw new CliError('invalid_argument', e.message, 2);
    throw e;
  }
}

export async function multisigPropose(ref: string, text: string, flags: Flags) {
  const list = instructionsOf(text);
  const id = await multisigId(flags, ref);
  const proposal = multisigProposalId(list);
  if (!flags.json) process.stdout.write(`proposal ${proposal}\n`);
  await submit(flags, () => [ix.proposeMultisig(id, list)], {
    multisig_account_id: id,
    proposal_id: proposal,
  });
}

export async function multisigApprove(ref: string, proposalId: string, flags: Flags) {
  const id = await multisigId(flags, ref);
  await submit(flags, () => [ix.approveMultisig(id, proposalId.toLowerCase())]);
}

export async function multisigCancel(ref: string, proposalId: string, flags: Flags) {
  const id = await multisigId(flags, ref);
  await submit(flags, () => [ix.cancelMultisig(id, proposalId.toLowerCase())]);
}

export async function multisigSpecShow(ref: string, flags: Flags) {
  const { client } = await resolveClient(flags, false);
  const json = MultisigSpecView.toJson(await multisigSpec(client, ref)) as Record<string, Json>;
  if (flags.json) printJson(json);
  else printRecord({ ...json, signatories: JSON.stringify(json.signatories) });
}

export async function multisigProposalsShow(ref: string, flags: Flags & { status?: string }) {
  const { client } = await resolveClient(flags, false);
  const status = flags.status?.split(',').map((s) => s.trim()) as MultisigStatusName[] | undefined;
  const list = await multisigProposals(client, ref, status === undefined ? {} : { status });
  if (flags.json) printJson(MultisigProposalListView.toJson(list));
  else
    printTable(
      list.items.map((p) => ({
        proposal_id: p.proposalId,
        status: p.status,
        proposer: p.proposer,
        weight: `${p.approvalWeight}/${p.quorum}`,
        expires_at_ms: p.expiresAtMs,
        instructions: p.instructions.length,
      })),
    );
}
