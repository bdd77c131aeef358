// The code of `torana trigger …` (commands.ts).

import { type Flags, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { printJson, printRecord, printTable } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { InstructionCodec } from '../../model/instructions.js';
import { TriggerCodec } from './row.js';
import {
  triggerInstructions as ix,
  type TriggerDueInput,
  type TriggerRepeatInput,
  triggerDetail,
  triggersList,
} from './sdk.js';
import { TriggerListView } from './views.js';

function int(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]{1,16}$/.test(text))
    throw new CliError('invalid_argument', `${name} must be a whole number`, 2);
  return Number(text);
}

type TriggerFlags = Flags & { height?: string; atMs?: string; everyBlocks?: string; everyMs?: string };

function parseInstructions(text: string) {
  try {
    const list = JSON.parse(text) as unknown;
    if (!Array.isArray(list)) throw new Error('expected a JSON array');
    return list.map((j, i) => InstructionCodec.fromJson(j as Json, `[${i}]`));
  } catch (e) {
    throw new CliError('invalid_argument', `instructions: ${(e as Error).message}`, 2);
  }
}

export function triggerRegister(id: string, instructionsJson: string, f: TriggerFlags) {
  const height = int(f.height, '--height');
  const atMs = int(f.atMs, '--at-ms');
  if ((height === undefined) === (atMs === undefined))
    throw new CliError('invalid_argument', 'give exactly one of --height and --at-ms', 2);
  const when: TriggerDueInput = height === undefined ? { timeMs: atMs! } : { height };
  const blocks = int(f.everyBlocks, '--every-blocks');
  const ms = int(f.everyMs, '--every-ms');
  const every: TriggerRepeatInput | undefined =
    blocks !== undefined ? { everyBlocks: blocks } : ms !== undefined ? { everyMs: ms } : undefined;
  const list = parseInstructions(instructionsJson);
  return submit(f, () => [ix.registerTrigger(id, when, list, every)]);
}

export const triggerRemove = (id: string, f: Flags) => submit(f, () => [ix.unregisterTrigger(id)]);

export async function triggerList(f: Flags & { authority?: string }): Promise<void> {
  const { client } = await resolveClient(f, false);
  const out = await triggersList(client, f.authority === undefined ? {} : { authority: f.authority });
  if (f.json) printJson(TriggerListView.toJson(out));
  else
    printTable(
      out.items.map((t) => ({
        id: t.id,
        authority: t.authority,
        due: t.due.kind === 'Height' ? `height ${t.due.height}` : `time ${t.due.timeMs}`,
        runs: t.runs,
      })),
    );
}

export async function triggerGet(id: string, f: Flags): Promise<void> {
  const { client } = await resolveClient(f, false);
  const json = TriggerCodec.toJson(await triggerDetail(client, id)) as Record<string, Json>;
  if (f.json) printJson(json);
  else printRecord(json);
}
