// The stored trigger (world-state table 0x19): model.ts's fields plus its instructions.

import type { Infer } from '../../codec/codec.js';
import { seq, struct } from '../../codec/compound.js';
import { InstructionCodec } from '../../model/instructions.js';
import { TRIGGER_INSTRUCTIONS_MAX, TriggerFields } from './model.js';

export const TriggerCodec = struct('Trigger', {
  ...TriggerFields,
  instructions: seq(InstructionCodec, TRIGGER_INSTRUCTIONS_MAX),
});
export type Trigger = Infer<typeof TriggerCodec>;
