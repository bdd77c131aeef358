// Waiting for a submitted transaction's outcome without ever misreporting it (README "SDK", "Resending
// and waiting"). The event stream is the fast path; whenever it cannot give the answer (the node dropped
// the events the client still needed, `events_gone`; the connection was lost; the node restarted; the
// deadline came) and whenever the submit's own answer leaves the transaction's fate open (a lost
// connection, a 408 or a 5xx), the outcome is looked up by hash, on every configured node in turn,
// retried with backoff up to the deadline. Only when no node can say is the wait reported as
// `outcome_unknown`: the transaction may or may not have committed, and must be looked up by hash, not
// signed again.

import type { Rejection } from '../model/rejections.js';
import { equalJitterDelayMs } from '../util/backoff.js';
import { ToranaApiError, ToranaUnknownOutcomeError, TransactionRejectedError } from './errors.js';

/** The final outcome of a transaction, as a block recorded it (or the queue gave it up). */
export type TxOutcome =
  | { kind: 'committed'; blockHeight: number }
  | { kind: 'rejected'; reason: Rejection; blockHeight: number | undefined }
  | { kind: 'expired' };

/** What one status lookup said: a final outcome, or that the node holds no final outcome (yet). */
export type LookupAnswer = TxOutcome | { kind: 'queued' } | { kind: 'unseen' };

/** One node the outcome can be looked up on. */
export interface StatusSource {
  readonly url: string;
  /** The transaction's status on this node; throws when the node cannot answer. */
  status(hash: string): Promise<LookupAnswer>;
  /** Sends the same signed bytes again (idempotent: the node answers a copy it holds as a duplicate). */
  resend(): Promise<void>;
}

export interface WaitPlan {
  hash: string;
  /** Milliseconds from the start of the wait to its deadline. */
  timeoutMs: number;
  /**
   * Sends the transaction; resolves when the node admitted it (202, or a 409 saying it already holds or
   * committed it). A throw is read with `submitLeavesFateOpen`.
   */
  submit(): Promise<void>;
  /**
   * The outcome from the node's event stream, connected before `submit` is called. Resolves undefined when
   * the stream ended without one; rejects when the stream failed (events_gone, lost connection).
   */
  watched: Promise<TxOutcome | undefined>;
  /** The nodes to look the outcome up on, the submitting node first. */
  sources: readonly StatusSource[];
  /** Backoff between lookup rounds (util/backoff.ts `equalJitterDelayMs`). */
  backoff?: { baseMs: number; maxMs: number };
  now?: () => number;
  /** The jitter of the backoff, in [0, 1). */
  random?: () => number;
  /**
   * What the submitting node says of itself (its quorum, sdk/quorum.ts), asked once when no outcome came
   * by the deadline and named in the error; undefined or a throw when it cannot say.
   */
  nodeState?: () => Promise<string | undefined>;
}

export const WAIT_BACKOFF_DEFAULT = { baseMs: 100, maxMs: 2_000 } as const;

/** How long one lookup may take even at or past the deadline (so a wait always ends with one round). */
export const LOOKUP_GRACE_MS = 2_000;

/** Submit answers that do not say whether the node took the transaction: it may commit anyway. */
export function submitLeavesFateOpen(e: unknown): boolean {
  if (!(e instanceof ToranaApiError)) return true; // no answer at all: a lost connection
  return e.status === 408 || (e.status >= 500 && e.status !== 503) || e.code.startsWith('http_');
}

