import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ToranaApiError, ToranaTransportError, ToranaUnknownOutcomeError } from './errors.js';
import {
  type LookupAnswer,
  type StatusSource,
  submitLeavesFateOpen,
  type TxOutcome,
  type WaitPlan,
  waitForOutcome,
} from './wait.js';

const HASH = 'ab'.repeat(32);
const BACKOFF = { baseMs: 5, maxMs: 20 };
const gone = () => new ToranaApiError(410, 'events_gone', 'gone', { last_event_id: 3 });

/** A fake node: answers its lookups from `answers` in turn (the last one repeats) and counts resends. */
function source(
  url: string,
  answers: ReadonlyArray<LookupAnswer | Error>,
): StatusSource & { lookups: number; resends: number } {
  const s = {
    url,
    lookups: 0,
    resends: 0,
    async status(hash: string): Promise<LookupAnswer> {
      assert.equal(hash, HASH);
      const a = answers[Math.min(s.lookups, answers.length - 1)]!;
      s.lookups += 1;
      if (a instanceof Error) throw a;
      return a;
    },
    async resend(): Promise<void> {
      s.resends += 1;
    },
  };
  return s;
}

/** A stream that never says anything. */
const silent = () => new Promise<TxOutcome | undefined>(() => {});

function plan(p: Partial<WaitPlan> & Pick<WaitPlan, 'sources'>): WaitPlan {
  return { hash: HASH, timeoutMs: 2_000, submit: async () => {}, watched: silent(), backoff: BACKOFF, ...p };
}

