// Connect (docs/connect.md): an app and a wallet pair through a node's relay, then the app asks the
// wallet to sign transactions. The node only relays: every message is sealed end to end
// (sdk-channel.ts). A separate entry of the SDK (`torana/sdk/connect`), so the main bundle does not
// grow. Works with the platform's WebSocket (browsers, Node ≥ 22) or one passed in (e.g. the `ws` package).
//
//   app:    const app = await connectApp({ url });  show app.pairingUri;  await app.wallet;
//           const built = await app.requestSignature(payload);  client.submit(built)
//   wallet: const w = await pairWallet(uri, { account, signer, approve });

import { decode, encode } from '../../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../../codec/limits.js';
import type { Signer } from '../../crypto/signer.js';
import { payloadHash, type TransactionPayload, TransactionPayloadCodec } from '../../model/transaction.js';
import { type BuiltTransaction, encodeTransaction } from '../../sdk/transaction.js';
import {
  CONNECT_SUBPROTOCOL,
  ConnectChannel,
  ConnectError,
  type ConnectKeyPair,
  connectKeyPair,
  connectSid,
  fromBase64url,
  helloPublicKey,
  pairingUri,
  parsePairingUri,
  relaySocketUrl,
  toBase64url,
} from './sdk-channel.js';

export * from './sdk-channel.js';

/** The messages inside sealed frames. */
export type ConnectMessage =
  | { t: 'hello'; account: string }
  | { t: 'sign_request'; id: number; payload: string }
  | { t: 'sign_result'; id: number; signature: string }
  | { t: 'sign_rejected'; id: number; reason: string };

/** The constructor of a standard WebSocket (the browser's, Node's, or the `ws` package's). */
export type WebSocketClass = new (url: string, protocols: string[]) => WebSocket;

function socketClass(given: WebSocketClass | undefined): WebSocketClass {
  const c = given ?? (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
  if (c === undefined) throw new ConnectError('node', 'no WebSocket: pass one in the options');
  return c;
}

/** Opens the role's socket with its token offered as a subprotocol; resolves once open. */
function openSocket(Ws: WebSocketClass, url: string, token: string): Promise<WebSocket> {
  const ws = new Ws(url, [CONNECT_SUBPROTOCOL, token]);
  ws.binaryType = 'arraybuffer';
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new ConnectError('node', `the relay socket did not open (${url})`));
  });
}

const bytesOf = (data: unknown): Uint8Array =>
  data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data as ArrayBufferLike);

export interface ConnectAppOptions {
  /** The node's base URL. */
  url: string;
  /** The node's URL as the wallet will reach it, when not `url` (put in the pairing URI). */
  node?: string;
  fetch?: typeof fetch;
  WebSocket?: WebSocketClass;
  /** The app's key pair (default: a fresh one). */
  keyPair?: ConnectKeyPair;
}

export interface ConnectApp {
  readonly sid: string;
  /** What the app shows the wallet (QR code, link): the node's wallet URI with the app's key. */
  readonly pairingUri: string;
  /** Resolves when the wallet answered (its account), rejects if the pairing fails. */
  readonly wallet: Promise<{ account: string }>;
  /** Asks the wallet to sign the payload; the signed transaction, ready to submit. */
  requestSignature(payload: TransactionPayload): Promise<BuiltTransaction>;
  /** Ends the session on the node (DELETE) and closes the socket. */
  close(): Promise<void>;
}

