// Path parameters of the conference routes: checked and made canonical with the model's own text
// codecs, as the application routes do (gateway/routes/app-params.ts). A malformed id is 400
// `bad_request` naming the expected form; a well-formed unknown one is the route's 404.

import type { Codec } from '../codec/codec.js';
import { isCodecError } from '../codec/errors.js';
import { gatewayError } from '../gateway/errors.js';

export function pathText(codec: Codec<string>, text: string, expected: string): string {
  try {
    return codec.fromJson(text, '');
  } catch (e) {
    if (!isCodecError(e)) throw e;
    throw gatewayError('bad_request', {
      location: 'params',
      id: text.slice(0, 128),
      expected,
      reason: e.message.slice(0, 256),
    });
  }
}