/** A 409 that means the node already holds or committed this very transaction. */
export function isAdmittedDuplicate(e: unknown): boolean {
  return e instanceof ToranaApiError && (e.code === 'already_enqueued' || e.code === 'already_committed');
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `p`, or 'deadline' when the deadline comes first. */
async function untilDeadline<T>(p: Promise<T>, deadline: number, now: () => number): Promise<T | 'deadline'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'deadline'>((r) => {
    timer = setTimeout(() => r('deadline'), Math.max(0, deadline - now()));
  });
  try {
    return await Promise.race([p, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function settle(outcome: TxOutcome, hash: string): { hash: string; blockHeight: number } {
  if (outcome.kind === 'committed') return { hash, blockHeight: outcome.blockHeight };
  if (outcome.kind === 'rejected')
    throw new TransactionRejectedError(hash, outcome.reason, outcome.blockHeight);
  throw new ToranaApiError(400, 'transaction_expired', 'the transaction expired in the queue', {
    tx_hash: hash,
  });
}

/**
 * Submits and waits for the outcome of `plan.hash`: committed (resolves with the block height), rejected
 * (TransactionRejectedError), expired (ToranaApiError `transaction_expired`), a definite refusal of the
 * submit (its ToranaApiError), or ToranaUnknownOutcomeError when no node could say before the deadline.
 */
export async function waitForOutcome(plan: WaitPlan): Promise<{ hash: string; blockHeight: number }> {
  const now = plan.now ?? Date.now;
  const deadline = now() + plan.timeoutMs;
  // The stream's failure is read below (or never, once the lookups took over): never unhandled.
  const watched = plan.watched.then(
    (outcome) => ({ outcome }),
    (error: unknown) => ({ error }),
  );
  let why = 'the deadline passed';
  let submitted = true;
  const submit = await untilDeadline(
    plan.submit().then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    deadline,
    now,
  );
  if (submit === 'deadline') {
    submitted = false;
    why = 'the submit got no answer before the deadline';
  } else if (!submit.ok && !isAdmittedDuplicate(submit.error)) {
    if (!submitLeavesFateOpen(submit.error)) throw submit.error;
    submitted = false;
    why = `the submit got no clear answer (${(submit.error as Error).message})`;
  }
  if (submitted) {
    const r = await untilDeadline(watched, deadline, now);
    if (r !== 'deadline') {
      if ('outcome' in r && r.outcome !== undefined) return settle(r.outcome, plan.hash);
      why =
        'error' in r ? `the event stream failed (${(r.error as Error).message})` : 'the event stream ended';
    }
  }
  return settle(await lookUp(plan, deadline, now, why), plan.hash);
}

/** Status lookups on every source, round after round with backoff, until one says or the deadline. */
async function lookUp(plan: WaitPlan, deadline: number, now: () => number, why: string): Promise<TxOutcome> {
  const backoff = plan.backoff ?? WAIT_BACKOFF_DEFAULT;
  const random = plan.random ?? Math.random;
  const seen: string[] = [];
  for (let round = 0; ; round++) {
    const unseenOn: StatusSource[] = [];
    let held = false;
    for (const source of plan.sources) {
      let answer: LookupAnswer | 'deadline';
      try {
        answer = await untilDeadline(
          source.status(plan.hash),
          Math.max(deadline, now() + LOOKUP_GRACE_MS),
          now,
        );
      } catch (e) {
        seen.push(`${source.url}: ${(e as Error).message}`);
        continue;
      }
      if (answer === 'deadline') {
        seen.push(`${source.url}: no answer`);
        continue;
      }
      if (answer.kind === 'committed' || answer.kind === 'rejected' || answer.kind === 'expired')
        return answer;
      if (answer.kind === 'queued') held = true;
      else unseenOn.push(source);
      seen.push(`${source.url}: ${answer.kind}`);
    }
    // No reachable node holds it (a node that took it and crashed before passing it on, or a submit that
    // never arrived): the same signed bytes again, which cannot make a second transaction.
    if (!held) {
      for (const source of unseenOn) {
        try {
          await untilDeadline(source.resend(), Math.max(deadline, now() + LOOKUP_GRACE_MS), now);
          break;
        } catch (e) {
          if (isAdmittedDuplicate(e)) break;
        }
      }
    }
    const left = deadline - now();
    if (left <= 0) break;
    await sleep(Math.min(left, equalJitterDelayMs(backoff.baseMs, backoff.maxMs, round, random())));
  }
  const detail = `${why}; lookups: ${seen.slice(-plan.sources.length).join('; ')}`;
  const state = await untilDeadline(
    (plan.nodeState?.() ?? Promise.resolve(undefined)).catch(() => undefined),
    now() + LOOKUP_GRACE_MS,
    now,
  );
  throw new ToranaUnknownOutcomeError(plan.hash, detail, state === 'deadline' ? undefined : state);
}
