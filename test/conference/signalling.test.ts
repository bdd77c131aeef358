// Signalling through a served node with the Node SDK (docs/conference.md "Signalling"): the host posts a
// sealed offer, the participant opens it and joins with a sealed answer, and the host receives exactly
// the committed answers (a rejected JoinConference offers nothing) by polling and on the SSE stream;
// EndConference clears the call's signals and refuses new offers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseAccountId } from '../../src/model/ids.js';
import {
  accountOf,
  generateKeyPair,
  type Instruction,
  instructions,
  isToranaApiError,
  type Signal,
  ToranaClient,
  TransactionRejectedError,
} from '../../src/sdk/index.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

describe('conference signalling on a served node', () => {
  let node: ServedTestNode;
  let host: ToranaClient;
  let guest: ToranaClient;
  let outsider: ToranaClient;
  let callId: string;
  const guestKey = generateKeyPair();
  const outsiderKey = generateKeyPair();

  before(async () => {
    node = await startServedNode();
    const domain = parseAccountId(node.admin.id)!.domain;
    const guestId = accountOf(guestKey, domain);
    const outsiderId = accountOf(outsiderKey, domain);
    await run(node, node.admin, [
      instructions.registerAccount(guestId),
      instructions.registerAccount(outsiderId),
    ]);
    host = new ToranaClient({ url: node.url, account: node.admin.id, signer: node.admin.key });
    guest = new ToranaClient({ url: node.url, account: guestId, signer: guestKey });
    outsider = new ToranaClient({ url: node.url, account: outsiderId, signer: outsiderKey });
    callId = `${domain}:weekly`;
  });
  after(() => node?.stopAll());

  async function submit(c: ToranaClient, ix: Instruction) {
    const signer = c.opts.signer!;
    const tx = (await c.transaction()).add(ix).sign(signer);
    return c.submitAndWait(tx, { timeoutMs: 20_000 });
  }

  it('offer out, committed answer back by polling and SSE; rejected joins offer nothing', async () => {
    await submit(
      host,
      instructions.createConference(callId, {
        title: 'weekly',
        scheduledStartMs: Date.now(),
        maxParticipants: 2,
        gasRatePerMinute: '0',
        billingAccount: node.admin.id,
      }),
    );
    const [posted] = await host.publishOffers(callId, [
      { to: guest.opts.account!, description: 'OFFER-SDP' },
    ]);
    assert.equal(posted!.kind, 'offer');
    const offer = await guest.fetchOffer(callId);
    assert.equal(offer.description, 'OFFER-SDP');
    await assert.rejects(
      outsider.fetchOffer(callId),
      (e) => isToranaApiError(e) && e.code === 'conference_signal_offer_not_found',
    );

    const stop = new AbortController();
    const streamed: Signal[] = [];
    const watching = (async () => {
      for await (const s of host.watchSignals(callId, { signal: stop.signal })) {
        streamed.push(s);
        if (s.kind === 'answer') stop.abort();
      }
    })();
    await submit(guest, await guest.joinWithAnswer(callId, node.admin.id, 'ANSWER-SDP'));
    // Joining twice is rejected by the ledger (conference_already_joined): its answer is never offered.
    await assert.rejects(
      submit(guest, await guest.joinWithAnswer(callId, node.admin.id, 'SECOND-ANSWER')),
      TransactionRejectedError,
    );
    await watching;
    assert.deepEqual(
      streamed.map((s) => s.kind),
      ['offer', 'answer'],
    );
    const answer = streamed[1]!;
    assert.equal(answer.from, guest.opts.account);
    assert.equal(await host.openAnswer(answer), 'ANSWER-SDP');
    const polled = await host.pollSignals(callId, posted!.id);
    assert.deepEqual(
      polled.items.map((s) => [s.kind, s.transactionHash]),
      [['answer', answer.transactionHash]],
    );
    await assert.rejects(outsider.openAnswer(answer), /signal_open_failed/);
  });

  it('EndConference clears the signals; an ended call takes no offers', async () => {
    await submit(host, instructions.endConference(callId));
    const deadline = Date.now() + 5_000;
    while ((await host.pollSignals(callId)).items.length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual((await host.pollSignals(callId)).items, []);
    await assert.rejects(
      host.publishOffers(callId, [{ to: guest.opts.account!, description: 'late' }]),
      (e) => isToranaApiError(e) && e.code === 'conference_signal_call_ended',
    );
  });
});
