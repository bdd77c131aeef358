// The Connect relay's state (docs/connect.md): sessions keyed by the client-computed `sid`, each with
// one single-use token per role (`app`, `wallet`), the two sockets, and the per-session frame caps. It
// decides and counts; routes.ts moves the bytes. Frames are opaque: the relay never parses them, it
// only checks their size and rate and hands them to the other side (or holds a few until it connects).
// Time comes from `now` (a fake clock in tests); tokens from `random`. Tokens are kept as their SHA-256
// so that the state never holds one, and they are never logged.

import { sha256 } from '@noble/hashes/sha2';

export type ConnectRole = 'app' | 'wallet';
export const CONNECT_ROLES: readonly ConnectRole[] = ['app', 'wallet'];

export interface RelayLimits {
  /** Open sessions this node holds at once (503 `connect_sessions_full` above). */
  readonly sessionsMax: number;
  /** Time a token stays valid unused (ms). */
  readonly tokenTtlMs: number;
  /** Time a session with no socket is kept (ms). */
  readonly idleMs: number;
  /** Largest relayed frame (bytes). */
  readonly frameBytesMax: number;
  /** Sustained frames per second one side of a session may send. */
  readonly framesPerSecond: number;
  /** Frames one side may send in a burst above the sustained rate. */
  readonly frameBurst: number;
  /** Frames held for a side not yet connected. */
  readonly pendingFramesMax: number;
}

/** Where a side's frames go: its socket (routes.ts adapts a WebSocket to this). */
export interface RelayPeer {
  send(frame: Uint8Array, binary: boolean): void;
  close(code: number, reason: string): void;
}

interface Side {
  tokenHash: Uint8Array;
  used: boolean;
  peer: RelayPeer | undefined;
  /** Token bucket of the frames this side sends. */
  tokens: number;
  refilledAt: number;
  pending: { frame: Uint8Array; binary: boolean }[];
}

interface Session {
  readonly createdAt: number;
  /** Since when no socket is attached (ms), or undefined while one is. */
  idleSince: number | undefined;
  readonly sides: Record<ConnectRole, Side>;
}

export type AttachRefusal =
  | { code: 'connect_session_unknown' }
  | { code: 'connect_token_invalid'; reason: 'missing' | 'wrong' | 'wrong_role' | 'used' | 'expired' };

export type FrameOutcome = 'relayed' | 'held' | 'dropped' | 'too_large' | 'rate_limited' | 'gone';

export interface RelayCounters {
  sessions_opened: number;
  sessions_closed: number;
  sessions_dropped_idle: number;
  sessions_refused_full: number;
  attaches_refused: number;
  frames_relayed: number;
  frames_held: number;
  frames_dropped: number;
  frames_refused_size: number;
  frames_refused_rate: number;
  bytes_relayed: number;
}

export interface Relay {
  readonly limits: RelayLimits;
  /** A new session's tokens, or the refusal. */
  open(
    sid: string,
  ): { tokens: Record<ConnectRole, string> } | { code: 'connect_session_exists' | 'connect_sessions_full' };
  /** Binds a socket to a side with its token (single use); the refusal leaves the session unchanged. */
  attach(
    sid: string,
    role: ConnectRole,
    token: string | undefined,
    peer: RelayPeer,
  ): AttachRefusal | undefined;
  /** The socket of a side went away. */
  detach(sid: string, role: ConnectRole, peer: RelayPeer): void;
  /** A frame a side sent: relayed to the other side, held for it, or refused. */
  frame(sid: string, from: ConnectRole, frame: Uint8Array, binary: boolean): FrameOutcome;
  /** Ends a session and closes its sockets; false when unknown. */
  close(sid: string): boolean;
  /** Drops sessions with no socket for `idleMs`; returns how many. */
  sweep(): number;
  status(): { sessions: number; sockets: number; counters: RelayCounters };
}

const other = (r: ConnectRole): ConnectRole => (r === 'app' ? 'wallet' : 'app');

