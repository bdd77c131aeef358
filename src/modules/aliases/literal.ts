// Account aliases and asset aliases (docs/data-model.md §Aliases).
//   account alias   <label>@<domain>     alice@wonderland   never a public key before the '@'
//   asset alias     <label>              usd.stable         no '#', '@' or '$': never an entity id
// A label is 1..64 characters of [a-z0-9._-] starting with a letter or digit. Instructions carry the
// literal as a bounded string and the executor checks it, so a bad literal is a ledger rejection with a
// stable code (alias_invalid, alias_is_account_id), not an undecodable transaction. Other features never read
// this syntax: they ask the installed namings (names.ts, model/id-names.ts) whether a text is a name.

import { string } from '../../codec/primitives.js';
import { ID_NAME_TEXT_BYTES_MAX } from '../../model/id-names.js';
import { parseAccountId } from '../../model/ids.js';
import { nameProblem } from '../../model/names.js';

export const ALIAS_LABEL_CHARS_MAX = 64;
/** Upper bound of an alias literal on the wire: a label, '@' and a 128-byte domain name. */
export const ALIAS_TEXT_BYTES_MAX = ALIAS_LABEL_CHARS_MAX + 1 + 128;
// Routes of other features bound a name given in place of an id by the core's neutral limit.
if (ALIAS_TEXT_BYTES_MAX > ID_NAME_TEXT_BYTES_MAX) throw new Error('alias literal above the id-name limit');
/** The longest grace period an expiring asset alias lease may carry (one year). */
export const ALIAS_GRACE_MS_MAX = 365n * 24n * 3600n * 1000n;

const LABEL = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Why an alias literal is malformed: `invalid` (syntax) or `account_id` (it is an account id). */
export type AliasProblem = { kind: 'invalid' | 'account_id'; message: string };

/** Checks an account alias `<label>@<domain>`; undefined when it is a valid literal. */
export function accountAliasProblem(text: string): AliasProblem | undefined {
  // An account id first: its key part is no label (upper-case hex, or too long), so test it first to
  // give the precise code for the one confusion this syntax must rule out.
  if (parseAccountId(text) !== undefined)
    return { kind: 'account_id', message: `${text} is an account id, not an alias` };
  const at = text.indexOf('@');
  if (at < 0 || text.indexOf('@', at + 1) >= 0)
    return { kind: 'invalid', message: 'an account alias is <label>@<domain>' };
  const label = text.slice(0, at);
  if (!LABEL.test(label))
    return {
      kind: 'invalid',
      message: `label ${JSON.stringify(label)}: 1..64 of [a-z0-9._-], from [a-z0-9]`,
    };
  const domain = nameProblem(text.slice(at + 1));
  return domain === undefined ? undefined : { kind: 'invalid', message: `domain: ${domain}` };
}

/** Checks an asset alias `<label>`; undefined when it is a valid literal. */
export function assetAliasProblem(text: string): AliasProblem | undefined {
  if (parseAccountId(text) !== undefined)
    return { kind: 'account_id', message: `${text} is an account id, not an alias` };
  return LABEL.test(text)
    ? undefined
    : { kind: 'invalid', message: 'an asset alias is a label: 1..64 of [a-z0-9._-], from [a-z0-9]' };
}

/** The domain part of a valid account alias. */
export function aliasDomain(alias: string): string {
  return alias.slice(alias.indexOf('@') + 1);
}

/** The text an instruction carries for an alias (checked by the executor, see above). */
export const AliasText = string(ALIAS_TEXT_BYTES_MAX);
