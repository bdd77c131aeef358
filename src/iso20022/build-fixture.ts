// Typical builder inputs, shared by build.test.ts and xsd.test.ts (excluded from the build).

import type { Camt029Input } from './build/camt029.js';
import type { Pacs002Input } from './build/pacs002.js';
import type { Pacs004Input } from './build/pacs004.js';
import type { Sese024Input } from './build/sese024.js';
import type { Sese025Input } from './build/sese025.js';

const original = {
  messageId: 'DEUT-P008-20250314-000117',
  messageDefinitionId: 'pacs.008.001.09',
  creationTime: '2025-03-14T09:30:12.345+01:00',
};

export const PACS002_INPUT: Pacs002Input = {
  messageId: 'TORANA-P002-20250314-0001',
  creationTime: '2025-03-14T09:45:00Z',
  instructingAgentBic: 'NWBKGB2LXXX',
  instructedAgentBic: 'DEUTDEFFXXX',
  original,
  groupStatus: 'PART',
  transactions: [
    {
      statusId: 'STS-1',
      originalInstructionId: 'DEUT-INSTR-000117',
      originalEndToEndId: 'INV-2025-0042',
      originalTransactionId: 'DEUT-TX-000117',
      originalUetr: '0f4c6d7e-3a2b-4c1d-9e8f-7a6b5c4d3e2f',
      status: 'ACSC',
      acceptanceTime: '2025-03-14T09:44:58Z',
    },
    {
      originalEndToEndId: 'INV-2025-0043 <R&D>',
      status: 'RJCT',
      reasonCode: 'AM04',
      additionalInfo: ['Insufficient funds on "Muster" & Co\'s account'],
    },
    { originalEndToEndId: 'INV-2025-0044', status: 'ACTC' },
  ],
};

export const PACS004_INPUT: Pacs004Input = {
  messageId: 'TORANA-P004-20250317-0001',
  creationTime: '2025-03-17T08:00:00Z',
  settlementMethod: 'CLRG',
  instructingAgentBic: 'NWBKGB2LXXX',
  original,
  transactions: [
    {
      returnId: 'RTR-1',
      originalEndToEndId: 'INV-2025-0042',
      originalUetr: '0f4c6d7e-3a2b-4c1d-9e8f-7a6b5c4d3e2f',
      originalAmount: { currency: 'EUR', value: '1250.00' },
      originalSettlementDate: '2025-03-14',
      returnedAmount: { currency: 'EUR', value: '1250' },
      settlementDate: '2025-03-17',
      chargeBearer: 'SLEV',
      reasonCode: 'AC04',
      additionalInfo: ['Account closed'],
    },
    {
      originalEndToEndId: 'INV-2025-0050',
      returnedAmount: { currency: 'JPY', value: '5000' },
      proprietaryReason: 'LEDGER-REVERTED',
    },
  ],
};

export const CAMT029_INPUT: Camt029Input = {
  assignmentId: 'TORANA-C029-20250314-0001',
  creationTime: '2025-03-14T12:05:00Z',
  assignerBic: 'NWBKGB2LXXX',
  assigneeBic: 'DEUTDEFFXXX',
  caseId: 'CASE-DEUT-2025-0311',
  caseCreatorBic: 'DEUTDEFFXXX',
  status: 'RJCR',
  original,
  groupCancellationStatus: 'RJCR',
  transactions: [
    {
      cancellationStatusId: 'CXLSTS-1',
      originalInstructionId: 'DEUT-INSTR-000117',
      originalEndToEndId: 'INV-2025-0042',
      originalTransactionId: 'DEUT-TX-000117',
      originalUetr: '0f4c6d7e-3a2b-4c1d-9e8f-7a6b5c4d3e2f',
      status: 'RJCR',
      reasonCode: 'ARDT',
      additionalInfo: ['Already settled on the ledger'],
    },
  ],
};

export const SESE024_INPUT: Sese024Input = {
  accountOwnerTransactionId: 'COBA-SETI-20250312-0007',
  accountServicerTransactionId: 'TORANA-SETI-0007',
  processing: { status: 'accepted' },
  matching: { status: 'matched' },
  settlement: { status: 'failing', reasonCode: 'LACK' },
};

export const SESE025_INPUT: Sese025Input = {
  accountOwnerTransactionId: 'COBA-SETI-20250312-0007',
  accountServicerTransactionId: 'TORANA-SETI-0007',
  movement: 'DELI',
  payment: 'APMT',
  tradeDate: '2025-03-12',
  settlementDate: '2025-03-14',
  effectiveSettlementDate: '2025-03-14',
  isin: 'DE0001102580',
  quantity: { type: 'face_amount', value: '5000000' },
  safekeepingAccount: 'COBA-SAFE-7001',
  delivering: {
    depositoryBic: 'DAKVDEFFXXX',
    partyBic: 'COBADEFFXXX',
    partySafekeepingAccount: 'COBA-SAFE-7001',
  },
  receiving: { depositoryBic: 'DAKVDEFFXXX', partyBic: 'DEUTDEFFXXX' },
  settledAmount: { currency: 'EUR', value: '4987500', creditDebit: 'CRDT' },
};
