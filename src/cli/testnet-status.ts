// The status of one testnet peer as `torana testnet up` prints it once a second: chain height,
// connected peers and view from GET /status, the leader from GET /v1/consensus/leader. One short GET
// each over node:http (as status-action.ts); a peer that does not answer in time is shown as down.

import { request } from 'node:http';
import type { TestnetManifest } from '../node/testnet-manifest.js';

const PROBE_BYTES_MAX = 1 << 20;

export interface PeerStatus {
  index: number;
  up: boolean;
  /** Chain height (GET /status `blocks`). */
  height?: number;
  view?: number;
  /** Index (in the testnet) of the peer this one reports as leader. */
  leader?: number;
  /** Peers this one reports as connected (GET /status `peers`). */
  connected?: number;
}

export function getJson(base: string, path: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      { headers: { accept: 'application/json' }, timeout: timeoutMs, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > PROBE_BYTES_MAX) req.destroy(new Error(`answer over ${PROBE_BYTES_MAX} bytes`));
          else chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${path}: HTTP ${res.statusCode}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * The validator at `leaderIndex` of a status answer, as a testnet peer index: validator sets are
 * ordered by peer id text (consensus/validator-set.ts). Right while the roster is the genesis one; the
 * leader route's peer id (below) is preferred.
 */
export function leaderPeerIndex(manifest: TestnetManifest, leaderIndex: number): number | undefined {
  const validators = manifest.peers
    .filter((p) => p.role === 'validator')
    .sort((a, b) => (a.peerId < b.peerId ? -1 : a.peerId > b.peerId ? 1 : 0));
  return validators[leaderIndex]?.index;
}

/** The testnet index of a peer id (undefined for a peer outside the testnet, e.g. one registered later). */
export function peerIndexOf(manifest: TestnetManifest, peerId: string): number | undefined {
  return manifest.peers.find((p) => p.peerId === peerId)?.index;
}

interface StatusAnswer {
  blocks?: unknown;
  peers?: unknown;
  consensus?: { view?: unknown; leader_index?: unknown };
}

/**
 * One peer's status: GET /status (chain height, connected peers, view) and GET /v1/consensus/leader
 * (the leader's peer id; when that route is not served, `consensus.leader_index` of /status).
 */
export async function probePeer(
  manifest: TestnetManifest,
  index: number,
  timeoutMs: number,
): Promise<PeerStatus> {
  const url = manifest.peers[index]!.gatewayUrl;
  const [status, leader] = await Promise.allSettled([
    getJson(url, '/status', timeoutMs),
    getJson(url, '/v1/consensus/leader', timeoutMs),
  ]);
  if (status.status === 'rejected') return { index, up: false };
  const st = status.value as StatusAnswer;
  const s: PeerStatus = { index, up: true };
  if (typeof st.blocks === 'number') s.height = st.blocks;
  if (typeof st.peers === 'number') s.connected = st.peers;
  if (typeof st.consensus?.view === 'number') s.view = st.consensus.view;
  const leaderId =
    leader.status === 'fulfilled' ? (leader.value as { leader_peer_id?: unknown }).leader_peer_id : undefined;
  const l =
    typeof leaderId === 'string'
      ? peerIndexOf(manifest, leaderId)
      : typeof st.consensus?.leader_index === 'number'
        ? leaderPeerIndex(manifest, st.consensus.leader_index)
        : undefined;
  if (l !== undefined) s.leader = l;
  return s;
}

/** `12s  peer-0 h=41 v=0 p=3 | peer-1 down | …  leader peer-2` */
export function statusLine(elapsedMs: number, statuses: PeerStatus[]): string {
  const cells = statuses.map((s) =>
    s.up
      ? `peer-${s.index} h=${s.height ?? '?'} v=${s.view ?? '?'} p=${s.connected ?? '?'}`
      : `peer-${s.index} down`,
  );
  const leaders = new Set(statuses.flatMap((s) => (s.leader === undefined ? [] : [s.leader])));
  const leader = leaders.size === 0 ? '?' : [...leaders].map((l) => `peer-${l}`).join('/');
  return `${Math.round(elapsedMs / 1000)}s  ${cells.join(' | ')}  leader ${leader}`;
}

/**
 * A filter for the status loop: true for the first statuses and whenever they differ from the last
 * ones printed, so a quiet network does not print the same line every second.
 */
export function changeFilter(): (statuses: readonly PeerStatus[]) => boolean {
  let last: string | undefined;
  return (statuses) => {
    const key = JSON.stringify(statuses);
    if (key === last) return false;
    last = key;
    return true;
  };
}