/** The app's side: opens a session on the node and waits for a wallet. */
export async function connectApp(opts: ConnectAppOptions): Promise<ConnectApp> {
  const f = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const base = opts.url.replace(/\/+$/, '');
  const keys = opts.keyPair ?? connectKeyPair();
  const sid = connectSid(keys.publicKey);
  const res = await f(`${base}/v1/connect/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(opts.node === undefined ? { sid } : { sid, node: opts.node }),
  });
  const body = (await res.json()) as { wallet_uri: string; token_app: string; code?: string };
  if (res.status !== 201) throw new ConnectError('node', `opening the session: ${res.status} ${body.code}`);
  const ws = await openSocket(socketClass(opts.WebSocket), relaySocketUrl(base, sid, 'app'), body.token_app);
  let channel: ConnectChannel | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (m: ConnectMessage) => void; reject: (e: Error) => void }>();
  let paired!: { resolve: (w: { account: string }) => void; reject: (e: Error) => void };
  const wallet = new Promise<{ account: string }>((resolve, reject) => {
    paired = { resolve, reject };
  });
  wallet.catch(() => {});
  const fail = (e: Error) => {
    paired.reject(e);
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
    ws.close();
  };
  ws.onclose = () => fail(new ConnectError('closed', 'the relay socket closed'));
  ws.onmessage = (e) => {
    try {
      const frame = bytesOf(e.data);
      if (channel === undefined) {
        const walletKey = helloPublicKey(frame);
        if (walletKey === undefined)
          throw new ConnectError('frame_invalid', 'the first frame is not a hello');
        channel = new ConnectChannel('app', sid, keys, walletKey);
      }
      const m = channel.open(frame) as ConnectMessage;
      if (m.t === 'hello') paired.resolve({ account: m.account });
      else if (m.t === 'sign_result' || m.t === 'sign_rejected') {
        waiting.get(m.id)?.resolve(m);
        waiting.delete(m.id);
      }
    } catch (err) {
      fail(err as Error);
    }
  };
  return {
    sid,
    pairingUri: pairingUri(body.wallet_uri, keys.publicKey),
    wallet,
    async requestSignature(payload) {
      await wallet;
      const c = channel as ConnectChannel;
      const id = nextId++;
      const answer = new Promise<ConnectMessage>((resolve, reject) => waiting.set(id, { resolve, reject }));
      const bytes = encode(TransactionPayloadCodec, payload);
      ws.send(c.seal({ t: 'sign_request', id, payload: toBase64url(bytes) } satisfies ConnectMessage));
      const m = await answer;
      if (m.t !== 'sign_result')
        throw new ConnectError('rejected', `the wallet declined: ${(m as { reason: string }).reason}`);
      return encodeTransaction({ payload, signature: fromBase64url(m.signature) });
    },
    async close() {
      ws.onclose = null;
      ws.close();
      await f(`${base}/v1/connect/session/${sid}`, { method: 'DELETE' }).catch(() => undefined);
    },
  };
}

export interface PairWalletOptions {
  /** The wallet's account: it signs only transactions of this authority. */
  account: string;
  signer: Signer;
  /** Asked before each signature (show the transaction to the user); default: refuse all. */
  approve?: (payload: TransactionPayload) => boolean | Promise<boolean>;
  WebSocket?: WebSocketClass;
  keyPair?: ConnectKeyPair;
}

export interface ConnectWallet {
  readonly sid: string;
  /** The account the app announced on the relay is this wallet's (`hello` sent). */
  readonly account: string;
  /** Transactions signed so far (their payloads), in order. */
  readonly signed: readonly TransactionPayload[];
  /** Resolves when the relay socket closes (the app or the node ended the session, or `close()`). */
  readonly closed: Promise<void>;
  close(): void;
}

/** The wallet's side: reads the pairing URI, checks the app's key against the sid, answers hello. */
export async function pairWallet(uri: string, opts: PairWalletOptions): Promise<ConnectWallet> {
  const p = parsePairingUri(uri);
  const keys = opts.keyPair ?? connectKeyPair();
  const channel = new ConnectChannel('wallet', p.sid, keys, p.appPublicKey);
  const ws = await openSocket(socketClass(opts.WebSocket), relaySocketUrl(p.node, p.sid, 'wallet'), p.token);
  const signed: TransactionPayload[] = [];
  const closed = new Promise<void>((resolve) => {
    ws.onclose = () => resolve();
  });
  const answer = async (id: number, payloadText: string): Promise<ConnectMessage> => {
    const decoded = decode(TransactionPayloadCodec, fromBase64url(payloadText), DEFAULT_DECODE_LIMITS);
    if (!decoded.ok) return { t: 'sign_rejected', id, reason: 'not a transaction payload' };
    const payload = decoded.value;
    if (payload.authority !== opts.account) return { t: 'sign_rejected', id, reason: 'another authority' };
    if (!(await (opts.approve?.(payload) ?? false))) return { t: 'sign_rejected', id, reason: 'declined' };
    signed.push(payload);
    return { t: 'sign_result', id, signature: toBase64url(opts.signer.sign(payloadHash(payload))) };
  };
  // Answers go out in request order, each sealed with the next sequence number.
  let queue = Promise.resolve();
  ws.onmessage = (e) => {
    let m: ConnectMessage;
    try {
      m = channel.open(bytesOf(e.data)) as ConnectMessage;
    } catch {
      ws.close();
      return;
    }
    if (m.t !== 'sign_request') return;
    const { id, payload } = m;
    queue = queue.then(async () => ws.send(channel.seal(await answer(id, payload))));
  };
  ws.send(channel.hello(keys.publicKey, { t: 'hello', account: opts.account } satisfies ConnectMessage));
  return { sid: p.sid, account: opts.account, signed, closed, close: () => ws.close() };
}
