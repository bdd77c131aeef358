// `torana index --pg` end to end (docs/indexer.md): a served node commits transfers (some rejected), the
// indexer runs as a real child process against a PostgreSQL of the test's own (test/helpers/postgres.ts)
// and catches up; its SQL answers equal the node's; a kill -9 mid-run and a restart leave every block
// exactly once; a proxy that forges one block's certificate stops it with nothing written for that height.

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { numeric } from '../../src/model/numeric.js';
import { signRequest } from '../../src/sdk/signed-request.js';
import { forgingProxy } from '../helpers/forging-proxy.js';
import { run } from '../helpers/node.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { spawnCli } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { newAccount, type TestAccount } from '../helpers/tx.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
type J = any;
const meta = () => new Map();
const alice = newAccount('wonderland', 11);
const bob = newAccount('wonderland', 12);
const carol = newAccount('wonderland', 13);
const rose = 'rose#wonderland';
const roseOf = (a: TestAccount) => `${rose}#${a.id}`;
const WAIT_MS = 180_000;
/** A state checkpoint every 4 blocks: a restart re-executes at most 3 blocks (never from block 1). */
const CHECKPOINT_BLOCKS = 4;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = WAIT_MS): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('torana index --pg', { timeout: 600_000 }, () => {
  let pgs: TestPostgres;
  let t: ServedTestNode;
  const statuses: { hash: string; code: string | undefined }[] = [];
  let indexer: ChildProcess | undefined;
  let indexerErr = '';

  const transfer = async (from: TestAccount, to: TestAccount, amount: string) => {
    const r = await run(t, from, [
      { kind: 'TransferAsset', source: roseOf(from), destination: to.id, amount: numeric(amount) },
    ]);
    statuses.push({ hash: r.hash, code: r.status.kind === 'Rejected' ? r.status.reason.code : undefined });
    return r;
  };
  const genesis = () => join(t.dir, 'genesis.json');
  const row = async (sql: string, params: unknown[], db: string): Promise<J> =>
    (await pgs.query(sql, params, db))[0];
  const startIndexer = (db: string, from = t.url) => {
    indexerErr = '';
    const child = spawnCli([
      'index',
      '--pg',
      pgs.conninfo(db),
      '--from',
      from,
      '--genesis',
      genesis(),
      '--checkpoint-blocks',
      String(CHECKPOINT_BLOCKS),
    ]);
    child.stderr?.on('data', (d) => (indexerErr += d));
    return child;
  };
  const indexedHeight = async (db: string) => {
    const rows = await pgs
      .query<{ height: string }>('SELECT height FROM indexer_state', [], db)
      .catch(() => []);
    return rows[0] === undefined ? 0 : Number(rows[0].height);
  };
  const caughtUp = (db: string) =>
    waitFor("the indexer to reach the node's height", async () => {
      // An indexer that stopped will not catch up: its exit and stderr say why.
      const exit = indexer?.exitCode ?? indexer?.signalCode;
      if (exit !== null && exit !== undefined) throw new Error(`the indexer exited (${exit}): ${indexerErr}`);
      const h = await indexedHeight(db);
      return h >= t.node.ledger.height() && h > 0 ? h : undefined;
    });

  before(async () => {
    // The server and the node start side by side (neither needs the other until the indexer runs).
    await Promise.all([
      (async () => {
        pgs = await startPostgres();
        await pgs.createDatabase('idx');
        await pgs.createDatabase('forged');
      })(),
      (async () => {
        t = await startServedNode();
      })(),
    ]);
    const setup = await run(t, t.admin, [
      { kind: 'RegisterDomain', id: 'wonderland', metadata: meta() },
      { kind: 'RegisterAccount', id: alice.id, metadata: meta() },
      { kind: 'RegisterAccount', id: bob.id, metadata: meta() },
      { kind: 'RegisterAccount', id: carol.id, metadata: meta() },
      {
        kind: 'RegisterAssetDefinition',
        id: rose,
        scale: 2,
        mintable: { kind: 'Infinitely' },
        metadata: meta(),
      },
      { kind: 'MintAsset', asset: roseOf(alice), amount: numeric('100.50') },
      { kind: 'MintAsset', asset: roseOf(carol), amount: numeric('3') },
    ]);
    assert.equal(setup.status.kind, 'Committed', JSON.stringify(setup.status));
    assert.equal((await transfer(alice, bob, '25.25')).status.kind, 'Committed');
    assert.equal((await transfer(bob, carol, '0.25')).status.kind, 'Committed');
    assert.equal((await transfer(alice, bob, '1000')).status.kind, 'Rejected');
    assert.equal((await transfer(carol, alice, '50')).status.kind, 'Rejected');
    assert.equal((await transfer(bob, alice, '5')).status.kind, 'Committed');
  });
  after(async () => {
    indexer?.kill('SIGKILL');
    await t?.stopAll();
    await pgs?.stop();
  });

  it('catches up, and its SQL answers equal the node’s', async () => {
    indexer = startIndexer('idx');
    const height = await caughtUp('idx');
    assert.equal(height, t.node.ledger.height());
    // Balances: the definition's holders as the node lists them.
    const res = await fetch(`${t.url}/v1/assets/definitions/${encodeURIComponent(rose)}/holders`);
    const holders = ((await res.json()) as J).items as J[];
    const node = Object.fromEntries(holders.map((a) => [a.account, a.value]));
    const sql = await pgs.query<{ account: string; amount: string }>(
      'SELECT account, amount::text FROM balances WHERE definition = $1',
      [rose],
      'idx',
    );
    assert.deepEqual(Object.fromEntries(sql.map((r) => [r.account, r.amount])), node);
    assert.deepEqual(node, { [alice.id]: '80.25', [bob.id]: '20.00', [carol.id]: '3.25' });
    const summary = await row(
      'SELECT holders, total::text FROM asset_holders WHERE definition = $1',
      [rose],
      'idx',
    );
    assert.deepEqual(summary, { holders: 3, total: '103.50' });
    // A holder's history: bob's own view of the transactions that moved his rose (signed request).
    const url = `/v1/transactions/history?asset_id=${encodeURIComponent(roseOf(bob))}&status=ok`;
    const headers = signRequest({ method: 'GET', url, account: bob.id, signer: bob.key });
    const own = (await (await fetch(t.url + url, { headers })).json()) as J;
    const history = await pgs.query<{ hash: string; delta: string; balance: string }>(
      `SELECT encode(tx_hash, 'hex') AS hash, delta::text, balance::text FROM balance_changes bc
         JOIN events e USING (height, source, position)
        WHERE bc.account = $1 AND bc.definition = $2 ORDER BY height DESC, source DESC, position DESC`,
      [bob.id, rose],
      'idx',
    );
    assert.deepEqual(
      history.map((r) => r.hash),
      own.items.map((x: J) => x.hash),
    );
    assert.deepEqual(
      history.map((r) => [r.delta, r.balance]),
      [
        ['-5.00', '20.00'],
        ['-0.25', '25.00'],
        ['25.25', '25.25'],
      ],
    );
    // Failed transactions by reason: the node's own verdicts when they committed.
    const failed = await pgs.query<{ code: string; hashes: string[] }>(
      `SELECT rejection_code AS code, array_agg(encode(tx_hash, 'hex') ORDER BY height) AS hashes
         FROM results WHERE status = 'Rejected' GROUP BY rejection_code ORDER BY rejection_code`,
      [],
      'idx',
    );
    const byCode = new Map<string, string[]>();
    for (const s of statuses)
      if (s.code !== undefined) byCode.set(s.code, [...(byCode.get(s.code) ?? []), s.hash]);
    assert.ok(byCode.size > 0);
    assert.deepEqual(
      failed.map((r) => [r.code, r.hashes]),
      [...byCode].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    // Every committed transaction and account is there, once.
    const counts = await row(
      `SELECT (SELECT count(*)::int FROM transactions) AS txs, (SELECT sum(transaction_count)::int FROM blocks) AS declared,
              (SELECT count(*)::int FROM accounts WHERE deleted_height IS NULL) AS accounts`,
      [],
      'idx',
    );
    assert.equal(counts.txs, counts.declared);
    assert.equal(counts.accounts, t.node.ledger.state.listAccounts().length);
    const ins = await row(
      `SELECT body->>'amount' AS amount FROM instructions i JOIN results r ON r.height = i.height AND r.position = i.tx_position
        WHERE i.kind = 'TransferAsset' AND r.status = 'Committed' ORDER BY i.height LIMIT 1`,
      [],
      'idx',
    );
    assert.equal(ins.amount, '25.25');
  });

  it('a kill -9 mid-run and a restart leave every block exactly once', async () => {
    assert.ok(indexer !== undefined);
    const start = await indexedHeight('idx');
    // Blocks keep committing while the indexer tails them; it is killed once it has written a few.
    let killedAt = 0;
    for (let i = 0; i < 24; i++) {
      await transfer(i % 2 === 0 ? alice : bob, i % 2 === 0 ? bob : alice, '0.01');
      if (killedAt === 0 && (await indexedHeight('idx')) >= start + 4) {
        indexer.kill('SIGKILL');
        killedAt = await indexedHeight('idx');
      }
    }
    if (killedAt === 0) {
      indexer.kill('SIGKILL');
      killedAt = await indexedHeight('idx');
    }
    await new Promise((r) =>
      indexer!.exitCode !== null || indexer!.signalCode !== null ? r(null) : indexer!.once('exit', r),
    );
    assert.ok(killedAt < t.node.ledger.height(), `killed at ${killedAt}, node at ${t.node.ledger.height()}`);
    indexer = startIndexer('idx');
    const height = await caughtUp('idx');
    // Resumed from the state checkpoint (state root checked), re-executing only the blocks after it.
    const resumed =
      /state checkpoint at (\d+) \(state root checked\), (?:re-executing (\d+)\.\.(\d+)|indexing from (\d+))/.exec(
        indexerErr,
      );
    assert.ok(resumed, indexerErr);
    const checkpoint = Number(resumed[1]);
    process.stdout.write(
      `indexer killed at height ${killedAt}, resumed from its checkpoint at ${checkpoint} to ${height}\n`,
    );
    assert.ok(
      checkpoint > 0 && checkpoint <= killedAt && killedAt - checkpoint < CHECKPOINT_BLOCKS,
      resumed[0],
    );
    if (checkpoint < killedAt) {
      assert.deepEqual([Number(resumed[2]), Number(resumed[3])], [checkpoint + 1, killedAt]);
      assert.match(
        indexerErr,
        new RegExp(`state brought forward to height ${killedAt}: indexing from ${killedAt + 1}`),
      );
    } else assert.equal(Number(resumed[4]), killedAt + 1);
    assert.doesNotMatch(indexerErr, /from block 1/);
    const dupes = await pgs.query(
      'SELECT height, count(*) FROM blocks GROUP BY height HAVING count(*) > 1',
      [],
      'idx',
    );
    assert.deepEqual(dupes, []);
    const span = await row(
      'SELECT count(*)::int AS n, min(height)::int AS lo, max(height)::int AS hi FROM blocks',
      [],
      'idx',
    );
    assert.deepEqual(span, { n: height, lo: 1, hi: height });
    const txs = await row(
      `SELECT (SELECT count(*)::int FROM transactions) AS n, (SELECT count(DISTINCT hash)::int FROM transactions) AS distinct_n,
              (SELECT sum(transaction_count)::int FROM blocks) AS declared`,
      [],
      'idx',
    );
    assert.equal(txs.n, txs.declared);
    assert.equal(txs.distinct_n, txs.n);
    const sql = await pgs.query<{ asset_id: string; amount: string }>(
      'SELECT asset_id, amount::text FROM balances ORDER BY asset_id',
      [],
      'idx',
    );
    const state = t.node.ledger.state.listAssets().map((a) => ({ asset_id: a.id, amount: a.value }));
    assert.deepEqual(
      sql.map((r) => [r.asset_id, r.amount]),
      state.map((a) => [a.asset_id, `${numericText(a.amount)}`]).sort(([a], [b]) => (a! < b! ? -1 : 1)),
    );
    indexer.kill('SIGINT');
  });

  it('refuses a block whose certificate was forged, with nothing written for its height', async () => {
    const forgedHeight = 4;
    const proxy = await forgingProxy(t.url, forgedHeight);
    try {
      // An indexer that accepted the forged block would tail forever: it is stopped as soon as the
      // forged height is indexed, and the test fails on its exit code.
      const child = spawnCli([
        'index',
        '--pg',
        pgs.conninfo('forged'),
        '--from',
        proxy.url,
        '--genesis',
        genesis(),
      ]);
      let err = '';
      child.stderr?.on('data', (d) => (err += d));
      let exitCode: number | null | undefined;
      const exited = new Promise<void>((r) =>
        child.once('close', (c) => {
          exitCode = c;
          r();
        }),
      );
      await waitFor('the indexer to exit or index the forged height', async () =>
        exitCode !== undefined || (await indexedHeight('forged')) >= forgedHeight ? true : undefined,
      );
      const stopped = exitCode === undefined;
      if (stopped) {
        child.kill('SIGKILL');
        await exited;
      }
      const r = { code: stopped ? 'running: it indexed the forged block' : exitCode, err };
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, /\[index_certificate_invalid\]/);
      assert.match(r.err, new RegExp(`block ${forgedHeight}: its certificate fails`));
      assert.equal(await indexedHeight('forged'), forgedHeight - 1);
      const n = await row(
        `SELECT (SELECT count(*)::int FROM blocks WHERE height >= $1) AS blocks,
                (SELECT count(*)::int FROM transactions WHERE height >= $1) AS txs,
                (SELECT count(*)::int FROM events WHERE height >= $1) AS events,
                (SELECT max(height)::int FROM blocks) AS top`,
        [forgedHeight],
        'forged',
      );
      assert.deepEqual(n, { blocks: 0, txs: 0, events: 0, top: forgedHeight - 1 });
    } finally {
      await proxy.close();
    }
  });
});

function numericText(n: { mantissa: bigint; scale: number }): string {
  if (n.scale === 0) return n.mantissa.toString();
  const d = n.mantissa.toString().padStart(n.scale + 1, '0');
  return `${d.slice(0, -n.scale)}.${d.slice(-n.scale)}`;
}
