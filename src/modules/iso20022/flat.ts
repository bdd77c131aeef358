// The flat field format of pacs.008 and pacs.009, a flat envelope of named fields: one JSON object of named
// string fields carrying one transaction. Validation is the same as for XML; error paths are the field
// names. Field tables: README "Flat field format". Values must be JSON strings — an amount sent as a JSON
// number is refused (rule field_type), because a binary float cannot carry every decimal amount.

import type { IsoValidationError } from './errors.js';
import { must } from './messages/common.js';
import type { Pacs008Message } from './messages/pacs008.js';
import { PACS009_PURPOSE, type Pacs009Message } from './messages/pacs009.js';
import { checkPin, type LedgerPins, NO_PINS, PIN_ELEMENTS, type PinField } from './messages/pins.js';
import {
  Issues,
  optBic,
  optDateTime,
  optText,
  optUuid,
  reqAmount,
  reqBic,
  reqDate,
  reqDateTime,
  reqIban,
  reqText,
} from './validate/fields.js';
import { checkMessageDefinitionId } from './validate/identifiers.js';
import { type FieldSource, flatField } from './xml/cursor.js';

const PIN_FIELDS: readonly PinField[] = PIN_ELEMENTS.map(([f]) => f);
const COMMON_FIELDS = [
  'amount',
  'currency',
  'settlement_date',
  'debtor_iban',
  'creditor_iban',
  'instruction_id',
  'end_to_end_id',
  'transaction_id',
  'uetr',
  'creation_time',
  'message_definition_id',
  ...PIN_FIELDS,
] as const;
export const PACS008_FLAT_FIELDS: ReadonlySet<string> = new Set([
  ...COMMON_FIELDS,
  'message_id',
  'debtor_bic',
  'creditor_bic',
  'debtor_name',
  'creditor_name',
]);
export const PACS009_FLAT_FIELDS: ReadonlySet<string> = new Set([
  ...COMMON_FIELDS,
  'business_message_id',
  'message_id',
  'instructing_agent_bic',
  'instructed_agent_bic',
  'debtor_bic',
  'creditor_bic',
  'purpose',
]);
/** The default message definition of a flat pacs.008 (the version our samples and schemas use). */
export const PACS008_FLAT_DEFINITION = 'pacs.008.001.09';
/** In the flat form a field's path is its name. */
const FLAT_PATHS = {
  amount: 'amount',
  currency: 'currency',
  settlementDate: 'settlement_date',
  debtorIban: 'debtor_iban',
  creditorIban: 'creditor_iban',
  // The flat form names accounts by IBAN only (README "Flat form"): no other-id field exists.
  debtorOtherId: 'debtor_iban',
  creditorOtherId: 'creditor_iban',
  debtorBic: 'debtor_bic',
  creditorBic: 'creditor_bic',
} as const;
/** ISO's placeholder when the originator gave no end-to-end reference. */
const NOT_PROVIDED = 'NOTPROVIDED';

type Flat = Readonly<Record<string, unknown>>;

/** Unknown fields and non-string values are reported alone: the content is not read past them. */
function checkShape(flat: Flat, allowed: ReadonlySet<string>): Issues {
  const is = new Issues();
  for (const [key, value] of Object.entries(flat)) {
    if (!allowed.has(key)) is.add('field_unknown', key, `unknown field "${key.slice(0, 64)}"`);
    else if (typeof value !== 'string') is.add('field_type', key, `${key} must be a JSON string`);
  }
  return is;
}

function field(flat: Flat, name: string): FieldSource {
  return flatField(name, Object.hasOwn(flat, name) ? flat[name] : undefined);
}

function readPinFields(
  is: Issues,
  flat: Flat,
): { pins: LedgerPins; paths: Record<PinField, string | undefined> } {
  const pins: Record<PinField, string | undefined> = { ...NO_PINS.pins };
  const paths: Record<PinField, string | undefined> = { ...NO_PINS.paths };
  for (const name of PIN_FIELDS) {
    const value = checkPin(is, field(flat, name).text(), name);
    if (value !== undefined) {
      pins[name] = value;
      paths[name] = name;
    }
  }
  return { pins, paths };
}

/** message_definition_id must name the expected family (pacs.008.001.xx / pacs.009.001.xx). */
function definition(
  is: Issues,
  flat: Flat,
  family: string,
  fallback: string | undefined,
): string | undefined {
  const src = field(flat, 'message_definition_id');
  const v = src.text();
  if (v === undefined) return fallback === undefined ? is.missing(src.path) : fallback;
  const id = is.apply(checkMessageDefinitionId(v), src.path);
  if (id !== undefined && !id.startsWith(`${family}.`)) {
    is.add('msgdef_mismatch', src.path, `${id} is not a ${family} message definition`);
    return undefined;
  }
  return id;
}

