// What the network scenarios (test/network/*.test.ts) read from peers beyond the chain itself: the
// consensus status (view changes and their causes), the roster and the signers of every commit
// certificate (who signed, mapped to peer ids), and a raw SSE reader of the event stream.

import { createParser } from 'eventsource-parser';
import { signerIndexes } from '../../src/consensus/certificate.js';
import { fromHex } from '../../src/util/hex.js';
import type { TestNetwork } from './network.js';
import type { PresenceReport } from './network-load.js';
import type { PeerProcess } from './network-peer.js';

/** The fields of GET /v1/consensus/status the scenarios look at. */
export interface ConsensusStatusJson {
  mode: string;
  height: number;
  view: number;
  leader_index: number;
  view_changes: number;
  view_change_causes: Record<string, number>;
}

export interface CertificateJson {
  height: number;
  view: number;
  block_hash: string;
  validator_set_hash: string;
  signatures_total: number;
  signers: string;
}

interface ValidatorSetsJson {
  items: { height: number; validator_set_hash: string; validator_set: { peer: string }[] }[];
}

export function consensusStatus(peer: PeerProcess): Promise<ConsensusStatusJson> {
  return peer.getJson<ConsensusStatusJson>('/v1/consensus/status', 3000);
}

/** The validator-set history a peer reports: set hash → roster peer ids (roster order). */
export async function rosters(peer: PeerProcess): Promise<Map<string, string[]>> {
  const sets = await peer.getJson<ValidatorSetsJson>('/v1/consensus/validator-sets?limit=128');
  return new Map(sets.items.map((s) => [s.validator_set_hash, s.validator_set.map((v) => v.peer)]));
}

/** Every commit certificate of a peer's chain, from its tip down to height 1. */
export async function certificates(peer: PeerProcess): Promise<CertificateJson[]> {
  const out: CertificateJson[] = [];
  let from: number | undefined;
  for (;;) {
    const q = from === undefined ? '' : `&from=${from}`;
    const page = await peer.getJson<{ items: CertificateJson[] }>(
      `/v1/consensus/commit-certificates?limit=128${q}`,
    );
    out.push(...page.items);
    const last = page.items.at(-1);
    if (last === undefined || last.height <= 1) return out;
    from = last.height - 1;
  }
}

/**
 * The peer ids that signed `cert`, through the roster its `validator_set_hash` names. Throws when the
 * roster is unknown or the bitmap does not fit it (bits beyond the roster, wrong length).
 */
export function signerPeers(cert: CertificateJson, roster: Map<string, string[]>): string[] {
  const set = roster.get(cert.validator_set_hash);
  if (set === undefined)
    throw new Error(`height ${cert.height}: unknown validator set ${cert.validator_set_hash}`);
  const bitmap = fromHex(cert.signers);
  const idx = bitmap === undefined ? undefined : signerIndexes(bitmap, set.length);
  if (idx === undefined)
    throw new Error(`height ${cert.height}: bitmap ${cert.signers} does not fit ${set.length}`);
  return idx.map((i) => set[i]!);
}

export interface SseEvent {
  id: string | undefined;
  name: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON of an event, checked field by field.
  data: any;
  atMs: number;
}

export interface SseReader {
  events: SseEvent[];
  close(): void;
}

/** Opens `path` as text/event-stream and collects every event until close(); resolves once it answers 200. */
export async function readSse(url: string, path: string): Promise<SseReader> {
  const abort = new AbortController();
  const res = await fetch(`${url}${path}`, {
    headers: { accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (res.status !== 200 || res.body === null) throw new Error(`SSE ${path}: HTTP ${res.status}`);
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent: (e) => events.push({ id: e.id, name: e.event, data: JSON.parse(e.data), atMs: Date.now() }),
  });
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
  })();
  return { events, close: () => abort.abort() };
}

/**
 * The hashes of every transaction in each listed peer's blocks 1..its height (GET
 * /v1/explorer/blocks/:height lists them all): one request per block instead of one per transaction
 * and peer, so checking thousands of transactions stays within seconds.
 */
export async function committedByPeer(net: TestNetwork, peers: number[]): Promise<Map<number, Set<string>>> {
  const heights = await net.heights(peers);
  const out = new Map<number, Set<string>>();
  await Promise.all(
    peers.map(async (p, k) => {
      const top = heights[k];
      if (top === undefined) throw new Error(`peer ${p} does not answer`);
      const set = new Set<string>();
      for (let h = 1; h <= top; h += 8) {
        const batch = Array.from({ length: Math.min(8, top - h + 1) }, (_, i) =>
          net.peer(p).getJson<{ transactions: { hash: string }[] }>(`/v1/explorer/blocks/${h + i}`),
        );
        for (const b of await Promise.all(batch)) for (const t of b.transactions) set.add(t.hash);
      }
      out.set(p, set);
    }),
  );
  return out;
}

/** Like LoadGenerator.checkCommittedEverywhere, from the peers' blocks (committedByPeer). */
export async function presenceFromBlocks(
  net: TestNetwork,
  hashes: string[],
  peers: number[] = net.peers.map((_, i) => i),
): Promise<PresenceReport> {
  const sets = await committedByPeer(net, peers);
  const report: PresenceReport = { committed: 0, notCommitted: 0, missing: [] };
  for (const hash of hashes) {
    const absent = peers.filter((p) => !sets.get(p)!.has(hash));
    if (absent.length === peers.length) report.notCommitted++;
    else {
      report.committed++;
      if (absent.length > 0) report.missing.push({ hash, peers: absent });
    }
  }
  return report;
}
