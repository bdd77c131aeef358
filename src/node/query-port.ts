// Signed queries: decode with limits, check the chain, the creation time (drift and
// age, query-freshness.ts), the signature and the authority, refuse a replay, then run the query over the
// committed state. Cursors live in a bounded store per node.

import { decodeFrame, encode } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { hash } from '../crypto/hash.js';
import { createNonceCache } from '../gateway/nonce-cache.js';
import type { QueriesPort, QueryOutcome } from '../gateway/ports.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { QueryPayloadCodec, SignedQueryCodec } from '../model/queries.js';
import { SCHEMA } from '../model/schema.js';
import type { Ledger } from '../pipeline/ledger.js';
import type { BlockSource } from '../state/block-source.js';
import { CursorStore } from '../state/cursors.js';
import { isQueryError } from '../state/errors.js';
import { executeQuery } from '../state/query.js';
import { fromHex, toHex } from '../util/hex.js';
import { checkQueryTime, type QueryFreshnessLimits, replayedQuery } from './query-freshness.js';

export interface QueryPortOptions {
  chainId: string;
  decodeLimits: DecodeLimits;
  fetchSizeDefault: number;
  fetchSizeMax: number;
  cursorsMax: number;
  cursorIdleMs: number;
  cursorsPerAccountMax: number;
  filterValueCharsMax: number;
  workUnitsMax: number;
  freshness: QueryFreshnessLimits;
  now: () => number;
}

/**
 * Running transaction counts per height (index h: transactions in blocks 1..h), filled once per block:
 * committed blocks never change, so locating the n-th transaction of the chain never re-reads blocks.
 */
function runningCounts(ledger: Ledger): (height: number) => number {
  const upTo: number[] = [0];
  return (height) => {
    for (let h = upTo.length; h <= height; h++) {
      const block = ledger.blockSync(h);
      if (block === undefined) break; // not readable now: count nothing past it, and retry next time
      upTo.push(upTo[h - 1]! + block.transactions.length);
    }
    return upTo[Math.min(height, upTo.length - 1)]!;
  };
}

function blockSourceOf(ledger: Ledger): BlockSource {
  return {
    transactionsUpTo: runningCounts(ledger),
    height: () => ledger.height(),
    block: (h) => ledger.blockSync(h),
    transaction: (hashHex) => {
      const bytes = fromHex(hashHex, 32);
      const loc = bytes === undefined ? undefined : ledger.locate(bytes);
      return loc === undefined ? undefined : { blockHeight: loc.height, index: loc.index };
    },
    transactionsOfAccount: (account) =>
      ledger.accountTransactionsSync(account).map((l) => ({ blockHeight: l.height, index: l.index })),
  };
}

/** How often idle cursors are swept: often enough that an expired cursor's memory returns promptly. */
function sweepEveryMs(idleMs: number): number {
  return Math.max(10, Math.min(1_000, Math.floor(idleMs / 2)));
}

export function createQueryPort(ledger: Ledger, opts: QueryPortOptions): QueriesPort {
  const cursors = new CursorStore({
    capacity: opts.cursorsMax,
    perAuthorityMax: opts.cursorsPerAccountMax,
    idleExpiryMs: opts.cursorIdleMs,
    now: opts.now,
    sweepEveryMs: sweepEveryMs(opts.cursorIdleMs),
  });
  const blocks = blockSourceOf(ledger);
  const seen = createNonceCache(opts.freshness.replayCacheMax, opts.freshness.maxAgeMs);
  return {
    async execute(body): Promise<QueryOutcome> {
      const d = decodeFrame(SCHEMA, SignedQueryCodec, body, opts.decodeLimits);
      if (!d.ok) return { ok: false, code: d.error.code, message: d.error.message };
      const { payload, signature } = d.value;
      if (payload.chainId !== opts.chainId) {
        return {
          ok: false,
          code: 'chain_id_mismatch',
          message: `query for chain "${payload.chainId}"`,
          details: { chain_id: payload.chainId },
        };
      }
      const nowMs = opts.now();
      const stale = checkQueryTime(
        payload.creationTimeMs,
        nowMs,
        ledger.state.limit('maxClockDriftMs'),
        opts.freshness.maxAgeMs,
      );
      if (stale !== undefined) return stale;
      const key = parsePublicKey(parseAccountId(payload.authority)!.signatory)!;
      const payloadHash = hash(encode(QueryPayloadCodec, payload));
      if (key.algorithm !== 'ed25519' || !ed25519Verify(key.bytes, payloadHash, signature)) {
        return { ok: false, code: 'query_signature_invalid', message: 'query signature does not verify' };
      }
      if (ledger.state.account(payload.authority) === undefined) {
        return {
          ok: false,
          code: 'query_authority_not_found',
          message: `${payload.authority} is not registered`,
          details: { authority: payload.authority },
        };
      }
      // Only verified queries of registered authorities enter the replay set, so forged or foreign
      // ones cannot push honest entries out of it.
      const hashHex = toHex(payloadHash);
      if (!seen.checkAndAdd(hashHex, payload.creationTimeMs, nowMs)) return replayedQuery(hashHex);
      // Index reads (transactions by account) come from the store: let committed blocks reach it first.
      await ledger.flushState();
      const r = await executeQuery(ledger.state, payload.request, payload.authority, {
        cursors,
        blocks,
        fetchSizeDefault: opts.fetchSizeDefault,
        fetchSizeMax: opts.fetchSizeMax,
        filterValueCharsMax: opts.filterValueCharsMax,
        workUnitsMax: opts.workUnitsMax,
      });
      if (isQueryError(r)) return { ok: false, code: r.code, message: r.message, details: { ...r.details } };
      return { ok: true, response: r };
    },
    close: () => cursors.close(),
    openCursors: () => cursors.size,
  };
}
