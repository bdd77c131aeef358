// `npm run test:browser` (encrypted signalling end to end in a real browser). Two
// headless Chromium pages load the esbuild-bundled SDK. The host page creates a transparent call and
// publishes a WebRTC offer sealed to the participant (non-trickle: ICE gathering complete, loopback host
// candidates); the participant page fetches and opens it, answers, and joins with JoinConference carrying
// the answer sealed to the host; the host page receives the committed answer on the signals SSE stream,
// opens it and sets it as remote description. A data channel opens and a message goes each way. The
// node's stored offer and answer, and the committed transaction, never hold the SDP in plaintext.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { encode } from '../../src/codec/frame.js';
import { parseAccountId } from '../../src/model/ids.js';
import { SignedTransactionCodec } from '../../src/model/transaction.js';
import { accountOf, generateKeyPair, instructions, ToranaClient } from '../../src/sdk/index.js';
import { CHROMIUM, pageServer, sdkBundle } from '../helpers/browser-sdk.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  // Host candidates on the loopback interface, not mDNS names (the machine may have no other network).
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];

/**
 * Page-side code, plain JavaScript run as a module script in each page (a string, so that the test
 * runner's transform never rewrites it: functions it compiles would call helpers the page lacks).
 */
const PAGE_SCRIPT = `
const gathered = (pc) => new Promise((resolve) => {
  if (pc.iceGatheringState === 'complete') return resolve();
  pc.addEventListener('icegatheringstatechange', () => { if (pc.iceGatheringState === 'complete') resolve(); });
});
const page = {};
page.received = new Promise((resolve) => { page.onMessage = resolve; });
page.setup = async (i) => {
  page.sdk = await import(i.sdkUrl);
  page.signer = page.sdk.importKeyPair(i.key);
  page.client = new page.sdk.ToranaClient({ url: i.url, account: i.account, signer: page.signer });
};
page.submit = async (ix) => {
  const tx = (await page.client.transaction()).add(ix).sign(page.signer);
  return page.client.submitAndWait(tx, { timeoutMs: 20000 });
};
// Host: create the call, make the offer (ICE gathering complete), seal it to the participant and post it.
page.hostOffer = async ({ callId, guest }) => {
  await page.submit(page.sdk.instructions.createConference(callId, {
    policy: 'authenticated', title: 'stand-up', scheduledStartMs: Date.now(), maxParticipants: 4,
    gasRatePerMinute: '0', billingAccount: page.client.opts.account,
  }));
  const pc = new RTCPeerConnection({ iceServers: [] });
  page.pc = pc;
  page.channel = pc.createDataChannel('chat');
  page.channel.onmessage = (e) => page.onMessage(String(e.data));
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  const offer = pc.localDescription;
  await page.client.publishOffers(callId, [{ to: guest, description: JSON.stringify({ type: offer.type, sdp: offer.sdp }) }]);
  return offer.sdp;
};
// Host: the first answer on the signals stream, opened, as remote description; then a message each way.
page.hostAnswer = async ({ callId }) => {
  const stop = new AbortController();
  let answer;
  for await (const s of page.client.watchSignals(callId, { signal: stop.signal })) {
    if (s.kind !== 'answer') continue;
    answer = JSON.parse(await page.client.openAnswer(s));
    stop.abort();
    break;
  }
  await page.pc.setRemoteDescription(answer);
  if (page.channel.readyState !== 'open') await new Promise((r) => page.channel.addEventListener('open', r));
  page.channel.send('hello from the host');
  return { got: await page.received, answerSdp: answer.sdp };
};
// Participant: fetch and open the offer, answer, join with the answer sealed to the host.
page.participantJoin = async ({ callId, host }) => {
  const { description } = await page.client.fetchOffer(callId);
  const pc = new RTCPeerConnection({ iceServers: [] });
  page.pc = pc;
  pc.ondatachannel = (e) => {
    e.channel.onmessage = (m) => page.onMessage(String(m.data));
    const hello = () => e.channel.send('hello from the participant');
    if (e.channel.readyState === 'open') hello(); else e.channel.onopen = hello;
  };
  await pc.setRemoteDescription(JSON.parse(description));
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  const answer = pc.localDescription;
  await page.submit(await page.client.joinWithAnswer(callId, host, JSON.stringify({ type: answer.type, sdp: answer.sdp })));
  return page.received;
};
window.torana = page;
`;

