// Abuse scenario: time triggers as free, endless work. (1) RegisterTrigger with `EveryMs: 1` (before:
// an idle chain made ~19 blocks/s for it) is refused `trigger_repeat_too_fast`; (2) a repeat faster than
// the block time that is already in the state (registered while BlockTimeMs was lower, as rows from
// before the rule are) wakes an idle chain at most once per block time; (3) one account registering
// trigger after trigger stops at TriggersPerAccountMax (`trigger_limit`). Everything goes through the
// gateway (the SDK over HTTP); block counts and block-log bytes are read from the node.

import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Instruction } from '../../src/model/instructions.js';
import { TRIGGERS_PER_ACCOUNT_DEFAULT } from '../../src/modules/triggers/model.js';
import { nodeFiles } from '../../src/node/files.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { TransactionRejectedError } from '../../src/sdk/errors.js';
import { BLOCKS_DIR } from '../../src/storage/segment-files.js';
import { startServedNode } from '../helpers/served.js';
import { figure, sleep } from './clients.js';

export interface TriggerAbuseSize {
  /** How long the idle chain is watched with a too-fast trigger in its state. */
  idleMs: number;
  /** Registrations one account tries (beyond TriggersPerAccountMax). */
  registrations: number;
}

const BLOCK_TIME_MS = 1000;
const log = (m: string): Instruction => ({ kind: 'Log', level: { kind: 'Info' }, message: m });
const trigger = (id: string, everyMs?: number): Instruction => ({
  kind: 'RegisterTrigger',
  id,
  due: { kind: 'Time', timeMs: 1 },
  ...(everyMs === undefined ? {} : { repeat: { kind: 'EveryMs', ms: everyMs } }),
  instructions: [log(id)],
});
const far = (id: string): Instruction => ({
  kind: 'RegisterTrigger',
  id,
  due: { kind: 'Time', timeMs: 4_000_000_000_000 },
  instructions: [log(id)],
});
const blockTime = (value: number): Instruction => ({
  kind: 'SetParameter',
  parameter: { kind: 'BlockTimeMs', value },
});

async function blockLogBytes(dir: string): Promise<number> {
  const blocks = join(nodeFiles(dir).data, BLOCKS_DIR);
  let total = 0;
  for (const name of await readdir(blocks)) total += (await stat(join(blocks, name))).size;
  return total;
}

export async function triggerAbuse(size: TriggerAbuseSize): Promise<void> {
  // Part (3) sends its registrations at once, each through submitAndWait (an SSE stream and a POST):
  // room for all of them from this one address.
  const t = await startServedNode({
    'streams.sse_clients_per_ip_max': 4 * size.registrations,
    'gateway.connections_per_ip_max': 8 * size.registrations,
  });
  const admin = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
  const send = async (instructions: Instruction[]): Promise<string> => {
    try {
      await admin.submitAndWait(await admin.build(instructions));
      return 'Committed';
    } catch (e) {
      if (e instanceof TransactionRejectedError) return e.code;
      throw e;
    }
  };
  try {
    assert.equal((await t.node.ledger.state.parameters()).blockTimeMs, BLOCK_TIME_MS);
    // (1) Refused at registration.
    const everyMs1 = await send([trigger('every-ms-1', 1)]);
    await send([{ kind: 'UnregisterTrigger', id: 'every-ms-1' }]); // on a build without the rule
    // (2) A 50 ms repeat registered while BlockTimeMs was 50, then BlockTimeMs back to 1000.
    const legacy = [await send([blockTime(50)]), await send([trigger('legacy', 50)])];
    legacy.push(await send([blockTime(BLOCK_TIME_MS)]));
    await sleep(BLOCK_TIME_MS); // the block of the last transaction is a block time behind
    const h0 = t.node.ledger.height();
    const b0 = await blockLogBytes(t.dir);
    await sleep(size.idleMs);
    const idleBlocks = t.node.ledger.height() - h0;
    const idleBytes = (await blockLogBytes(t.dir)) - b0;
    const removed = await send([{ kind: 'UnregisterTrigger', id: 'legacy' }]);
    // (3) One account registering trigger after trigger, all sent at once: the cap holds however many
    // of them one block executes (one by one, in block order), and no block time is waited per trigger.
    const outcomes = new Map<string, number>();
    const results = await Promise.all(
      Array.from({ length: size.registrations }, (_, i) => send([far(`flood-${i}`)])),
    );
    for (const r of results) outcomes.set(r, (outcomes.get(r) ?? 0) + 1);
    const allowed = Math.floor(size.idleMs / BLOCK_TIME_MS) + 2;
    figure('trigger abuse', {
      'RegisterTrigger EveryMs 1': everyMs1,
      'legacy 50 ms repeat (BlockTimeMs 1000)': `${legacy.join('/')}, idle ${size.idleMs} ms: ${idleBlocks} blocks (at most ${allowed}), ${idleBytes} bytes of block log`,
      'removed after': removed,
      [`${size.registrations} registrations from one account`]: [...outcomes]
        .map(([k, n]) => `${n} × ${k}`)
        .join(', '),
    });
    assert.equal(everyMs1, 'trigger_repeat_too_fast');
    assert.deepEqual(legacy, ['Committed', 'Committed', 'Committed']);
    assert.ok(idleBlocks >= 1, 'the trigger still runs on an idle chain');
    assert.ok(
      idleBlocks <= allowed,
      `${idleBlocks} blocks in ${size.idleMs} ms (block time ${BLOCK_TIME_MS})`,
    );
    assert.equal(removed, 'Committed');
    assert.equal(outcomes.get('Committed'), TRIGGERS_PER_ACCOUNT_DEFAULT);
    assert.equal(outcomes.get('trigger_limit'), size.registrations - TRIGGERS_PER_ACCOUNT_DEFAULT);
  } finally {
    await t.stopAll();
  }
}
