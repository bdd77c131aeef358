import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertCode,
  assertRule,
  ok,
  sample,
  sampleJson,
} from '../../../test/fixtures/iso20022/samples-fixture.js';
import { PACS008_FLAT_FIELDS, PACS009_FLAT_FIELDS } from './flat.js';
import { parseMessage } from './parse.js';

const flat008 = sampleJson('pacs008.flat.json');
const flat009 = sampleJson('pacs009.flat.json');
const without = (o: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

describe('flat field format', () => {
  it('reads pacs.008 fields into the same record as XML, with field names as paths', () => {
    const m = ok(parseMessage('pacs008', flat008));
    assert.equal(m.messageDefinitionId, 'pacs.008.001.09');
    assert.equal(m.messageId, 'DEUT-P008-20250314-000119');
    const t = m.transactions[0]!;
    assert.deepEqual(t.amount, { currency: 'EUR', text: '1250.00', mantissa: 125000n, scale: 2 });
    assert.equal(t.endToEndId, 'INV-2025-0045');
    assert.equal(t.pins.ledger_id, 'torana-main');
    assert.equal(t.paths.debtorIban, 'debtor_iban');
    assert.equal(t.paths.pins.asset_definition_id, 'asset_definition_id');
  });

  it('accepts the same content as a JSON string body', () => {
    const m = ok(parseMessage('pacs009', `\n ${sample('pacs009.flat.json')}`));
    assert.equal(m.businessMessageId, 'COBA-BAH-20250314-7782');
    assert.equal(m.messageId, 'COBA-BAH-20250314-7782');
    assert.equal(m.transactions[0]?.pins.source_account_id, 'commerzbank-cash@de');
    assert.equal(m.transactions[0]?.paths.instructingAgentBic, 'instructing_agent_bic');
  });

  it('defaults the end-to-end id to NOTPROVIDED', () => {
    assert.equal(
      ok(parseMessage('pacs008', without(flat008, 'end_to_end_id'))).transactions[0]?.endToEndId,
      'NOTPROVIDED',
    );
  });

  const required008 = [
    'message_id',
    'amount',
    'currency',
    'settlement_date',
    'debtor_iban',
    'creditor_iban',
    'debtor_bic',
    'creditor_bic',
  ];
  for (const field of required008) {
    it(`pacs.008 requires ${field}`, () =>
      assertRule(parseMessage('pacs008', without(flat008, field)), 'required', field));
  }
  const required009 = [
    'business_message_id',
    'message_definition_id',
    'creation_time',
    'amount',
    'currency',
    'settlement_date',
    'instructing_agent_bic',
    'instructed_agent_bic',
    'debtor_iban',
    'creditor_iban',
  ];
  for (const field of required009) {
    it(`pacs.009 requires ${field}`, () =>
      assertRule(parseMessage('pacs009', without(flat009, field)), 'required', field));
  }

  it('applies the XML rules to the flat fields', () => {
    assertRule(
      parseMessage('pacs008', { ...flat008, debtor_iban: 'DE89370400440532013001' }),
      'iban_checksum',
      'debtor_iban',
    );
    assertRule(
      parseMessage('pacs008', { ...flat008, currency: 'JPY', amount: '10.5' }),
      'amount_precision',
      'amount',
    );
    assertRule(
      parseMessage('pacs008', { ...flat008, settlement_date: '2025-13-01' }),
      'date_invalid',
      'settlement_date',
    );
    assertRule(parseMessage('pacs009', { ...flat009, purpose: 'CASH' }), 'purpose_not_secu', 'purpose');
    assertRule(
      parseMessage('pacs009', { ...flat009, message_definition_id: 'pacs.008.001.09' }),
      'msgdef_mismatch',
      'message_definition_id',
    );
    assertRule(
      parseMessage('pacs008', { ...flat008, target_account_id: ' ' }),
      'pin_format',
      'target_account_id',
    );
  });

  it('refuses JSON numbers, unknown fields and non-object bodies', () => {
    assertRule(parseMessage('pacs008', { ...flat008, amount: 1250 }), 'field_type', 'amount');
    assertRule(parseMessage('pacs008', { ...flat008, amout: '1' }), 'field_unknown', 'amout');
    const polluting = `{"__proto__": {"polluted": "yes"}, ${JSON.stringify(flat008).slice(1)}`;
    assertRule(parseMessage('pacs008', polluting), 'field_unknown', '__proto__');
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assertCode(parseMessage('pacs008', '[1,2]'), 'iso_input_invalid');
    assertCode(parseMessage('pacs008', '{"message_id": '), 'iso_input_invalid');
    assertCode(parseMessage('pacs002', flat008), 'iso_input_invalid');
  });

  it('knows exactly the documented field names', () => {
    assert.equal(PACS008_FLAT_FIELDS.size, 20);
    assert.equal(PACS009_FLAT_FIELDS.size, 22);
    for (const key of Object.keys(flat008)) assert.ok(PACS008_FLAT_FIELDS.has(key), key);
    for (const key of Object.keys(flat009)) assert.ok(PACS009_FLAT_FIELDS.has(key), key);
  });
});
