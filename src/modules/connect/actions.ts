// The code of `torana connect …` (commands.ts). `wallet` pairs with an app's URI through the node the URI
// names and answers its signature requests as the configured account: each transaction is shown (its
// instructions as JSON) and signed when the user says yes, or at once with --yes; with --max n the
// session ends after n signatures. Requests of another authority are declined by the SDK's wallet.

import { createInterface } from 'node:readline/promises';
import WebSocket from 'ws';
import type { Flags } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { printJson, printRecord } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { type TransactionPayload, TransactionPayloadCodec } from '../../model/transaction.js';
import { pairWallet, type WebSocketClass } from './sdk-connect.js';

export async function connectStatus(flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const doc = await client.http.json<Record<string, Json>>({ method: 'GET', path: '/v1/connect/status' });
  if (flags.json) printJson(doc);
  else printRecord(doc);
}

type WalletFlags = Flags & { yes?: boolean; max?: string };

function maxOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new CliError('invalid_argument', '--max must be a whole number of transactions, at least 1', 2);
  return n;
}

/** One line of the session as it goes: JSON lines with --json, text otherwise. */
function say(flags: WalletFlags, event: Record<string, Json>, text: string): void {
  if (flags.json) process.stdout.write(`${JSON.stringify(event)}\n`);
  else process.stdout.write(`${text}\n`);
}

export async function connectWallet(uri: string, flags: WalletFlags): Promise<void> {
  const max = maxOf(flags.max);
  const { account, key } = await resolveClient(flags, true);
  const interactive = flags.yes !== true && process.stdin.isTTY === true;
  if (flags.yes !== true && !interactive)
    throw new CliError(
      'invalid_argument',
      'no terminal to ask on: pass --yes to sign every transaction of this account',
      2,
    );
  const ask = interactive ? createInterface({ input: process.stdin, output: process.stderr }) : undefined;
  let approved = 0;
  const approve = async (payload: TransactionPayload): Promise<boolean> => {
    const shown = TransactionPayloadCodec.toJson(payload);
    say(flags, { event: 'sign_request', payload: shown }, `sign request:\n${JSON.stringify(shown, null, 2)}`);
    const yes = ask === undefined ? true : /^y(es)?$/i.test((await ask.question('sign it? [y/N] ')).trim());
    say(flags, { event: yes ? 'signed' : 'declined' }, yes ? 'signed' : 'declined');
    if (yes) approved++;
    return yes;
  };
  const wallet = await pairWallet(uri, {
    account: account!,
    signer: key!,
    approve,
    WebSocket: WebSocket as unknown as WebSocketClass,
  });
  say(
    flags,
    { event: 'paired', sid: wallet.sid, account: account! },
    `paired: session ${wallet.sid} as ${account}`,
  );
  const stop = () => wallet.close();
  process.once('SIGINT', stop);
  let ended = false;
  void wallet.closed.then(() => {
    ended = true;
  });
  if (max !== undefined) {
    while (!ended && (approved < max || wallet.signed.length < max))
      await new Promise((r) => setTimeout(r, 50));
    // The last answer is sealed and sent right after it is approved; let it leave, then end.
    if (!ended) {
      await new Promise((r) => setTimeout(r, 200));
      wallet.close();
    }
  }
  await wallet.closed;
  process.removeListener('SIGINT', stop);
  ask?.close();
  say(
    flags,
    { event: 'closed', signed: wallet.signed.length },
    `session closed: ${wallet.signed.length} signed`,
  );
}
