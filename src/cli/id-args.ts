// Accounts and asset definitions given on the command line: an id is used as it is; a name standing for
// one (a ledger module's, id-names.ts) is resolved at the node's committed height; text that is neither
// is a usage error (exit 2) naming every accepted form.

import { canonicalAccountId, parseDefinitionId } from '../model/ids.js';
import type { ToranaClient } from '../sdk/client.js';
import { CliError } from './errors.js';
import { type IdArgKind, installedCliIdNames } from './id-names.js';

const ID_SYNTAX: Readonly<Record<IdArgKind, string>> = {
  account: '<public key>@<domain>',
  definition: '<name>#<domain>',
};

/** The id a module's name stands for, or undefined when `text` is no installed module's name. */
export async function namedId(
  client: ToranaClient,
  kind: IdArgKind,
  text: string,
): Promise<string | undefined> {
  for (const names of installedCliIdNames()) {
    const id = await names.resolve(client, kind, text);
    if (id !== undefined) return id;
  }
  return undefined;
}

function neither(kind: IdArgKind, text: string): CliError {
  const forms = [ID_SYNTAX[kind], ...installedCliIdNames().map((n) => n.syntax[kind])];
  return new CliError('invalid_argument', `${text}: expected ${forms.join(' or ')}`, 2);
}

/** An account id as given, or the account a name stands for; usage error (exit 2) for neither. */
export async function accountArg(client: ToranaClient, text: string): Promise<string> {
  const id = canonicalAccountId(text);
  if (id !== undefined) return id;
  const named = await namedId(client, 'account', text);
  if (named === undefined) throw neither('account', text);
  return named;
}

/** A definition id as given, or the definition a name stands for; usage error for neither. */
export async function definitionArg(client: ToranaClient, text: string): Promise<string> {
  if (parseDefinitionId(text) !== undefined) return text;
  const named = await namedId(client, 'definition', text);
  if (named === undefined) throw neither('definition', text);
  return named;
}
