// The delivery signature (docs/webhooks.md; the HMAC covers timestamp and body, so a
// captured request cannot be replayed later with a fresh timestamp): `x-ledger-webhook-signature` is
// `sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`, the timestamp being the decimal
// milliseconds sent in `x-ledger-webhook-timestamp`. Receivers recompute it and compare in constant time.
// During a secret rotation's overlap (routes.ts `rotateWebhookSecret`) the header carries one signature
// per secret, newest first, separated by commas: `sha256=<new>,sha256=<old>`; a receiver accepts a
// delivery when any of them verifies under the secret it holds.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { equalJitterDelayMs } from '../../util/backoff.js';

export function webhookSignature(secret: string, timestampMs: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampMs}.`).update(body).digest('hex');
  return `sha256=${mac}`;
}

/** The header value for `secrets` (newest first): their signatures joined by commas. */
export function webhookSignatures(secrets: readonly string[], timestampMs: number, body: string): string {
  return secrets.map((s) => webhookSignature(s, timestampMs, body)).join(',');
}

/**
 * Whether one of the comma-separated signatures in `header` is the signature of `body` at `timestampMs`
 * under `secret` (constant-time compare of each).
 */
export function verifyWebhookSignature(
  secret: string,
  timestampMs: number,
  body: string,
  header: string,
): boolean {
  const want = Buffer.from(webhookSignature(secret, timestampMs, body));
  let ok = false;
  for (const part of header.split(',')) {
    const got = Buffer.from(part.trim());
    if (want.length === got.length && timingSafeEqual(want, got)) ok = true;
  }
  return ok;
}

/**
 * Delay before attempt `attempt + 1` after `attempt` failed attempts (1-based): base × 2^(attempt−1),
 * capped at `maxMs`, with "equal jitter" (half fixed, half random) so that many webhooks failing
 * together do not retry in step (util/backoff.ts). `random` is injected (tests pass a fixed one).
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  return equalJitterDelayMs(baseMs, maxMs, attempt - 1, random());
}
