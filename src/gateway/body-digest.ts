// The SHA-256 of a request body as it streams to the parser (within the route's body limit), for
// signed requests (signed-request.ts) and signed operator requests (operator-auth.ts). The digest is reported
// when the stream ends, before preValidation runs.

import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { RequestPayload } from 'fastify';

export function digestPayload(
  payload: RequestPayload,
  onDigest: (sha256Hex: string) => void,
): RequestPayload {
  const hash = createHash('sha256');
  const tee = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
    flush(cb) {
      onDigest(hash.digest('hex'));
      cb();
    },
  });
  payload.on('error', (err) => tee.destroy(err));
  return payload.pipe(tee);
}
