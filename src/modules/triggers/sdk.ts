// The triggers module's SDK functions (docs/triggers.md): the RegisterTrigger / UnregisterTrigger
// builders (spread into the SDK's `instructions`) and the trigger reads over GET /v1/triggers, decoded
// with the node's own view codecs so the SDK and the node cannot drift. A 404 is a ToranaApiError with
// code `not_found`. The SDK's public surface (src/sdk/index.ts) re-exports these names.

import type { Instruction } from '../../model/instructions.js';
import { getView, type PageOptions } from '../../sdk/answers.js';
import type { Http } from '../../sdk/http.js';
import { TriggerCodec } from './row.js';
import { TriggerListView } from './views.js';

type RegisterTrigger = Extract<Instruction, { kind: 'RegisterTrigger' }>;

/** When a trigger is due: `{height}` or `{timeMs}`; how it repeats: `{everyBlocks}` or `{everyMs}`. */
export type TriggerDueInput = { height: number } | { timeMs: number };
export type TriggerRepeatInput = { everyBlocks: number } | { everyMs: number };

export type TriggerList = ReturnType<typeof TriggerListView.fromJson>;
export type TriggerRow = ReturnType<typeof TriggerCodec.fromJson>;

function due(d: TriggerDueInput): RegisterTrigger['due'] {
  return 'height' in d ? { kind: 'Height', height: d.height } : { kind: 'Time', timeMs: d.timeMs };
}

function repeat(r: TriggerRepeatInput): NonNullable<RegisterTrigger['repeat']> {
  return 'everyBlocks' in r
    ? { kind: 'EveryBlocks', blocks: r.everyBlocks }
    : { kind: 'EveryMs', ms: r.everyMs };
}

export const triggerInstructions = {
  /** Runs `instructions` as the signer when due (once, or repeating). */
  registerTrigger: (
    id: string,
    when: TriggerDueInput,
    instructions: Instruction[],
    every?: TriggerRepeatInput,
  ): Instruction => ({
    kind: 'RegisterTrigger',
    id,
    due: due(when),
    ...(every === undefined ? {} : { repeat: repeat(every) }),
    instructions,
  }),
  unregisterTrigger: (id: string): Instruction => ({ kind: 'UnregisterTrigger', id }),
} as const;

export function triggersList(client: { http: Http }, opts: PageOptions & { authority?: string } = {}) {
  return getView(client.http, '/v1/triggers', { ...opts }, TriggerListView);
}

export function triggerDetail(client: { http: Http }, id: string) {
  return getView(client.http, `/v1/triggers/${encodeURIComponent(id)}`, {}, TriggerCodec);
}

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const TRIGGER_SDK = { triggersList, triggerDetail } as const;
