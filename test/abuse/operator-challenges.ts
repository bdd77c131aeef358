// Abuse scenario: the unauthenticated sign-in challenge route flooded from many source addresses, each
// at its per-address cap (`operator.session_client_challenges_max`), until the node-wide table
// (`operator.session_challenges_max`) is full. Before, the real operator then got 503
// `operator_challenges_full`; now a full table gives up the oldest challenge of the address holding the
// most, so the operator (holding none) gets a challenge and signs in, while the flood's extra requests
// are 429 per address and its addresses only take slots from one another.

import assert from 'node:assert/strict';
import { Pool } from 'undici';
import { ed25519Sign } from '../../src/crypto/ed25519.js';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { toHex } from '../../src/util/hex.js';
import { startServedNode } from '../helpers/served.js';
import { figure, ip } from './clients.js';

const SEED = new Uint8Array(32).fill(0x6b);
const KEY = Ed25519KeyPair.fromSeed(SEED).publicKeyText();

export interface ChallengeFloodSize {
  addresses: number;
  /** Challenges each address asks for (more than the per-address cap). */
  perAddress: number;
  /** `operator.session_client_challenges_max`; addresses × cap fills the table exactly. */
  perAddressMax: number;
}

async function post(pool: Pool, path: string, body: unknown) {
  const r = await pool.request({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.statusCode, body: (await r.body.json()) as Record<string, unknown> };
}

export async function operatorChallengeFlood(size: ChallengeFloodSize): Promise<void> {
  const tableMax = size.addresses * size.perAddressMax;
  const t = await startServedNode({
    'operator.public_keys': [KEY],
    'operator.session_challenges_max': tableMax,
    'operator.session_client_challenges_max': size.perAddressMax,
  });
  const pools = Array.from(
    { length: size.addresses },
    (_, a) => new Pool(t.url, { connections: 1, localAddress: ip(60 + Math.floor(a / 250), a) }),
  );
  const operator = new Pool(t.url, { connections: 1, localAddress: ip(70, 1) });
  try {
    const statuses = new Map<string, number>();
    const flood = async (rounds: number) => {
      await Promise.all(
        pools.map(async (pool) => {
          for (let i = 0; i < rounds; i++) {
            const r = await post(pool, '/v1/operator/session/challenge', { public_key: KEY });
            const k = `${r.status} ${r.body.code ?? ''}`.trim();
            statuses.set(k, (statuses.get(k) ?? 0) + 1);
          }
        }),
      );
    };
    await flood(size.perAddress);
    const c = await post(operator, '/v1/operator/session/challenge', { public_key: KEY });
    // The flood goes on after the operator's challenge was issued: it must not push it out.
    await flood(size.perAddress);
    let signedIn = c.status;
    if (c.status === 200) {
      const text = String(c.body.challenge);
      const signature = toHex(ed25519Sign(SEED, new TextEncoder().encode(text)));
      const s = await post(operator, '/v1/operator/session', {
        challenge_id: c.body.challenge_id,
        public_key: KEY,
        signature,
      });
      signedIn = s.status;
    }
    figure('operator challenge flood', {
      flood: `${size.addresses} addresses × ${size.perAddress} × 2 rounds (table ${tableMax}, ${size.perAddressMax} per address)`,
      answers: [...statuses].map(([k, n]) => `${n} × ${k}`).join(', '),
      'operator challenge': `${c.status} ${c.body.code ?? ''}`.trim(),
      'operator sign-in': signedIn,
    });
    assert.equal(c.status, 200, `the operator gets a challenge: ${JSON.stringify(c.body)}`);
    assert.equal(signedIn, 200, 'and signs in with it after the flood went on');
    assert.ok((statuses.get('429 rate_limited') ?? 0) > 0, 'addresses beyond their cap get 429');
  } finally {
    await Promise.all([...pools, operator].map((p) => p.close()));
    await t.stopAll();
  }
}
