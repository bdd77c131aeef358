// POST /v1/accounts/onboard/multisig: the transaction that creates a multisig
// account (RegisterMultisig, plus RegisterAccountAlias when `alias` is given), for the caller to sign;
// two steps like the other multisig writes (detached.ts). The reference signs onboarding with a
// node-held key; here the node holds none. Who may register is the ledger's rule (as RegisterAccount:
// the domain owner, or CanRegisterAccountInDomain).

import { Type } from 'typebox';
import { isCodecError } from '../../codec/errors.js';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { respond, viewSchema } from '../../gateway/view.js';
import { ID_NAME_TEXT_BYTES_MAX } from '../../model/id-names.js';
import type { Instruction } from '../../model/instructions.js';
import { NAME_BYTES_MAX, nameProblem } from '../../model/names.js';
import { signOrSubmit } from './detached.js';
import {
  MULTISIG_SEED_BYTES_MAX,
  MULTISIG_TTL_MS_DEFAULT,
  type MultisigSpec,
  MultisigSpecCodec,
  multisigAccountId,
  specProblem,
} from './model.js';
import { refusePrivateKey, SIGNING_FIELDS } from './request.js';
import { post } from './routes-read.js';
import { MultisigOnboardView } from './views.js';

const NOTE =
  'Returns the RegisterMultisig transaction for the signer to sign (signing_message_b64, creation_time_ms); ' +
  'repeat the body with public_key_hex and signature_b64 to submit it. The account id is derived from ' +
  'domain and seed (docs/multisig.md). A body with private_key: 400 private_key_not_accepted.';

const Body = Type.Object(
  {
    domain: Type.String({ minLength: 1, maxLength: NAME_BYTES_MAX }),
    seed: Type.String({ minLength: 1, maxLength: MULTISIG_SEED_BYTES_MAX }),
    signatories: Type.Record(Type.String({ maxLength: 512 }), Type.Integer({ minimum: 0, maximum: 255 })),
    quorum: Type.Integer({ minimum: 1, maximum: 0xffff }),
    transaction_ttl_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    alias: Type.Optional(Type.String({ minLength: 1, maxLength: ID_NAME_TEXT_BYTES_MAX })),
    ...SIGNING_FIELDS,
  },
  { additionalProperties: false },
);

function bad(field: string, reason: string): never {
  throw gatewayError('bad_request', { location: 'body', field, reason });
}

function specOf(b: {
  signatories: Record<string, number>;
  quorum: number;
  transaction_ttl_ms?: number;
}): MultisigSpec {
  try {
    return MultisigSpecCodec.fromJson(
      {
        signatories: b.signatories,
        quorum: b.quorum,
        transaction_ttl_ms: b.transaction_ttl_ms ?? MULTISIG_TTL_MS_DEFAULT,
      },
      '',
    );
  } catch (e) {
    if (isCodecError(e)) bad('signatories', e.message);
    throw e;
  }
}

export function onboardRoute(d: RouteDeps): RouteDef {
  return defineRoute({
    ...post(
      '/v1/accounts/onboard/multisig',
      'onboardMultisigAccount',
      'The transaction creating a multisig account',
      NOTE,
    ),
    tags: ['multisig', 'accounts'],
    errorStatuses: [409, 429],
    schema: { body: Body, response: { 200: viewSchema(MultisigOnboardView) } },
    handler: async (req, reply) => {
      refusePrivateKey(req.body);
      const b = req.body;
      const domainProblem = nameProblem(b.domain);
      if (domainProblem !== undefined) bad('domain', domainProblem);
      const account = multisigAccountId(b.domain, b.seed);
      const spec = specOf(b);
      const problem = specProblem(account, spec);
      if (problem !== undefined) bad('signatories', problem);
      const instructions: Instruction[] = [{ kind: 'RegisterMultisig', account, seed: b.seed, spec }];
      if (b.alias !== undefined) instructions.push({ kind: 'RegisterAccountAlias', alias: b.alias, account });
      const out = await signOrSubmit(d, b, instructions);
      const value = {
        ok: true,
        multisigAccountId: account,
        submitted: out.submitted,
        authority: out.authority,
        creationTimeMs: out.creationTimeMs,
        txInstructions: instructions,
        ...(out.signingMessageB64 === undefined ? {} : { signingMessageB64: out.signingMessageB64 }),
        ...(out.txHashHex === undefined ? {} : { txHashHex: out.txHashHex }),
      };
      return respond(d.schema, req, reply, MultisigOnboardView, value);
    },
  });
}