/** Calls `window.torana[fn](args)` in the page. */
function call<T>(page: Page, fn: string, args: unknown): Promise<T> {
  return page.evaluate(
    // biome-ignore lint/suspicious/noExplicitAny: the page's own global, set by PAGE_SCRIPT.
    ([f, a]) => (globalThis as any).torana[f as string](a),
    [fn, args] as const,
  ) as Promise<T>;
}

describe('encrypted conference signalling between two Chromium pages', () => {
  let origin: Awaited<ReturnType<typeof pageServer>>;
  let node: ServedTestNode;
  let browser: Browser;
  const guestKey = generateKeyPair();
  let domain: string;
  let guest: string;
  let callId: string;

  before(async () => {
    origin = await pageServer(await sdkBundle());
    node = await startServedNode({ 'gateway.cors_origins': [origin.origin] });
    domain = parseAccountId(node.admin.id)!.domain;
    guest = accountOf(guestKey, domain);
    callId = `${domain}:standup`;
    await run(node, node.admin, [instructions.registerAccount(guest)]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await node?.stopAll();
    origin?.server.close();
  });

  async function openPage(account: string, key: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto(origin.origin);
    await page.addScriptTag({ content: PAGE_SCRIPT, type: 'module' });
    await page.waitForFunction(() => 'torana' in globalThis);
    await call(page, 'setup', { sdkUrl: `${origin.origin}/sdk.js`, url: node.url, account, key });
    return page;
  }

  it('exchanges a sealed offer and answer through the node and opens a data channel both ways', async () => {
    const host = await openPage(node.admin.id, node.admin.key.privateKeyText());
    const participant = await openPage(guest, guestKey.privateKeyText());

    const offerSdp = await call<string>(host, 'hostOffer', { callId, guest });
    assert.match(offerSdp, /a=candidate:/, 'the offer carries gathered candidates (non-trickle)');
    // The host waits on the signals stream; the participant fetches, answers and joins meanwhile.
    const [hostResult, participantGot] = await Promise.all([
      call<{ got: string; answerSdp: string }>(host, 'hostAnswer', { callId }),
      call<string>(participant, 'participantJoin', { callId, host: node.admin.id }),
    ]);
    assert.equal(hostResult.got, 'hello from the participant');
    assert.equal(participantGot, 'hello from the host');

    // What the node holds: envelopes and a committed transaction without the SDP text.
    const client = new ToranaClient({ url: node.url, account: node.admin.id, signer: node.admin.key });
    const { items } = await client.pollSignals(callId);
    assert.deepEqual(items.map((s) => s.kind).sort(), ['answer', 'offer']);
    const secrets = [offerSdp, hostResult.answerSdp].flatMap((sdp) => [
      ...sdp.matchAll(/^a=(?:ice-ufrag|ice-pwd|fingerprint):(.+)$/gm),
    ]);
    assert.ok(secrets.length >= 6, 'both SDPs hold ufrag, pwd and fingerprint');
    const answer = items.find((s) => s.kind === 'answer')!;
    const block = await node.node.ledger.block(answer.height!);
    const stored = [
      ...items.map((s) => Buffer.from(s.envelope, 'base64')),
      ...block!.transactions.map((tx) => Buffer.from(encode(SignedTransactionCodec, tx))),
    ];
    for (const bytes of stored)
      for (const m of secrets) assert.equal(bytes.indexOf(m[1]!.trim()), -1, `plaintext ${m[0]} on the node`);
    await host.close();
    await participant.close();
  });
});
