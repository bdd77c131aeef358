// The code of `torana repo …` (commands.ts). Accounts and definitions may be names in place of ids
// (resolved by the node); quantities and prices are decimals at their definitions' scales.

import { type Flags, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { accountArg, definitionArg } from '../../cli/id-args.js';
import { printJson, printRecord, printTable } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { repoInstructions as ix, repoAgreement, repoAgreementId, repoAgreements } from './sdk.js';
import { RepoDetailView, RepoListView } from './views.js';

type InitiateFlags = Flags & {
  cash: string;
  collateral: string;
  price: string;
  maturity: string;
  rateBps: string;
  haircutBps: string;
  marginWindow: string;
  custodian?: string;
};

function whole(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new CliError('invalid_argument', `${name} must be an integer >= 0`, 2);
  return n;
}

type Client = Awaited<ReturnType<typeof resolveClient>>['client'];

/** `quantity@definition` (the definition may be a name). */
async function legArg(client: Client, text: string, name: string) {
  const at = text.indexOf('@');
  if (at <= 0 || at === text.length - 1)
    throw new CliError('invalid_argument', `${name} is quantity@definition, e.g. 12@bond#wonderland`, 2);
  return { quantity: text.slice(0, at), definition: await definitionArg(client, text.slice(at + 1)) };
}

export async function repoInitiate(reference: string, counterparty: string, flags: InitiateFlags) {
  const { client, account } = await resolveClient(flags, true);
  const terms = {
    counterparty: await accountArg(client, counterparty),
    ...(flags.custodian === undefined ? {} : { custodian: await accountArg(client, flags.custodian) }),
    cash: await legArg(client, flags.cash, '--cash'),
    collateral: await legArg(client, flags.collateral, '--collateral'),
    rateBps: whole(flags.rateBps, '--rate-bps')!,
    haircutBps: whole(flags.haircutBps, '--haircut-bps')!,
    maturityMs: whole(flags.maturity, '--maturity')!,
    collateralPrice: flags.price,
    marginWindowMs: whole(flags.marginWindow, '--margin-window')!,
  };
  const id = repoAgreementId(account!, reference);
  if (!flags.json) process.stdout.write(`agreement ${id}\n`);
  return submit(flags, () => [ix.initiateRepo(reference, terms)], { repo_agreement_id: id });
}

export const repoAccept = (id: string, flags: Flags) => submit(flags, () => [ix.acceptRepo(id)]);
export const repoCheck = (id: string, flags: Flags) => submit(flags, () => [ix.checkRepoMargin(id)]);
export const repoTopUp = (id: string, quantity: string, flags: Flags) =>
  submit(flags, () => [ix.topUpRepoMargin(id, quantity)]);
export const repoUnwind = (id: string, flags: Flags) => submit(flags, () => [ix.unwindRepo(id)]);

export async function repoPrice(id: string, definition: string, price: string, flags: Flags) {
  const { client } = await resolveClient(flags, false);
  const def = await definitionArg(client, definition);
  return submit(flags, () => [ix.setRepoPrice(id, def, price)]);
}

export async function repoSubstitute(id: string, leg: string, flags: Flags) {
  const { client } = await resolveClient(flags, false);
  const collateral = await legArg(client, leg, '<quantity@definition>');
  return submit(flags, () => [ix.substituteRepoCollateral(id, collateral)]);
}

export async function repoList(flags: Flags & { limit?: string; offset?: string; status?: string }) {
  const { client } = await resolveClient(flags, false);
  const limit = whole(flags.limit, '--limit');
  const offset = whole(flags.offset, '--offset');
  const list = await repoAgreements(client, {
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
    ...(flags.status === undefined ? {} : { filter: { eq: ['status', flags.status] } }),
  });
  const json = RepoListView.toJson(list) as { items: Record<string, Json>[]; total: number };
  if (flags.json) printJson(json);
  else {
    printTable(json.items, ['id', 'initiator', 'counterparty', 'cash', 'collateral', 'status']);
    process.stdout.write(`${json.total} agreements\n`);
  }
}

export async function repoGet(id: string, flags: Flags) {
  const { client } = await resolveClient(flags, false);
  const json = RepoDetailView.toJson(await repoAgreement(client, id)) as Record<string, Json>;
  if (flags.json) printJson(json);
  else printRecord(json);
}
