// Adapts the concrete node to the gateway's ports (gateway/ports.ts). The only place the two meet.

import type { GatewayPorts, Receipt } from '../gateway/ports.js';
import { receiptMessages } from '../model/receipt.js';
import { decodeTransactionBatch } from '../pipeline/batch.js';
import { toHex } from '../util/hex.js';
import { createConsensusPort } from './consensus-port.js';
import { decodeLimitsOf } from './load-config.js';
import type { Node } from './node.js';
import { QUERY_LANGUAGE } from './query-language.js';
import { createQueryPort } from './query-port.js';
import { softwareVersion } from './version.js';

export function gatewayPorts(node: Node, address: () => string): GatewayPorts {
  const { config, pipeline, ledger } = node;
  const nowMs = () => node.clock.nowMs();
  const peerId = node.nodeKey.publicKeyText();
  const receiptMessage = receiptMessages(peerId);
  const version = softwareVersion();
  // The newest block's time, read once per height (from the ledger's block cache, or the log).
  let tip = { height: -1, timeMs: 0 };
  return {
    node: {
      chainId: config.node.chainId,
      peerId,
      role: node.network === undefined ? 'single' : config.network.role,
      version,
      get address() {
        return address();
      },
      startedAtMs: node.startedAtMs,
      nowMs,
      healthy: () => node.healthy,
      receipt(txHash, submittedAtMs, submittedAtHeight): Receipt {
        const signature = node.nodeKey.sign(receiptMessage(txHash, submittedAtMs, submittedAtHeight));
        return {
          txHash: toHex(txHash),
          submittedAtMs,
          submittedAtHeight,
          nodePublicKey: peerId,
          signature: toHex(signature),
        };
      },
      connectedPeers: () =>
        (node.network?.peers() ?? []).filter((p) => p.connected).map((p) => `${p.peerId}@${p.address}`),
      time: () =>
        node.timeSync?.report() ?? {
          peers: 0,
          samples: 0,
          offsetMs: 0,
          confidenceMs: 0,
          fallback: true,
          perPeer: [],
          rttHistogram: [],
        },
      peers: () =>
        (node.network?.peers() ?? []).map((p) => ({
          peerId: p.peerId,
          address: p.address,
          role: p.role,
          connected: p.connected,
          lastSeenMs: p.lastSeenMs,
        })),
    },
    state: ledger.state,
    query: QUERY_LANGUAGE,
    chain: {
      height: () => ledger.height(),
      tipHash: () => ledger.tipHash(),
      tipTimeMs: () => {
        const height = ledger.height();
        if (tip.height !== height)
          tip = { height, timeMs: ledger.blockSync(height)?.header.creationTimeMs ?? 0 };
        return tip.timeMs;
      },
      block: (h) => ledger.block(h),
      locate: (h) => ledger.locate(h),
      accountTransactions: (a, offset, limit) => ledger.accountTransactions(a, offset, limit),
    },
    transactions: {
      submit: (body, source) => pipeline.submit(body, source),
      async submitBatch(body, itemsMax, source, budget) {
        const batch = decodeTransactionBatch(body, decodeLimitsOf(config), itemsMax);
        if (!batch.ok) return batch;
        const { granted, retryAfterS } = budget?.(batch.items.length) ?? {
          granted: batch.items.length,
          retryAfterS: 0,
        };
        const admitted = await pipeline.admitDecoded(batch.items.slice(0, granted), source);
        const limited = batch.items.slice(granted).map(() => ({
          ok: false as const,
          kind: 'rate_limited' as const,
          retryAfterS,
        }));
        return { ok: true, results: [...admitted, ...limited] };
      },
      status: (hash) => pipeline.status(hash),
      queueDepth: () => pipeline.queue.depth,
      queueCapacity: () => pipeline.queue.capacity,
      counters: () => pipeline.counters,
    },
    queries: createQueryPort(ledger, {
      chainId: config.node.chainId,
      decodeLimits: decodeLimitsOf(config),
      fetchSizeDefault: config.query.fetchSizeDefault,
      fetchSizeMax: config.query.fetchSizeMax,
      cursorsMax: config.query.cursorsMax,
      cursorIdleMs: config.query.cursorIdleMs,
      cursorsPerAccountMax: config.query.cursorsPerAccountMax,
      filterValueCharsMax: config.query.filterValueCharsMax,
      workUnitsMax: config.query.workUnitsMax,
      freshness: { maxAgeMs: config.query.maxAgeMs, replayCacheMax: config.query.replayCacheMax },
      now: nowMs,
    }),
    events: pipeline.events,
    consensus: createConsensusPort(node),
  };
}