/** Equal-length comparison without an early exit. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i]! ^ b[i]!;
  return d === 0;
}

const utf8 = new TextEncoder();
const tokenHash = (token: string) => sha256(utf8.encode(token));

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

export function createRelay(opts: {
  limits: RelayLimits;
  now: () => number;
  random: (n: number) => Uint8Array;
}): Relay {
  const { limits, now } = opts;
  // Insertion order is only used to sweep; nothing is hashed.
  const sessions = new Map<string, Session>();
  const counters: RelayCounters = {
    sessions_opened: 0,
    sessions_closed: 0,
    sessions_dropped_idle: 0,
    sessions_refused_full: 0,
    attaches_refused: 0,
    frames_relayed: 0,
    frames_held: 0,
    frames_dropped: 0,
    frames_refused_size: 0,
    frames_refused_rate: 0,
    bytes_relayed: 0,
  };

  const newSide = (token: string, at: number): Side => ({
    tokenHash: tokenHash(token),
    used: false,
    peer: undefined,
    tokens: limits.frameBurst,
    refilledAt: at,
    pending: [],
  });

  /** Takes one frame from the side's bucket; false when empty. */
  function take(side: Side, at: number): boolean {
    const refill = ((at - side.refilledAt) * limits.framesPerSecond) / 1000;
    side.tokens = Math.min(limits.frameBurst, side.tokens + Math.max(0, refill));
    side.refilledAt = at;
    if (side.tokens < 1) return false;
    side.tokens -= 1;
    return true;
  }

  function end(sid: string, s: Session, code: number, reason: string): void {
    sessions.delete(sid);
    for (const r of CONNECT_ROLES) {
      const p = s.sides[r].peer;
      s.sides[r].peer = undefined;
      p?.close(code, reason);
    }
  }

  return {
    limits,
    open(sid) {
      if (sessions.has(sid)) return { code: 'connect_session_exists' };
      if (sessions.size >= limits.sessionsMax) {
        counters.sessions_refused_full += 1;
        return { code: 'connect_sessions_full' };
      }
      const at = now();
      const tokens = { app: base64url(opts.random(32)), wallet: base64url(opts.random(32)) };
      sessions.set(sid, {
        createdAt: at,
        idleSince: at,
        sides: { app: newSide(tokens.app, at), wallet: newSide(tokens.wallet, at) },
      });
      counters.sessions_opened += 1;
      return { tokens };
    },
    attach(sid, role, token, peer) {
      const refuse = (r: AttachRefusal): AttachRefusal => {
        counters.attaches_refused += 1;
        return r;
      };
      const s = sessions.get(sid);
      if (s === undefined) return refuse({ code: 'connect_session_unknown' });
      if (token === undefined || token === '')
        return refuse({ code: 'connect_token_invalid', reason: 'missing' });
      const h = tokenHash(token);
      const side = s.sides[role];
      if (!sameBytes(h, side.tokenHash)) {
        const reason = sameBytes(h, s.sides[other(role)].tokenHash) ? 'wrong_role' : 'wrong';
        return refuse({ code: 'connect_token_invalid', reason });
      }
      if (side.used) return refuse({ code: 'connect_token_invalid', reason: 'used' });
      if (now() - s.createdAt >= limits.tokenTtlMs)
        return refuse({ code: 'connect_token_invalid', reason: 'expired' });
      side.used = true;
      side.peer = peer;
      s.idleSince = undefined;
      // Frames the other side sent before this one connected.
      for (const f of side.pending.splice(0)) {
        counters.frames_relayed += 1;
        counters.bytes_relayed += f.frame.length;
        peer.send(f.frame, f.binary);
      }
      return undefined;
    },
    detach(sid, role, peer) {
      const s = sessions.get(sid);
      if (s === undefined || s.sides[role].peer !== peer) return;
      s.sides[role].peer = undefined;
      // The other side learns the pairing is over; the session then waits for DELETE or the idle drop.
      const p = s.sides[other(role)].peer;
      s.sides[other(role)].peer = undefined;
      p?.close(1000, 'peer left');
      s.idleSince = now();
    },
    frame(sid, from, frame, binary) {
      const s = sessions.get(sid);
      if (s === undefined || s.sides[from].peer === undefined) return 'gone';
      if (frame.length > limits.frameBytesMax) {
        counters.frames_refused_size += 1;
        return 'too_large';
      }
      if (!take(s.sides[from], now())) {
        counters.frames_refused_rate += 1;
        return 'rate_limited';
      }
      const to = s.sides[other(from)];
      if (to.peer !== undefined) {
        counters.frames_relayed += 1;
        counters.bytes_relayed += frame.length;
        to.peer.send(frame, binary);
        return 'relayed';
      }
      if (to.used || to.pending.length >= limits.pendingFramesMax) {
        counters.frames_dropped += 1;
        return 'dropped';
      }
      to.pending.push({ frame, binary });
      counters.frames_held += 1;
      return 'held';
    },
    close(sid) {
      const s = sessions.get(sid);
      if (s === undefined) return false;
      counters.sessions_closed += 1;
      end(sid, s, 1000, 'session closed');
      return true;
    },
    sweep() {
      const at = now();
      let dropped = 0;
      for (const [sid, s] of [...sessions]) {
        if (s.idleSince === undefined || at - s.idleSince < limits.idleMs) continue;
        end(sid, s, 1000, 'session idle');
        dropped += 1;
      }
      counters.sessions_dropped_idle += dropped;
      return dropped;
    },
    status() {
      let sockets = 0;
      for (const s of sessions.values())
        for (const r of CONNECT_ROLES) if (s.sides[r].peer !== undefined) sockets += 1;
      return { sessions: sessions.size, sockets, counters: { ...counters } };
    },
  };
}
