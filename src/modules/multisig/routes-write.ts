// Multisig writes in two steps (§1.3 style 3; detached.ts). Each builds ONE
// instruction for the signer's transaction; the first call answers what to sign, the second (same body
// plus public_key_hex and signature_b64) submits it. A body holding `private_key` is refused (400
// private_key_not_accepted). Whether the signer may do it is the ledger's decision (rejection codes).
//
//   POST /v1/multisig/propose  {selector, signer_account_id, instructions[], …}  ProposeMultisig
//   POST /v1/multisig/approve  {selector, signer_account_id, proposal_id, …}     ApproveMultisig
//   POST /v1/multisig/cancel   {selector, signer_account_id, proposal_id, …}     CancelMultisig (a cancel vote)

import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { Instruction } from '../../model/instructions.js';
import { type SigningInput, signOrSubmit } from './detached.js';
import type { MultisigAccount } from './model.js';
import type { MultisigPort } from './port.js';
import { instructionsHash } from './proposal-row.js';
import {
  INSTRUCTIONS_FIELD,
  instructionsOf,
  PROPOSAL_FIELDS,
  proposalIdOf,
  refusePrivateKey,
  resolveMultisig,
  SELECTOR_FIELDS,
  SIGNING_FIELDS,
} from './request.js';
import { post } from './routes-read.js';
import { MultisigWriteView } from './views.js';

const WRITE_NOTE =
  'Two steps, no key ever sent: without a signature the answer carries signing_message_b64 (base64 of the ' +
  'payload hash) and creation_time_ms; repeat the body with creation_time_ms, public_key_hex and ' +
  'signature_b64 and the node submits the signed transaction. A body with private_key: 400 ' +
  'private_key_not_accepted.';

async function answer(
  d: RouteDeps,
  body: SigningInput & { private_key?: unknown },
  m: MultisigAccount,
  hash: string,
  ins: Instruction,
) {
  const out = await signOrSubmit(d, body, [ins]);
  const value = {
    ok: true,
    resolvedMultisigAccountId: m.account,
    submitted: out.submitted,
    proposalId: hash,
    instructionsHash: hash,
    authority: out.authority,
    creationTimeMs: out.creationTimeMs,
    txInstructions: [ins],
    ...(out.signingMessageB64 === undefined ? {} : { signingMessageB64: out.signingMessageB64 }),
    ...(out.txHashHex === undefined ? {} : { txHashHex: out.txHashHex }),
  };
  return value;
}

function proposeRoute(d: RouteDeps, port: MultisigPort): RouteDef {
  return defineRoute({
    ...post(
      '/v1/multisig/propose',
      'proposeMultisig',
      'Propose a batch of instructions for a multisig',
      WRITE_NOTE,
    ),
    errorStatuses: [404, 409, 429],
    schema: {
      body: Type.Object(
        { ...SELECTOR_FIELDS, ...SIGNING_FIELDS, instructions: INSTRUCTIONS_FIELD },
        { additionalProperties: false },
      ),
      response: { 200: viewSchema(MultisigWriteView) },
    },
    handler: async (req, reply) => {
      refusePrivateKey(req.body);
      const m = resolveMultisig(d, port, req.body);
      const list = instructionsOf(req.body.instructions);
      const ins: Instruction = { kind: 'ProposeMultisig', multisig: m.account, instructions: list };
      const value = await answer(d, req.body, m, instructionsHash(list), ins);
      return respond(d.schema, req, reply, MultisigWriteView, value);
    },
  });
}

function voteRoute(d: RouteDeps, port: MultisigPort, kind: 'ApproveMultisig' | 'CancelMultisig'): RouteDef {
  const approve = kind === 'ApproveMultisig';
  return defineRoute({
    ...post(
      approve ? '/v1/multisig/approve' : '/v1/multisig/cancel',
      approve ? 'approveMultisig' : 'cancelMultisig',
      approve
        ? 'Approve a pending proposal'
        : 'Ask for the cancellation of a pending proposal (quorum cancels)',
      WRITE_NOTE,
    ),
    errorStatuses: [404, 409, 429],
    schema: {
      body: Type.Object(
        { ...SELECTOR_FIELDS, ...SIGNING_FIELDS, ...PROPOSAL_FIELDS },
        { additionalProperties: false },
      ),
      response: { 200: viewSchema(MultisigWriteView) },
    },
    handler: async (req, reply) => {
      refusePrivateKey(req.body);
      const m = resolveMultisig(d, port, req.body);
      const hash = proposalIdOf(req.body);
      if (port.proposal(m.account, hash) === undefined)
        throw gatewayError('not_found', { proposal_id: hash });
      const ins: Instruction = { kind, multisig: m.account, instructionsHash: hash };
      const value = await answer(d, req.body, m, hash, ins);
      return respond(d.schema, req, reply, MultisigWriteView, value);
    },
  });
}

export function multisigWriteRoutes(d: RouteDeps, port: MultisigPort): RouteDef[] {
  return [proposeRoute(d, port), voteRoute(d, port, 'ApproveMultisig'), voteRoute(d, port, 'CancelMultisig')];
}
