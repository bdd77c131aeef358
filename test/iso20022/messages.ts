// Realistic messages for the bridge tests (not a test file): the library's samples (src/modules/iso20022/
// samples/, written from the ISO message definitions) with the ledger pins of the test accounts added
// as supplementary data, and generated pacs.008 variants for the negative cases.

import { readFileSync } from 'node:fs';

const SAMPLES = new URL('../../src/modules/iso20022/samples/', import.meta.url);
export const PIN_NS = 'urn:torana:iso20022:ledger:1';

export function sample(name: string): string {
  return readFileSync(new URL(name, SAMPLES), 'utf8');
}

/** `SplmtryData/Envlp/Ledger` with the given children (README "Ledger pins"). */
export function pinsXml(pins: Record<string, string | undefined>): string {
  const kids = Object.entries(pins)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('');
  return `<SplmtryData><Envlp><Ledger xmlns="${PIN_NS}">${kids}</Ledger></Envlp></SplmtryData>`;
}

/** Replaces each `from` (which must occur) and inserts `insert` before `</beforeClose>`. */
export function edited(
  xml: string,
  edits: ReadonlyArray<readonly [string, string]>,
  insert?: [string, string],
) {
  let out = xml;
  for (const [from, to] of edits) {
    if (!out.includes(from)) throw new Error(`message edit: ${from} not found`);
    out = out.split(from).join(to);
  }
  if (insert !== undefined) {
    const [close, what] = insert;
    if (!out.includes(`</${close}>`)) throw new Error(`message edit: </${close}> not found`);
    out = out.replace(`</${close}>`, `${what}</${close}>`);
  }
  return out;
}

export interface Pins {
  ledger?: string;
  source?: string;
  target?: string;
  asset?: string;
}

export function paymentPins(p: Pins): string {
  return pinsXml({
    LedgerId: p.ledger,
    SourceAccountId: p.source,
    TargetAccountId: p.target,
    AssetDefinitionId: p.asset,
  });
}

export interface PaymentTx {
  e2e: string;
  amount: string;
  ccy?: string;
  debtorIban?: string;
  creditorIban?: string;
  debtorBic?: string;
  creditorBic?: string;
  pins?: Pins;
  uetr?: string;
}

function paymentTx(t: PaymentTx): string {
  return `<CdtTrfTxInf><PmtId><InstrId>I-${t.e2e}</InstrId><EndToEndId>${t.e2e}</EndToEndId><TxId>T-${t.e2e}</TxId>${
    t.uetr === undefined ? '' : `<UETR>${t.uetr}</UETR>`
  }</PmtId><IntrBkSttlmAmt Ccy="${t.ccy ?? 'EUR'}">${t.amount}</IntrBkSttlmAmt><IntrBkSttlmDt>2025-03-14</IntrBkSttlmDt><ChrgBr>SLEV</ChrgBr><Dbtr><Nm>Muster Maschinenbau GmbH</Nm></Dbtr><DbtrAcct><Id><IBAN>${
    t.debtorIban ?? 'DE89370400440532013000'
  }</IBAN></Id></DbtrAcct><DbtrAgt><FinInstnId><BICFI>${t.debtorBic ?? 'DEUTDEFFXXX'}</BICFI></FinInstnId></DbtrAgt><CdtrAgt><FinInstnId><BICFI>${
    t.creditorBic ?? 'NWBKGB2LXXX'
  }</BICFI></FinInstnId></CdtrAgt><Cdtr><Nm>Thames Precision Components Ltd</Nm></Cdtr><CdtrAcct><Id><IBAN>${
    t.creditorIban ?? 'GB29NWBK60161331926819'
  }</IBAN></Id></CdtrAcct>${t.pins === undefined ? '' : paymentPins(t.pins)}</CdtTrfTxInf>`;
}

/** A pacs.008.001.09 with one CdtTrfTxInf per transaction and optional document-level pins. */
export function pacs008(msgId: string, txs: readonly PaymentTx[], docPins?: Pins, version = '09'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.${version}"><FIToFICstmrCdtTrf><GrpHdr><MsgId>${msgId}</MsgId><CreDtTm>2025-03-14T09:30:12+01:00</CreDtTm><NbOfTxs>${
    txs.length
  }</NbOfTxs><SttlmInf><SttlmMtd>CLRG</SttlmMtd></SttlmInf></GrpHdr>${txs.map(paymentTx).join('')}${
    docPins === undefined ? '' : paymentPins(docPins)
  }</FIToFICstmrCdtTrf></Document>`;
}

/** The pacs.008 sample (one EUR 1,250.00 transfer) with new ids and the accounts pinned. */
export function pacs008Sample(msgId: string, pins: Pins, e2e = 'INV-2025-0042'): string {
  return edited(
    sample('pacs008.xml'),
    [
      ['DEUT-P008-20250314-000117', msgId],
      ['INV-2025-0042', e2e],
    ],
    ['FIToFICstmrCdtTrf', paymentPins(pins)],
  );
}

export function pacs009Sample(msgId: string, pins: Pins, purpose = '<Purp><Cd>SECU</Cd></Purp>'): string {
  return edited(sample('pacs009.xml'), [
    ['COBA-P009-20250314-7781', msgId],
    ['COBA-BAH-20250314-7781', `BAH-${msgId}`],
    ['<Purp>\n          <Cd>SECU</Cd>\n        </Purp>', `${purpose}${paymentPins(pins)}`],
  ]);
}
