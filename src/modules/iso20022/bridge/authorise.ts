// Which messages a participant may submit (docs/iso20022.md "Participants"). Two
// checks, both before anything is signed:
//   1. the message's instructing institution is one of the participant's BICs: for pacs.008 the debtor
//      agent (DbtrAgt) of every transaction, for pacs.009 the debtor FI (Dbtr), else the instructing
//      agent, i.e. the institution whose account the transfer debits (resolve.ts transfersOf);
//   2. every account a planned instruction debits (TransferAsset source) is one the participant acts for
//      (participants.ts actsFor). This covers every kind (returns debit the original creditor, DvP legs
//      debit both parties), and makes pins and crosswalks narrow only: whatever they resolve, a debit
//      outside the participant's accounts is refused.
// The ledger enforces the same boundary again (state/authorize.ts authorizeDebit): the bridge account is
// a TransferDelegate and can only debit accounts that granted it CanTransferFrom.

import { parseAssetId } from '../../../model/ids.js';
import type { Instruction } from '../../../model/instructions.js';
import type { ReferenceData } from '../reference-data.js';
import { transfersOf } from '../resolve.js';
import type { RoutedMessage } from './kinds.js';
import { actsFor, holdsBic, notAuthorised, type Participant } from './participants.js';

export function checkInstructingAgent(m: RoutedMessage, p: Participant): void {
  if (m.kind !== 'pacs008' && m.kind !== 'pacs009') return;
  for (const t of transfersOf(m)) {
    const bic = t.source.bic;
    if (bic === undefined || !holdsBic(p, bic)) {
      throw notAuthorised('bic', `${p.account} may not instruct for BIC ${bic ?? '(none)'}`, {
        path: t.source.bicPath,
        bic: bic ?? null,
      });
    }
  }
}

export function checkDebits(instructions: readonly Instruction[], p: Participant, ref: ReferenceData): void {
  instructions.forEach((ins, index) => {
    // Plans only move value with TransferAsset; anything else a participant's message produced is a bug.
    if (ins.kind !== 'TransferAsset') {
      throw notAuthorised('instruction', `a bridge message may not produce ${ins.kind}`, {
        instruction_index: index,
      });
    }
    const source = parseAssetId(ins.source)?.account;
    if (source === undefined || !actsFor(p, source, ref)) {
      throw notAuthorised('account', `${p.account} may not debit ${source ?? ins.source}`, {
        account: source ?? null,
        instruction_index: index,
      });
    }
  });
}
