// The session store's bounds with a clock the test moves: eviction of the oldest session above
// sessions_max, the challenge table's cap, forgetting after one TTL, the audit cap, token hashing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ed25519Sign } from '../crypto/ed25519.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { toHex } from '../util/hex.js';
import { type GatewayError, isGatewayError } from './errors.js';
import { type AuditEntry, type IssuedSession, OperatorSessions, tokenHash } from './operator-sessions.js';

const SEED = new Uint8Array(32).fill(7);
const KEY = Ed25519KeyPair.fromSeed(SEED).publicKeyText();

function store(over: Partial<ConstructorParameters<typeof OperatorSessions>[0]> = {}) {
  const clock = { now: 1_000_000 };
  const log: AuditEntry[] = [];
  const s = new OperatorSessions({
    operators: [KEY],
    audience: { chainId: 'c', nodeKey: 'n' },
    challengeTtlMs: 1000,
    sessionTtlMs: 10_000,
    sessionsMax: 2,
    challengesMax: 3,
    challengesPerClientMax: 2,
    auditMax: 4,
    now: () => clock.now,
    log: (e) => log.push(e),
    ...over,
  });
  const signIn = (): IssuedSession => {
    const c = s.challenge(KEY, `client-${clock.now}`);
    if (isGatewayError(c)) throw c;
    const sig = toHex(ed25519Sign(SEED, new TextEncoder().encode(c.challenge)));
    const r = s.open(c.challenge_id, KEY, sig);
    if (isGatewayError(r)) throw r;
    return r;
  };
  return { s, clock, log, signIn };
}

const code = (r: unknown) => (isGatewayError(r) ? (r as GatewayError).code : 'ok');

describe('operator session store', () => {
  it('evicts the oldest active session above sessions_max; its token answers revoked (evicted)', () => {
    const { s, clock, log, signIn } = store();
    const a = signIn();
    clock.now += 1;
    const b = signIn();
    clock.now += 1;
    const c = signIn();
    const ended = s.verify(a.token) as GatewayError;
    assert.deepEqual([ended.code, ended.details.reason], ['operator_session_revoked', 'evicted']);
    assert.deepEqual([code(s.verify(b.token)), code(s.verify(c.token))], ['ok', 'ok']);
    assert.deepEqual(
      s.list().map((x) => x.session_id),
      [b.session_id, c.session_id],
    );
    assert.deepEqual(
      log.map((e) => e.event),
      ['issued', 'issued', 'evicted', 'issued'],
    );
    assert.ok(!JSON.stringify(log).includes(a.token), 'tokens are never logged');
  });

  it('caps open challenges per client (429) and in all (503 with a retry delay); frees expired ones', () => {
    const { s, clock } = store();
    for (let i = 0; i < 2; i++) assert.equal(code(s.challenge(KEY, 'a')), 'ok');
    const flood = s.challenge(KEY, 'a') as GatewayError;
    assert.deepEqual([flood.code, flood.details.scope], ['rate_limited', 'operator_challenges']);
    assert.equal(code(s.challenge(KEY, 'b')), 'ok');
    // Full: 'c' (holding none) takes a slot from 'a' (holding the most); then a, b, c hold one each
    // and 'b' cannot take one from anybody.
    assert.equal(code(s.challenge(KEY, 'c')), 'ok');
    assert.equal(s.challengesEvicted, 1);
    const full = s.challenge(KEY, 'b') as GatewayError;
    assert.deepEqual([full.code, full.details.retry_after_s], ['operator_challenges_full', 1]);
    clock.now += 1001;
    assert.equal(code(s.challenge(KEY, 'a')), 'ok');
  });

  it("a full table drops the oldest challenge of the largest holder, never a smaller holder's", () => {
    const { s } = store({ challengesMax: 6, challengesPerClientMax: 3 });
    const ids = (who: string, n: number) =>
      Array.from({ length: n }, () => (s.challenge(KEY, who) as { challenge_id: string }).challenge_id);
    const a = ids('a', 3);
    const op = ids('operator', 1);
    const b = ids('b', 2);
    // Full (6). 'c' takes a's oldest; the operator's challenge stays.
    ids('c', 1);
    assert.equal(code(s.open(a[0]!, KEY, '00'.repeat(64))), 'operator_challenge_unknown');
    assert.equal(code(s.open(op[0]!, KEY, '00'.repeat(64))), 'operator_auth_invalid');
    // c (1) takes another from a (2); then a, b and c hold 2 each: nobody holds more than c, so refused.
    ids('c', 1);
    assert.equal(code(s.open(a[1]!, KEY, '00'.repeat(64))), 'operator_challenge_unknown');
    assert.equal(code(s.challenge(KEY, 'c')), 'operator_challenges_full');
    assert.equal(code(s.open(op[0]!, KEY, '00'.repeat(64))), 'operator_auth_invalid');
    assert.equal(code(s.open(b[0]!, KEY, '00'.repeat(64))), 'operator_auth_invalid');
  });

  it('forgets ended sessions one TTL after expiry: expired, then unknown', () => {
    const { s, clock, signIn } = store();
    const a = signIn();
    clock.now += 10_000;
    assert.equal(code(s.verify(a.token)), 'operator_session_expired');
    assert.deepEqual(s.list(), []);
    clock.now += 10_000;
    s.list();
    assert.equal(code(s.verify(a.token)), 'operator_session_unknown');
    assert.equal(s.revoke(a.session_id), undefined);
  });

  it('keeps the newest audit_max events and looks tokens up by their SHA-256 only', () => {
    const { s, signIn } = store();
    const sessions = [signIn(), signIn(), signIn()];
    assert.equal(s.audit().length, 4);
    assert.equal(s.audit()[0]!.event, 'issued');
    assert.equal(s.audit()[0]!.session_id, sessions[2]!.session_id);
    assert.match(tokenHash(sessions[0]!.token), /^[0-9a-f]{64}$/);
    assert.equal(code(s.verify(tokenHash(sessions[2]!.token))), 'operator_session_unknown');
  });

  it('without operator keys every challenge is refused (403)', () => {
    const { s } = store({ operators: [] });
    assert.equal(code(s.challenge(KEY, 'a')), 'operator_access_disabled');
  });
});
