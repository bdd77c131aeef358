// Content negotiation over the Accept header (RFC 9110 §12.5.1). The one place that
// decides between JSON and the codec, for answers and for errors alike.
//
// Rules:
// - No Accept header: the route's default format.
// - Each offered media type takes the q-value of the most specific range that matches it
//   (type/subtype > type/* > */*, RFC 9110 §12.5.1); q=0 means "not acceptable".
// - The highest q wins. On a tie between media types the client NAMED, the codec wins.
// When the tied types are matched only by wildcards (`*/*`, `application/*`, what curl and
//   browsers send), the client expressed no preference, so the route default applies, as if the header
//   were absent. A tie between a named type and a wildcard match goes to the named type.
// - Nothing acceptable, an invalid q-value (`q=2`, `q=abc`, more than three decimals) or a malformed
//   media range: 406 `not_acceptable`.

export type Format = 'json' | 'codec' | 'sse' | 'text' | 'xml';

export const MEDIA_TYPES: Readonly<Record<Format, string>> = {
  json: 'application/json',
  codec: 'application/x-codec',
  sse: 'text/event-stream',
  text: 'text/plain',
  xml: 'application/xml',
};

export interface FormatOffer {
  readonly default: Format;
  readonly offers: readonly Format[];
}

export const JSON_ONLY: FormatOffer = { default: 'json', offers: ['json'] };

/** q-values are kept as integer thousandths: the grammar allows at most three decimals. */
export interface MediaRange {
  type: string;
  subtype: string;
  qMilli: number;
}

export type Negotiation = { ok: true; format: Format } | { ok: false; reason: string };

/** Accept headers longer than this are refused rather than parsed (they are never legitimate). */
export const ACCEPT_HEADER_CHARS_MAX = 4096;
const ACCEPT_RANGES_MAX = 64;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

/** Splits on commas and semicolons outside quoted strings. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' && text[i - 1] !== '\\') quoted = !quoted;
    else if (c === sep && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function parseRange(element: string): MediaRange | string {
  const [range = '', ...params] = splitOutsideQuotes(element, ';');
  const slash = range.trim().split('/');
  const type = (slash[0] ?? '').toLowerCase();
  const subtype = (slash[1] ?? '').toLowerCase();
  if (slash.length !== 2 || !TOKEN.test(type) || !TOKEN.test(subtype)) return 'malformed media range';
  if (type === '*' && subtype !== '*') return 'malformed media range';
  let qMilli = 1000;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) return 'malformed parameter';
    if (param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
    const value = param.slice(eq + 1).trim();
    if (!QVALUE.test(value)) return 'invalid q-value';
    const [whole = '0', frac = ''] = value.split('.');
    qMilli = Number(whole) * 1000 + Number(frac.padEnd(3, '0'));
  }
  return { type, subtype, qMilli };
}

export function parseAccept(header: string): MediaRange[] | { error: string } {
  if (header.length > ACCEPT_HEADER_CHARS_MAX) return { error: 'accept header too long' };
  const ranges: MediaRange[] = [];
  for (const element of splitOutsideQuotes(header, ',')) {
    if (element.trim() === '') continue; // RFC 9110 §5.6.1: empty list elements are ignored
    const parsed = parseRange(element);
    if (typeof parsed === 'string') return { error: parsed };
    ranges.push(parsed);
    if (ranges.length > ACCEPT_RANGES_MAX) return { error: 'too many media ranges' };
  }
  return ranges;
}

interface Match {
  qMilli: number;
  named: boolean;
}

/** The q-value the client gives `media`: the most specific matching range decides. */
function matchMedia(ranges: readonly MediaRange[], media: string): Match {
  const [type, subtype] = media.split('/');
  let best = -1;
  let qMilli = 0;
  for (const r of ranges) {
    let specificity = -1;
    if (r.type === type && r.subtype === subtype) specificity = 2;
    else if (r.type === type && r.subtype === '*') specificity = 1;
    else if (r.type === '*') specificity = 0;
    if (specificity > best) {
      best = specificity;
      qMilli = r.qMilli;
    } else if (specificity === best && specificity >= 0) qMilli = Math.max(qMilli, r.qMilli);
  }
  return { qMilli, named: best === 2 };
}

function breakTie(tied: Format[], named: Format[], offer: FormatOffer): Format {
  if (named.length > 0) {
    if (named.includes('codec')) return 'codec';
    return named.includes(offer.default) ? offer.default : named[0]!;
  }
  if (tied.includes(offer.default)) return offer.default;
  return tied.includes('codec') ? 'codec' : tied[0]!;
}

export function negotiate(accept: string | undefined, offer: FormatOffer): Negotiation {
  if (accept === undefined || accept.trim() === '') return { ok: true, format: offer.default };
  const ranges = parseAccept(accept);
  if (!Array.isArray(ranges)) return { ok: false, reason: ranges.error };
  let bestQ = 0;
  let tied: Format[] = [];
  let named: Format[] = [];
  for (const format of offer.offers) {
    const m = matchMedia(ranges, MEDIA_TYPES[format]);
    if (m.qMilli === 0 || m.qMilli < bestQ) continue;
    if (m.qMilli > bestQ) {
      bestQ = m.qMilli;
      tied = [];
      named = [];
    }
    tied.push(format);
    if (m.named) named.push(format);
  }
  if (tied.length === 0) return { ok: false, reason: 'no offered media type is acceptable' };
  return { ok: true, format: breakTie(tied, named, offer) };
}

const ERROR_OFFER: FormatOffer = { default: 'json', offers: ['json', 'codec'] };

/**
 * Errors follow the same negotiation ("we differ"), but never fail: an error answer
 * falls back to JSON when the Accept header is unusable or no codec encoder exists.
 */
export function errorFormat(accept: string | undefined, codecAvailable: boolean): 'json' | 'codec' {
  if (!codecAvailable) return 'json';
  const n = negotiate(accept, ERROR_OFFER);
  return n.ok && n.format === 'codec' ? 'codec' : 'json';
}