function common(is: Issues, flat: Flat) {
  const amount = reqAmount(is, field(flat, 'amount'), field(flat, 'currency'));
  if (amount?.mantissa === 0n)
    is.add('amount_not_positive', 'amount', 'the amount must be greater than zero');
  return {
    amount,
    settlementDate: reqDate(is, field(flat, 'settlement_date')),
    debtorIban: reqIban(is, field(flat, 'debtor_iban')),
    creditorIban: reqIban(is, field(flat, 'creditor_iban')),
    instructionId: optText(is, field(flat, 'instruction_id')),
    endToEndId: optText(is, field(flat, 'end_to_end_id')) ?? NOT_PROVIDED,
    transactionId: optText(is, field(flat, 'transaction_id')),
    uetr: optUuid(is, field(flat, 'uetr')),
    pinSet: readPinFields(is, flat),
  };
}

export type FlatResult<T> = { ok: true; message: T } | { ok: false; errors: IsoValidationError[] };

export function parseFlatPacs008(flat: Flat): FlatResult<Pacs008Message> {
  const shape = checkShape(flat, PACS008_FLAT_FIELDS);
  if (!shape.ok) return { ok: false, errors: shape.errors };
  const is = new Issues();
  const messageId = reqText(is, field(flat, 'message_id'));
  const creationTime = optDateTime(is, field(flat, 'creation_time'));
  const messageDefinitionId = definition(is, flat, 'pacs.008', PACS008_FLAT_DEFINITION);
  const c = common(is, flat);
  const debtorBic = reqBic(is, field(flat, 'debtor_bic'));
  const creditorBic = reqBic(is, field(flat, 'creditor_bic'));
  const debtorName = optText(is, field(flat, 'debtor_name'), 140);
  const creditorName = optText(is, field(flat, 'creditor_name'), 140);
  if (!is.ok) return { ok: false, errors: is.errors };
  const { pinSet, ...tx } = c;
  return {
    ok: true,
    message: {
      kind: 'pacs008',
      messageDefinitionId: must(messageDefinitionId),
      messageId: must(messageId),
      creationTime,
      appHeader: undefined,
      transactions: [
        {
          ...tx,
          amount: must(tx.amount),
          settlementDate: must(tx.settlementDate),
          debtorIban: must(tx.debtorIban),
          creditorIban: must(tx.creditorIban),
          debtorOtherId: undefined,
          creditorOtherId: undefined,
          debtorBic: must(debtorBic),
          creditorBic: must(creditorBic),
          debtorName,
          creditorName,
          pins: pinSet.pins,
          paths: { ...FLAT_PATHS, pins: pinSet.paths },
        },
      ],
    },
  };
}

export function parseFlatPacs009(flat: Flat): FlatResult<Pacs009Message> {
  const shape = checkShape(flat, PACS009_FLAT_FIELDS);
  if (!shape.ok) return { ok: false, errors: shape.errors };
  const is = new Issues();
  const businessMessageId = reqText(is, field(flat, 'business_message_id'));
  const messageId = optText(is, field(flat, 'message_id'));
  const messageDefinitionId = definition(is, flat, 'pacs.009', undefined);
  const creationTime = reqDateTime(is, field(flat, 'creation_time'));
  const c = common(is, flat);
  const agents = {
    instructingAgentBic: reqBic(is, field(flat, 'instructing_agent_bic')),
    instructedAgentBic: reqBic(is, field(flat, 'instructed_agent_bic')),
    debtorBic: optBic(is, field(flat, 'debtor_bic')),
    creditorBic: optBic(is, field(flat, 'creditor_bic')),
  };
  const purpose = field(flat, 'purpose').text();
  if (purpose !== undefined && purpose !== PACS009_PURPOSE) {
    is.add('purpose_not_secu', 'purpose', `only the purpose code ${PACS009_PURPOSE} is accepted on pacs.009`);
  }
  if (!is.ok) return { ok: false, errors: is.errors };
  const { pinSet, ...tx } = c;
  return {
    ok: true,
    message: {
      kind: 'pacs009',
      businessMessageId: must(businessMessageId),
      messageDefinitionId: must(messageDefinitionId),
      messageId: messageId ?? must(businessMessageId),
      creationTime: must(creationTime),
      appHeader: undefined,
      transactions: [
        {
          ...tx,
          ...agents,
          amount: must(tx.amount),
          settlementDate: must(tx.settlementDate),
          instructingAgentBic: must(agents.instructingAgentBic),
          instructedAgentBic: must(agents.instructedAgentBic),
          debtorIban: must(tx.debtorIban),
          creditorIban: must(tx.creditorIban),
          debtorOtherId: undefined,
          creditorOtherId: undefined,
          purpose,
          pins: pinSet.pins,
          paths: {
            ...FLAT_PATHS,
            instructingAgentBic: 'instructing_agent_bic',
            instructedAgentBic: 'instructed_agent_bic',
            pins: pinSet.paths,
          },
        },
      ],
    },
  };
}
