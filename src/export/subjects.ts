// The JetStream subject tree of exported events (docs/export.md "Subjects"). Every event goes to
//   <prefix>.<chain>.events.<kind>.<variant>.<domain>
// kind     transaction | block | data (the event stream's `event:` name)
// variant  the transaction's status (Committed | Rejected), the block's (Committed | Applied), or the
//          data event's variant (AccountCreated, AssetAdded, …)
// domain   the domain a data event is about (the stream filter's `domain` field), `_` when it has none
//          (every transaction and block event)
// Six tokens for every event, so one wildcard pattern filters any position: `torana.*.events.data.*.acme`.
// Tokens are escaped (subjectToken) so that no name can add a token or act as a wildcard.

import type { EventFields } from '../gateway/event-filter.js';

/** The domain token of an event about no domain. */
export const NO_DOMAIN = '_';

/** Printable ASCII without space, '.', '*', '>' and '%' stays as it is. */
function plain(c: number): boolean {
  return c > 0x20 && c < 0x7f && c !== 0x2e && c !== 0x2a && c !== 0x3e && c !== 0x25;
}

/**
 * `text` as one subject token: every UTF-8 byte outside printable ASCII, and '.', '*', '>', '%', as
 * `%XX` (upper-case hex). Reversible (decodeURIComponent), so distinct names give distinct tokens; a
 * name that is exactly `_` is written `%5F`, keeping `_` for "no domain".
 */
export function subjectToken(text: string): string {
  if (text === NO_DOMAIN) return '%5F';
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch.length === 1 && plain(c)) {
      out += ch;
      continue;
    }
    for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The checked prefix (one or more tokens of plain characters, no wildcard), or why it is refused. */
export function prefixProblem(prefix: string): string | undefined {
  const tokens = prefix.split('.');
  for (const t of tokens) {
    if (t === '') return 'an empty token';
    if (t === '*' || t === '>') return 'a wildcard';
    for (let i = 0; i < t.length; i++) if (!plain(t.charCodeAt(i))) return `the character ${t[i]}`;
  }
  return undefined;
}

/** Subjects of one chain's events: `<prefix>.<chain>.events`. */
export function chainRoot(prefix: string, chainId: string): string {
  return `${prefix}.${subjectToken(chainId)}.events`;
}

/** The subject of an event, from its stream-filter projection (gateway/event-filter.ts projectEvent). */
export function eventSubject(root: string, f: EventFields): string {
  const variant = f.kind === 'transaction' ? f.tx_status : f.kind === 'block' ? f.block_status : f.data_kind;
  const domain = f.domain === undefined ? NO_DOMAIN : subjectToken(f.domain);
  return `${root}.${f.kind}.${subjectToken(variant ?? 'unknown')}.${domain}`;
}
