// SSE resumption across a node restart. Before the fix, event ids restarted with the
// process: after a restart, `Last-Event-ID: 3048` resumed at the new id 3049 and the client never saw the
// new events 1–3048. Now committed events carry ids derived from (height, position) (src/pipeline/
// event-id.ts). Through real sockets: a client reads every event of `before` commits, the node restarts,
// `after` more transactions commit while the client is away (more events than it had seen, so the old
// numbering would have skipped some), and the client resumes with its last id: it receives exactly the
// events the restarted node published, no gap, no repeat. A resume id
// from the middle of a block announced before the restart cannot be completed and answers `gone`.

import assert from 'node:assert/strict';
import { serveNode } from '../../src/node/serve.js';
import { appliedEventId } from '../../src/pipeline/event-id.js';
import { run } from '../helpers/node.js';
import { startServedNode } from '../helpers/served.js';
import { figure, gapOrDisorder, portOf, publishedIds, readingSse, waitFor } from './clients.js';
import { SSE_PATH } from './streams.js';

const log = (message: string) => ({ kind: 'Log' as const, level: { kind: 'Info' as const }, message });

export async function resumeAcrossRestart(size: { before: number; after: number }): Promise<void> {
  const t = await startServedNode();
  let served = t.served;
  try {
    const first = await readingSse(portOf(served.url), SSE_PATH);
    for (let i = 0; i < size.before; i++) await run(t, t.admin, [log(`before ${i}`)]);
    const lastBefore = t.node.pipeline.events.lastId();
    await waitFor('the first reader', () => first.ids.at(-1) === lastBefore, 20_000);
    first.close();
    const lastSeen = first.ids.at(-1)!;
    const heightBefore = t.node.ledger.height();

    await served.close();
    await t.restart();
    served = await serveNode(t.node, { dir: t.dir });
    const idAfterRestart = t.node.pipeline.events.lastId();
    const published = publishedIds(t.node);
    for (let i = 0; i < size.after; i++) await run(t, t.admin, [log(`after ${i}`)]);
    const last = t.node.pipeline.events.lastId();
    published.stop();
    const expected = published.between(lastSeen, last);

    const resumed = await readingSse(portOf(served.url), `${SSE_PATH}?last_event_id=${lastSeen}`);
    await waitFor('the resumed reader', () => resumed.ids.at(-1) === last, 20_000);
    resumed.close();
    // A client cut off in the middle of a block announced before the restart cannot be completed.
    const midBlock = first.ids.at(-3)!;
    const stale = await readingSse(portOf(served.url), `${SSE_PATH}?last_event_id=${midBlock}`);
    await waitFor('the stale reader', () => stale.endings.includes('gone'), 10_000);
    stale.close();

    const problem = gapOrDisorder(resumed.ids, expected);
    const overlap = resumed.ids.filter((id) => id <= lastSeen).length;
    figure('resume across a restart', {
      'events read before the restart': `${first.ids.length} (last id ${lastSeen}, height ${heightBefore})`,
      'last id after the restart': idAfterRestart,
      [`events published after the restart (${size.after} commits)`]: expected.length,
      'resumed reader received': `${resumed.ids.length}, ${problem ?? 'exactly those, in order'}`,
      'repeated from before the restart': overlap,
      'resume from the middle of an earlier block': stale.endings.join(),
    });
    assert.equal(lastSeen, appliedEventId(heightBefore), 'the last event of a block is its Block Applied');
    assert.equal(idAfterRestart, lastSeen, 'the restarted node continues from the same id');
    assert.ok(expected.length > first.ids.length, 'more events after the restart than before it');
    assert.equal(problem, undefined);
    assert.equal(overlap, 0);
    assert.deepEqual(
      resumed.endings.filter((e) => e !== 'closed'),
      [],
    );
    assert.ok(stale.endings.includes('gone'));
  } finally {
    await served.close();
    await t.cleanup();
  }
}
