// The code of `torana rwa …` (commands.ts). Accounts and definitions may be names in place of ids
// (resolved by the node); quantities are decimals at the lot's scale.

import { type Flags, parseJsonFlag, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { accountArg, definitionArg } from '../../cli/id-args.js';
import { printJson, printRecord, printTable } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { rwaInstructions as ix, rwaDetail, rwaLotId, rwasList } from './sdk.js';
import { RwaDetailView, RwaListView } from './views.js';

type RegisterFlags = Flags & { owner?: string; controls?: string; metadata?: string };

export async function rwaRegister(reference: string, spec: string, quantity: string, flags: RegisterFlags) {
  const { client, account } = await resolveClient(flags, true);
  const owner = flags.owner === undefined ? account! : await accountArg(client, flags.owner);
  const controls = flags.controls === undefined ? undefined : await definitionArg(client, flags.controls);
  const metadata = parseJsonFlag(flags.metadata, '--metadata');
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
  )
    throw new CliError('invalid_argument', '--metadata must be a JSON object', 2);
  const id = rwaLotId(account!, reference);
  if (!flags.json) process.stdout.write(`lot ${id}\n`);
  return submit(
    flags,
    () => [
      ix.registerRwa(reference, {
        spec,
        quantity,
        owner,
        ...(controls === undefined ? {} : { controls }),
        ...(metadata === undefined ? {} : { metadata: metadata as Record<string, Json> }),
      }),
    ],
    { rwa_id: id },
  );
}

async function toAccount(flags: Flags, text: string): Promise<string> {
  const { client } = await resolveClient(flags, false);
  return accountArg(client, text);
}

export async function rwaTransfer(lot: string, to: string, quantity: string, flags: Flags) {
  const dest = await toAccount(flags, to);
  return submit(flags, () => [ix.transferRwa(lot, dest, quantity)]);
}

export async function rwaForceTransfer(lot: string, to: string, quantity: string, flags: Flags) {
  const dest = await toAccount(flags, to);
  return submit(flags, () => [ix.forceTransferRwa(lot, dest, quantity)]);
}

export const rwaMerge = (lots: string[], flags: Flags) => submit(flags, () => [ix.mergeRwas(lots)]);
export const rwaRedeem = (lot: string, quantity: string, flags: Flags) =>
  submit(flags, () => [ix.redeemRwa(lot, quantity)]);
export const rwaFreeze = (lot: string, flags: Flags) => submit(flags, () => [ix.freezeRwa(lot)]);
export const rwaUnfreeze = (lot: string, flags: Flags) => submit(flags, () => [ix.unfreezeRwa(lot)]);
export const rwaHold = (lot: string, quantity: string, flags: Flags) =>
  submit(flags, () => [ix.holdRwa(lot, quantity)]);
export const rwaRelease = (lot: string, quantity: string, flags: Flags) =>
  submit(flags, () => [ix.releaseRwa(lot, quantity)]);

export async function rwaControls(lot: string, definition: string | undefined, flags: Flags) {
  const { client } = await resolveClient(flags, false);
  const def = definition === undefined ? undefined : await definitionArg(client, definition);
  return submit(flags, () => [ix.setRwaControls(lot, def)]);
}

function whole(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    throw new CliError('invalid_argument', `${name} must be an integer >= 0`, 2);
  return n;
}

export async function rwaList(flags: Flags & { limit?: string; offset?: string; owner?: string }) {
  const { client } = await resolveClient(flags, false);
  const limit = whole(flags.limit, '--limit');
  const offset = whole(flags.offset, '--offset');
  const owner = flags.owner === undefined ? undefined : await accountArg(client, flags.owner);
  const list = await rwasList(client, {
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
    ...(owner === undefined ? {} : { filter: { eq: ['owned_by', owner] } }),
  });
  const json = RwaListView.toJson(list) as { items: Record<string, Json>[]; total: number };
  if (flags.json) printJson(json);
  else {
    printTable(json.items, ['id', 'quantity', 'spec', 'owned_by', 'is_frozen', 'held_quantity', 'status']);
    process.stdout.write(`${json.total} lots\n`);
  }
}

export async function rwaGet(lot: string, flags: Flags) {
  const { client } = await resolveClient(flags, false);
  const json = RwaDetailView.toJson(await rwaDetail(client, lot)) as Record<string, Json>;
  if (flags.json) printJson(json);
  else printRecord(json);
}
