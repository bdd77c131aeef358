// The indexer and the exporter on a live network: 4 validator processes commit blocks under load while
// `torana index --pg` and `torana export --nats` (real processes) follow validator 0. Both are killed
// with SIGKILL while they write (behind the chain, with blocks and events still to write), more blocks
// commit, both restart. Then every block is in SQL exactly once (heights 1..tip contiguous, hashes and
// transaction counts equal to the chain's), every event is in the JetStream stream exactly once (ids
// strictly increasing, the stream's data events equal in number to the indexed events, block for block),
// and an indexer reading the same validator through a proxy that forges one certificate stops at it
// with nothing of that height written. Integration tier (scripts/test-tiers.json).

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type NatsConnection } from 'nats';
import { projectEvent } from '../../src/gateway/event-filter.js';
import { EventCodec } from '../../src/model/events.js';
import { decodeAnswer } from '../../src/sdk/answers.js';
import { forgingProxy } from '../helpers/forging-proxy.js';
import { type NatsServer, startNatsServer } from '../helpers/nats-server.js';
import { TestNetwork } from '../helpers/network.js';
import type { LoadGenerator } from '../helpers/network-load.js';
import { FAST_CONSENSUS, sleep, startLoad, waitUntil } from '../helpers/network-scenario.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { spawnCli } from '../helpers/run-cli.js';

/** Generous: 4 peers, PostgreSQL, NATS and two CLI processes share 2 loaded cores (not a timing bound). */
const WAIT_MS = 240_000;
const STREAM = 'NET';

/** The block height of an exported event (its body's `event`, the SSE data). */
const heightOf = (json: unknown): number | undefined =>
  projectEvent(decodeAnswer(EventCodec, json, 'event')).block_height;

