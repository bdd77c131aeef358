// Peer networks on loopback for tests: keys, options with small limits, waiting for a condition,
// and a raw Noise client that can send what a well-behaved PeerNetwork never would.
import { readFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import SecretStream from '@hyperswarm/secret-stream';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { encodeFrame, FrameType } from '../../src/p2p/frame.js';
import { encodeHello, P2P_PROTOCOL_VERSION } from '../../src/p2p/hello.js';
import { PeerNetwork, type PeerNetworkOptions } from '../../src/p2p/network.js';
import { systemClock } from '../../src/util/clock.js';

export const TEST_LIMITS = {
  frameBytesMax: 4 * 1024 * 1024,
  sendQueueMax: 1024,
  sendQueueBytesMax: 64 * 1024 * 1024,
  recvQueueMax: 1024,
  reconnectBaseMs: 20,
  reconnectMaxMs: 200,
  handshakeTimeoutMs: 2000,
  pingIntervalMs: 500,
  idleTimeoutMs: 5000,
} as const;

/** A free loopback port (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  const s: Server = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * A loopback port nothing listens on, below the kernel's ephemeral range: dials to it are refused.
 * A port from the ephemeral range (what `freePort` returns) can be taken by another test between the
 * check and the dial, and repeated dials to it can even connect to themselves (TCP simultaneous open
 * when the kernel picks the same port as the source), so a test of refused dials must not use one.
 */
export async function refusingPort(): Promise<number> {
  const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  const top = Math.min(low ?? 32768, 32768) - 1;
  for (let tries = 0; tries < 50; tries++) {
    const port = 10_000 + Math.floor(Math.random() * (top - 10_000));
    const s: Server = createServer();
    const free = await new Promise<boolean>((r) => {
      s.once('error', () => r(false));
      s.listen(port, '127.0.0.1', () => r(true));
    });
    if (free) {
      await new Promise<void>((r) => s.close(() => r()));
      return port;
    }
  }
  throw new Error('no free port below the ephemeral range');
}

export interface TestNode {
  key: Ed25519KeyPair;
  port: number;
  /** `<key>@127.0.0.1:<port>`. */
  entry: string;
}

export async function testNodes(n: number): Promise<TestNode[]> {
  const out: TestNode[] = [];
  for (let i = 0; i < n; i++) {
    const key = Ed25519KeyPair.generate();
    const port = await freePort();
    out.push({ key, port, entry: `${key.publicKeyText()}@127.0.0.1:${port}` });
  }
  return out;
}

/** A network for `self` that lists `peers` (entries or nodes). */
export function networkFor(
  self: TestNode,
  peers: readonly (TestNode | string)[],
  over: Partial<PeerNetworkOptions> = {},
): PeerNetwork {
  return new PeerNetwork({
    ...TEST_LIMITS,
    keyPair: self.key,
    clock: systemClock,
    listen: `127.0.0.1:${self.port}`,
    peers: peers.map((p) => (typeof p === 'string' ? p : p.entry)),
    role: 'validator',
    networkId: 'torana-test',
    ...over,
  });
}

export async function waitFor(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function connected(net: PeerNetwork, peerId: string): boolean {
  return net.peers().some((p) => p.peerId === peerId && p.connected);
}

/** A Noise client with its own key that speaks the frame format by hand. */
export interface RawPeer {
  stream: SecretStream;
  closed: Promise<void>;
  sendHello(networkId?: string): void;
  sendRaw(bytes: Uint8Array): void;
}

export async function rawPeer(key: Ed25519KeyPair, port: number): Promise<RawPeer> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const stream = new SecretStream(true, socket, { keyPair: key.handshakeKeyPair() });
  stream.on('error', () => {});
  const closed = new Promise<void>((r) => stream.on('close', () => r()));
  await new Promise<void>((resolve, reject) => {
    stream.once('connect', resolve);
    stream.once('close', () => reject(new Error('closed before the handshake')));
  });
  return {
    stream,
    closed,
    sendHello: (networkId = 'torana-test') =>
      stream.write(
        encodeFrame(
          FrameType.Hello,
          encodeHello({ version: P2P_PROTOCOL_VERSION, role: 'validator', networkId }),
        ),
      ),
    sendRaw: (bytes) => stream.write(bytes),
  };
}
