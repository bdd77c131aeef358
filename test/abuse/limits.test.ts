// Abuse (short, inside `npm test`): trigger abuse, p2p handshake slots, operator challenges, webhook
// target ranges and the development-key warning. The same scenarios run at full size in
// test/reliability/abuse.test.ts; each prints a `[figure]` line.

import { describe, it } from 'node:test';
import { devKeysAnnounced } from './dev-keys.js';
import { operatorChallengeFlood } from './operator-challenges.js';
import { handshakeFlood } from './p2p-handshakes.js';
import { triggerAbuse } from './triggers.js';
import { webhookTargetRanges } from './webhook-targets.js';

describe('abuse limits (short)', { timeout: 240_000 }, () => {
  it('time triggers: no repeat faster than the block time, no faster wakes, a cap per account', () =>
    triggerAbuse({ idleMs: 2_000, registrations: 20 }));
  it('p2p: idle connections from one host or 20 addresses cannot keep the configured peers out', () =>
    handshakeFlood({ oneHost: 80, addresses: 20, perAddress: 6, peers: 2 }));
  it('webhook targets outside global unicast (also inside IPv6) are refused 422', () =>
    webhookTargetRanges({ wrappedPerRange: 1 }));
  it('sign-in challenges flooded from 16 addresses: the operator still gets one and signs in', () =>
    operatorChallengeFlood({ addresses: 16, perAddress: 6, perAddressMax: 4 }));
  it('a `torana init` node on the development keys warns once and lists them and its features', () =>
    devKeysAnnounced());
});
