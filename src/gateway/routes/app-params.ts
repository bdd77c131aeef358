// Path parameters of the application routes. Ids arrive percent-encoded ('@' as %40, '#' as
// %23, '$' as %24) and Fastify decodes them; they are validated and canonicalised with the model's own
// text codecs (model/ids.ts), so `ed0120abc…@d` and `ed0120ABC…@d` name the same account. A malformed id
// is 400 `bad_request` naming the expected form; a well-formed unknown id is the route's 404.

import { Type } from 'typebox';
import type { Codec } from '../../codec/codec.js';
import { isCodecError } from '../../codec/errors.js';
import { AccountId, AssetDefinitionId, DomainId, NftId } from '../../model/ids.js';
import { fromHex } from '../../util/hex.js';
import { gatewayError } from '../errors.js';

/** Longest id accepted in a path: an asset id (two names, a key and separators) fits well within it. */
export const PATH_ID_CHARS_MAX = 512;

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: PATH_ID_CHARS_MAX }) });
export const HeightParams = Type.Object({ height: Type.String({ maxLength: 20 }) });
export const HashParams = Type.Object({ hash: Type.String({ maxLength: 128 }) });

const FORMS: ReadonlyMap<Codec<string>, string> = new Map([
  [DomainId, '<name>'],
  [AccountId, '<public key>@<domain>'],
  [AssetDefinitionId, '<name>#<domain>'],
  [NftId, '<name>$<domain>'],
]);

/**
 * The canonical text form of `text` as an id of type `codec`, or 400 bad_request naming `expected` (by
 * default the form of the model's id types, else the codec's name). The one parser of path ids: the
 * application and module routes all read theirs through it.
 */
export function pathId(codec: Codec<string>, text: string, expected?: string): string {
  try {
    return codec.fromJson(text, '');
  } catch (e) {
    if (!isCodecError(e)) throw e;
    throw gatewayError('bad_request', {
      location: 'params',
      id: text.slice(0, 128),
      expected: expected ?? FORMS.get(codec) ?? codec.name ?? 'an id',
      reason: e.message.slice(0, 256),
    });
  }
}

/** A block height: a decimal integer >= 1 without leading zeros, or 400 bad_request. */
export function pathHeight(text: string): number {
  const n = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n))
    throw gatewayError('bad_request', {
      location: 'params',
      height: text.slice(0, 32),
      expected: 'an integer >= 1',
    });
  return n;
}

/** A transaction hash: 64 hex digits (either case), or 400 bad_request. */
export function pathHash(text: string): Uint8Array {
  const bytes = fromHex(text, 32);
  if (bytes === undefined)
    throw gatewayError('bad_request', {
      location: 'params',
      hash: text.slice(0, 128),
      expected: '64 hex digits',
    });
  return bytes;
}