describe('waitForOutcome', () => {
  it('returns the outcome the event stream gives, without any lookup', async () => {
    const node = source('a', [{ kind: 'unseen' }]);
    const r = await waitForOutcome(
      plan({ watched: Promise.resolve({ kind: 'committed', blockHeight: 4 }), sources: [node] }),
    );
    assert.deepEqual(r, { hash: HASH, blockHeight: 4 });
    assert.equal(node.lookups, 0);
  });

  it('events_gone: looks the hash up and reports it committed', async () => {
    const node = source('a', [{ kind: 'committed', blockHeight: 7 }]);
    const r = await waitForOutcome(plan({ watched: Promise.reject(gone()), sources: [node] }));
    assert.deepEqual(r, { hash: HASH, blockHeight: 7 });
    assert.equal(node.lookups, 1);
  });

  it('a lost stream and a restarting node: lookups retry until the node answers', async () => {
    const down = new ToranaTransportError('cannot reach a: ECONNREFUSED');
    const node = source('a', [down, down, { kind: 'queued' }, { kind: 'committed', blockHeight: 9 }]);
    const r = await waitForOutcome(
      plan({ watched: Promise.reject(new TypeError('terminated')), sources: [node] }),
    );
    assert.deepEqual(r, { hash: HASH, blockHeight: 9 });
    assert.equal(node.lookups, 4);
    assert.equal(node.resends, 0, 'a node that holds it is not sent it again');
  });

  it('a lost connection on submit: looks it up on the other configured node', async () => {
    const a = source('a', [new ToranaTransportError('cannot reach a')]);
    const b = source('b', [{ kind: 'committed', blockHeight: 2 }]);
    const r = await waitForOutcome(
      plan({
        submit: async () => {
          throw new ToranaTransportError('cannot reach a: socket hang up');
        },
        sources: [a, b],
      }),
    );
    assert.deepEqual(r, { hash: HASH, blockHeight: 2 });
  });

  it('408 and 5xx on submit leave the fate open; 400, 413, 429 and 503 refusals are reported as they are', async () => {
    const r = await waitForOutcome(
      plan({
        submit: async () => {
          throw new ToranaApiError(408, 'request_timeout', 'late', {});
        },
        sources: [source('a', [{ kind: 'committed', blockHeight: 5 }])],
      }),
    );
    assert.equal(r.blockHeight, 5);
    const refused = new ToranaApiError(429, 'queue_full', 'full', {});
    const node = source('a', [{ kind: 'committed', blockHeight: 1 }]);
    await assert.rejects(
      waitForOutcome(
        plan({
          submit: async () => {
            throw refused;
          },
          sources: [node],
        }),
      ),
      (e) => e === refused,
    );
    assert.equal(node.lookups, 0);
    assert.equal(submitLeavesFateOpen(new ToranaApiError(500, 'internal_error', '', {})), true);
    assert.equal(submitLeavesFateOpen(new ToranaApiError(502, 'http_502', '', {})), true);
    assert.equal(submitLeavesFateOpen(new ToranaApiError(503, 'http_503', '', {})), true);
    assert.equal(submitLeavesFateOpen(new ToranaApiError(503, 'too_many_connections', '', {})), false);
    assert.equal(submitLeavesFateOpen(new ToranaApiError(400, 'invalid_codec_body', '', {})), false);
    assert.equal(submitLeavesFateOpen(new ToranaApiError(413, 'body_too_large', '', {})), false);
  });

  it('409 already_committed is the transaction itself: its outcome is looked up', async () => {
    const r = await waitForOutcome(
      plan({
        timeoutMs: 50,
        submit: async () => {
          throw new ToranaApiError(409, 'already_committed', 'dup', {});
        },
        sources: [source('a', [{ kind: 'committed', blockHeight: 3 }])],
      }),
    );
    assert.equal(r.blockHeight, 3);
  });

  it('a lookup that finds a rejection reports the rejection', async () => {
    const reason = { code: 'insufficient_funds', message: 'no' } as never;
    await assert.rejects(
      waitForOutcome(
        plan({
          watched: Promise.reject(gone()),
          sources: [source('a', [{ kind: 'rejected', reason, blockHeight: 8 }])],
        }),
      ),
      (e: Error & { code?: string; blockHeight?: number }) =>
        e.name === 'TransactionRejectedError' && e.blockHeight === 8,
    );
  });

  it('not found anywhere: keeps looking (and resends the same bytes) until the deadline, then outcome_unknown', async () => {
    const a = source('a', [{ kind: 'unseen' }]);
    const b = source('b', [new ToranaTransportError('cannot reach b')]);
    let error: unknown;
    try {
      await waitForOutcome(plan({ timeoutMs: 300, watched: Promise.reject(gone()), sources: [a, b] }));
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof ToranaUnknownOutcomeError, String(error));
    assert.equal(error.code, 'outcome_unknown');
    assert.equal(error.hash, HASH);
    assert.match(error.message, /may or may not have committed/);
    assert.match(error.message, /do not sign it again/);
    assert.ok(a.lookups > 2, `looked up ${a.lookups} times`);
    assert.ok(a.resends >= 1, 'the node that has not seen it is sent the same bytes');
    assert.equal(b.resends, 0, 'an unreachable node is not sent anything');
  });

  it('a silent stream until the deadline ends with one last lookup, not a bare timeout', async () => {
    const node = source('a', [{ kind: 'committed', blockHeight: 6 }]);
    const r = await waitForOutcome(plan({ timeoutMs: 30, sources: [node] }));
    assert.deepEqual(r, { hash: HASH, blockHeight: 6 });
    assert.equal(node.lookups, 1);
  });

  it('a wait that ends without an outcome names the node’s quorum state when the node gives it', async () => {
    const queued = () => source('a', [{ kind: 'queued' }]);
    const noQuorum = 'no quorum: 2/4 validators reachable, 3 needed';
    const error = await waitForOutcome(
      plan({ timeoutMs: 30, sources: [queued()], nodeState: async () => noQuorum }),
    ).then(
      () => assert.fail('resolved'),
      (e: unknown) => e as ToranaUnknownOutcomeError,
    );
    assert.ok(error instanceof ToranaUnknownOutcomeError);
    assert.equal(error.nodeState, noQuorum);
    assert.match(error.message, /the node reports no quorum: 2\/4 validators reachable, 3 needed/);
    // A node that cannot say (an older node, or unreachable): the error is as before, without a guess.
    const silentNode = await waitForOutcome(
      plan({
        timeoutMs: 30,
        sources: [queued()],
        nodeState: async () => {
          throw new ToranaTransportError('down');
        },
      }),
    ).then(
      () => assert.fail('resolved'),
      (e: unknown) => e as ToranaUnknownOutcomeError,
    );
    assert.equal(silentNode.nodeState, undefined);
    assert.doesNotMatch(silentNode.message, /node reports/);
  });
});
