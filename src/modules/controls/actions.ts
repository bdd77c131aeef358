// The code of `torana controls …` (commands.ts). Ids may be names in place of ids (resolved by the node).

import { type Flags, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { accountArg, definitionArg } from '../../cli/id-args.js';
import { printJson, printRecord } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import type { ToranaClient } from '../../sdk/client.js';
import {
  assetTransferControl,
  definitionTransferControl,
  controlInstructions as ix,
  type TransferWindow,
} from './sdk.js';
import { AssetTransferControlView, DefinitionTransferControlView } from './views.js';
import { parseWindowName } from './windows.js';

type Built = ReturnType<typeof ix.setTransferFreeze>;

async function submitWith(
  flags: Flags,
  definition: string,
  holder: string | undefined,
  build: (definition: string, holder: string | undefined) => Built,
) {
  const { client } = await resolveClient(flags, true);
  const d = await definitionArg(client, definition);
  const h = holder === undefined ? undefined : await accountArg(client, holder);
  return submit(flags, () => [build(d, h)]);
}

export const controlsFreeze = (definition: string, holder: string | undefined, flags: Flags) =>
  submitWith(flags, definition, holder, (d, h) => ix.setTransferFreeze(d, true, h));
export const controlsUnfreeze = (definition: string, holder: string | undefined, flags: Flags) =>
  submitWith(flags, definition, holder, (d, h) => ix.setTransferFreeze(d, false, h));
export const controlsBlacklist = (definition: string, holder: string | undefined, flags: Flags) =>
  submitWith(flags, definition, holder, (d, h) => ix.setTransferBlacklist(d, true, h));
export const controlsClear = (definition: string, holder: string | undefined, flags: Flags) =>
  submitWith(flags, definition, holder, (d, h) => ix.setTransferBlacklist(d, false, h));

function listAction(list: 'allow' | 'deny') {
  return (definition: string, holder: string, flags: Flags & { remove?: boolean }) =>
    submitWith(flags, definition, holder, (d, h) =>
      ix.setTransferListEntry(d, list, h!, flags.remove !== true),
    );
}
export const controlsAllow = listAction('allow');
export const controlsDeny = listAction('deny');

export function controlsCap(
  definition: string,
  window: string,
  amount: string | undefined,
  flags: Flags & { holder?: string },
) {
  if (parseWindowName(window) === undefined)
    throw new CliError('invalid_argument', 'window must be tx, hour, day, week or month', 2);
  return submitWith(flags, definition, flags.holder, (d, h) =>
    ix.setTransferCap(d, window as TransferWindow, amount, h),
  );
}

async function read(client: ToranaClient, definition: string, holder: string | undefined): Promise<Json> {
  if (holder === undefined)
    return DefinitionTransferControlView.toJson(await definitionTransferControl(client, definition));
  return AssetTransferControlView.toJson(await assetTransferControl(client, holder, definition));
}

export async function controlsGet(
  definition: string,
  holder: string | undefined,
  flags: Flags,
): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const json = await read(client, definition, holder);
  if (flags.json) printJson(json);
  else printRecord(json as Record<string, Json>);
}
