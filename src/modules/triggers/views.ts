// Answer types of the trigger routes, codec types so the JSON answer, the codec answer and the OpenAPI
// schema come from one definition (gateway/view.ts). Rows are the ledger's own (row.ts), in
// their snake_case JSON form.

import { seq, struct } from '../../codec/compound.js';
import { varuint } from '../../codec/primitives.js';
import { TriggerCodec } from './row.js';

export const LIST_ITEMS_MAX = 500;

export const TriggerListView = struct('TriggerList', {
  items: seq(TriggerCodec, LIST_ITEMS_MAX),
  total: varuint,
});