interface Proc {
  child: ChildProcess;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function proc(args: string[]): Proc {
  const child = spawnCli(args);
  let err = '';
  child.stderr?.on('data', (d) => (err += d));
  child.stdout?.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  return { child, err: () => err, exited };
}

describe('indexer and exporter following a 4-validator network across kill -9', { timeout: 900_000 }, () => {
  let net: TestNetwork;
  let pgs: TestPostgres;
  let nats: NatsServer;
  let nc: NatsConnection;
  let load: LoadGenerator | undefined;
  const procs: Proc[] = [];

  const url = () => net.manifest.peers[0]!.gatewayUrl;
  const genesis = () => join(net.peer(0).dir, 'genesis.json');
  const indexer = (db: string, from = url()) => {
    const p = proc([
      'index',
      '--pg',
      pgs.conninfo(db),
      '--from',
      from,
      '--genesis',
      genesis(),
      // A checkpoint every 2 blocks: by the kill (height >= 5) the restart has one to resume from.
      '--checkpoint-blocks',
      '2',
    ]);
    procs.push(p);
    return p;
  };
  // One acknowledgement at a time: the exporter trails the chain, so a kill lands mid-stream.
  const exporter = () => {
    const p = proc([
      'export',
      '--nats',
      nats.url,
      '--from',
      url(),
      '--stream',
      STREAM,
      '--in-flight-max',
      '1',
    ]);
    procs.push(p);
    return p;
  };
  const indexedHeight = async (db: string) => {
    const rows = await pgs
      .query<{ height: string }>('SELECT height FROM indexer_state', [], db)
      .catch(() => []);
    return rows[0] === undefined ? 0 : Number(rows[0].height);
  };
  const streamInfo = async () => {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(STREAM).catch(() => undefined);
    if (info === undefined || info.state.messages === 0) return { messages: 0, lastId: 0, height: 0 };
    const m = await jsm.streams.getMessage(STREAM, { seq: info.state.last_seq });
    const body = m.json() as { id: number; event: unknown };
    return { messages: info.state.messages, lastId: body.id, height: heightOf(body.event) };
  };
  const nodeHeight = async () => (await net.heights([0]))[0] ?? 0;
  const alive = (p: Proc, what: string) =>
    assert.ok(p.child.exitCode === null && p.child.signalCode === null, `${what} exited:\n${p.err()}`);

  before(async () => {
    [pgs, nats] = await Promise.all([startPostgres(), startNatsServer()]);
    await pgs.createDatabase('idx');
    await pgs.createDatabase('forged');
    nc = await connect({ servers: nats.url });
    net = await TestNetwork.create({ validators: 4, config: FAST_CONSENSUS });
    await net.start();
  });
  after(async () => {
    await load?.stop().catch(() => undefined);
    for (const p of procs)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await nc?.close();
    await net?.stop();
    await nats?.stop();
    await pgs?.stop();
  });

  it('every block once in SQL and every event once in JetStream after both were killed mid-write', async () => {
    load = await startLoad(net, { ratePerSecond: 15 });
    let idx = indexer('idx');
    let exp = exporter();
    // Both killed while they write: each has written something and is behind the chain.
    let killed: { height: number; node: number; lastId: number } | undefined;
    await waitUntil('the indexer and the exporter to write and trail the chain', WAIT_MS, async () => {
      alive(idx, 'the indexer');
      alive(exp, 'the exporter');
      const [h, top, s] = await Promise.all([indexedHeight('idx'), nodeHeight(), streamInfo()]);
      if (h < 5 || s.messages < 20 || h >= top) return false;
      idx.child.kill('SIGKILL');
      exp.child.kill('SIGKILL');
      killed = { height: h, node: top, lastId: s.lastId };
      return true;
    });
    assert.deepEqual(await idx.exited, { code: null, signal: 'SIGKILL' });
    assert.deepEqual(await exp.exited, { code: null, signal: 'SIGKILL' });
    const atKill = { height: await indexedHeight('idx'), lastId: (await streamInfo()).lastId };
    // More blocks while neither runs, then both restarted.
    const gapFrom = await nodeHeight();
    await waitUntil(
      'more blocks while the followers are down',
      WAIT_MS,
      async () => (await nodeHeight()) >= gapFrom + 3,
    );
    idx = indexer('idx');
    exp = exporter();
    await sleep(3000);
    const report = await load.stop();
    load = undefined;
    assert.ok(report.accepted > 0, JSON.stringify(report));
    // The chain settles; both followers reach its tip.
    let tip = 0;
    await waitUntil('the chain to settle', WAIT_MS, async () => {
      const h = await nodeHeight();
      const settled = h === tip;
      tip = h;
      if (!settled) await sleep(2000);
      return settled;
    });
    await waitUntil('the indexer to reach the tip', WAIT_MS, async () => {
      alive(idx, 'the indexer');
      return (await indexedHeight('idx')) === tip;
    });
    // The exporter is done once the stream's last message is of the tip's block and nothing more comes.
    let seen = -1;
    await waitUntil('the exporter to reach the tip', WAIT_MS, async () => {
      alive(exp, 'the exporter');
      const s = await streamInfo();
      const done = s.height === tip && s.messages === seen;
      seen = s.messages;
      if (!done) await sleep(1000);
      return done;
    });

    // SQL: heights 1..tip once each, hashes and transaction counts equal to the chain's.
    const blocks = await pgs.query<{ height: string; hash: string; n: number }>(
      `SELECT height, encode(hash, 'hex') AS hash, transaction_count AS n FROM blocks ORDER BY height`,
      [],
      'idx',
    );
    assert.deepEqual(
      blocks.map((b) => Number(b.height)),
      Array.from({ length: tip }, (_, i) => i + 1),
      'heights 1..tip, each once',
    );
    const chain: { hash: string; transactions: { hash: string }[] }[] = [];
    for (let h = 1; h <= tip; h++) chain.push(await net.peer(0).getJson(`/v1/explorer/blocks/${h}`));
    assert.deepEqual(
      blocks.map((b) => [b.hash, b.n]),
      chain.map((b) => [b.hash, b.transactions.length]),
    );
    const [counts] = await pgs.query<{ txs: number; distinct_txs: number; events: number }>(
      `SELECT (SELECT count(*)::int FROM transactions) AS txs, (SELECT count(DISTINCT hash)::int FROM transactions) AS distinct_txs,
              (SELECT count(*)::int FROM events) AS events`,
      [],
      'idx',
    );
    const chainTxs = chain.reduce((n, b) => n + b.transactions.length, 0);
    assert.deepEqual([counts!.txs, counts!.distinct_txs], [chainTxs, chainTxs]);

    // JetStream: every message once, in id order; its data events are the indexed events, block by block.
    // Read until the consumer has delivered every message the stream holds (a fetch may end empty early
    // on a loaded machine).
    const held = (await streamInfo()).messages;
    const consumer = await nc.jetstream().consumers.get(STREAM);
    const read: { id: number; kind: string; height: number | undefined }[] = [];
    const readUntil = Date.now() + WAIT_MS;
    while (read.length < held) {
      assert.ok(Date.now() < readUntil, `read ${read.length} of ${held} messages`);
      const batch = await consumer.fetch({ max_messages: 1000, expires: 2000 });
      for await (const m of batch) {
        const body = m.json() as { id: number; event: unknown };
        read.push({ id: body.id, kind: m.subject.split('.')[3]!, height: heightOf(body.event) });
      }
    }
    assert.equal(read.length, held);
    const ids = read.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
    assert.ok(
      ids.every((id, i) => i === 0 || id > ids[i - 1]!),
      'ids strictly increasing',
    );
    const perHeight = new Map<number, number>();
    for (const r of read)
      if (r.kind === 'data') perHeight.set(r.height!, (perHeight.get(r.height!) ?? 0) + 1);
    const sqlPerHeight = await pgs.query<{ height: string; n: number }>(
      'SELECT height, count(*)::int AS n FROM events GROUP BY height ORDER BY height',
      [],
      'idx',
    );
    assert.deepEqual(
      [...perHeight].sort(([a], [b]) => a - b),
      sqlPerHeight.map((r) => [Number(r.height), r.n]),
      'the data events of each block: in JetStream as in SQL',
    );
    const resumed = /stream NET holds events up to (\d+); resuming after it/.exec(exp.err());
    assert.ok(resumed && Number(resumed[1]) === atKill.lastId, exp.err());
    assert.match(idx.err(), /state checkpoint at \d+ \(state root checked\)/);
    process.stdout.write(
      `testnet tip ${tip}: indexer killed at ${killed!.height} (node ${killed!.node}), exporter at event ${killed!.lastId}; ` +
        `${blocks.length} blocks, ${chainTxs} transactions, ${counts!.events} events in SQL; ${read.length} messages in JetStream; ` +
        `${report.accepted} transactions accepted\n`,
    );
    assert.ok(atKill.height < tip && atKill.lastId < ids.at(-1)!, 'both were behind when killed');
    idx.child.kill('SIGTERM');
    exp.child.kill('SIGTERM');
    assert.deepEqual(await idx.exited, { code: 0, signal: null }, idx.err());
    assert.deepEqual(await exp.exited, { code: 0, signal: null }, exp.err());
  });

  it('an indexer following the same validator through a forging proxy stops at the forged block', async () => {
    const forged = 3;
    const proxy = await forgingProxy(url(), forged);
    try {
      const p = indexer('forged', proxy.url);
      const exit = await Promise.race([
        p.exited,
        waitUntil(
          'the forging indexer to exit',
          WAIT_MS,
          async () => (await indexedHeight('forged')) >= forged,
        ).then(() => 'indexed the forged block' as const),
      ]);
      assert.deepEqual(exit, { code: 1, signal: null }, p.err());
      assert.match(
        p.err(),
        new RegExp(`\\[index_certificate_invalid\\].*block ${forged}: its certificate fails`),
      );
      assert.equal(await indexedHeight('forged'), forged - 1);
      const [n] = await pgs.query<{ blocks: number; top: number }>(
        'SELECT count(*)::int AS blocks, max(height)::int AS top FROM blocks',
        [],
        'forged',
      );
      assert.deepEqual(n, { blocks: forged - 1, top: forged - 1 });
    } finally {
      await proxy.close();
    }
  });
});
