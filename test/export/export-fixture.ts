// Shared by the export tests: a nats-server with JetStream, a served node, a NATS connection for the
// consumer, and exporters started as real `torana export` processes.

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { connect, type JsMsg, type NatsConnection } from 'nats';
import type { EventEnvelope } from '../../src/model/events.js';
import { eventIdPlace } from '../../src/pipeline/event-id.js';
import { type NatsServer, startNatsServer } from '../helpers/nats-server.js';
import { spawnCli } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

/** How long a wait may last on a loaded machine before the test gives up (not a timing assertion). */
export const WAIT_MS = 120_000;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Exporter {
  child: ChildProcess;
  err(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ExportFixture {
  t: ServedTestNode;
  nats: NatsServer;
  nc: NatsConnection;
  /** A `torana export --nats … --from <node>` process with `args` added. */
  exporter(args: string[]): Exporter;
  /** The node's committed events so far (its bus history without the pending notifications). */
  committed(): EventEnvelope[];
  /** Every message of `stream` under `filter`, read by an ordered consumer until it has no more pending. */
  readAll(stream: string, filter: string): Promise<JsMsg[]>;
  /** The event id of the stream's last message (0 when empty). */
  lastId(stream: string): Promise<number>;
  /** Waits until `stream` holds the node's last committed event; fails with the exporters' stderr. */
  caughtUp(stream: string, who: Exporter[]): Promise<void>;
  stop(): Promise<void>;
}

/** The event id in a message's body (`{"id", "event"}`). */
/** Waits until the exporter has its event stream open (its `export: following` line). */
export async function following(e: Exporter): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!e.err().includes('export: following')) {
    assert.ok(Date.now() < deadline && e.child.exitCode === null, `exporter not following:\n${e.err()}`);
    await sleep(50);
  }
}

export const idOf = (m: JsMsg): number => (m.json() as { id: number }).id;

/** `overrides`: node config (dotted keys of src/config/schema.ts). */
export async function startExportFixture(overrides: Record<string, unknown> = {}): Promise<ExportFixture> {
  // The server and the node start side by side: neither needs the other until an exporter runs.
  const [nats, t] = await Promise.all([startNatsServer(), startServedNode(overrides)]);
  const nc = await connect({ servers: nats.url });
  const started: Exporter[] = [];
  const f: ExportFixture = {
    t,
    nats,
    nc,
    exporter(args) {
      const child = spawnCli(['export', '--nats', nats.url, '--from', t.url, ...args]);
      let err = '';
      child.stderr?.on('data', (d) => (err += d));
      child.stdout?.resume();
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
        child.once('exit', (code, signal) => r({ code, signal })),
      );
      const e = { child, err: () => err, exited };
      started.push(e);
      return e;
    },
    committed: () =>
      (t.node.pipeline.events.since(0) as EventEnvelope[]).filter((e) => !eventIdPlace(e.id).pending),
    async readAll(stream, filter) {
      const consumer = await nc.jetstream().consumers.get(stream, { filterSubjects: filter });
      const out: JsMsg[] = [];
      // The consumer says how many messages it has not delivered yet: each fetch asks for exactly those
      // (it returns once they are in, not after its expiry), and the read ends when none is left.
      for (;;) {
        const pending = (await consumer.info()).num_pending;
        if (pending === 0) return out;
        const batch = await consumer.fetch({ max_messages: Math.min(pending, 500), expires: 5000 });
        let n = 0;
        for await (const m of batch) {
          out.push(m);
          n++;
        }
        if (n === 0) assert.fail(`stream ${stream} (${filter}): ${pending} messages pending, none delivered`);
      }
    },
    async lastId(stream) {
      const jsm = await nc.jetstreamManager();
      const info = await jsm.streams.info(stream).catch(() => undefined);
      if (info === undefined || info.state.messages === 0) return 0;
      const m = await jsm.streams.getMessage(stream, { seq: info.state.last_seq });
      return (m.json() as { id: number }).id;
    },
    async caughtUp(stream, who) {
      const target = f.committed().at(-1)!.id;
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const last = await f.lastId(stream);
        if (last === target) return;
        if (Date.now() > deadline)
          assert.fail(
            `stream ${stream} at event ${last}, node at ${target}:\n${who.map((e) => e.err()).join('\n')}`,
          );
        await sleep(100);
      }
    },
    async stop() {
      for (const e of started)
        if (e.child.exitCode === null && e.child.signalCode === null) e.child.kill('SIGKILL');
      await nc.close();
      await t.stopAll();
      await nats.stop();
    },
  };
  return f;
}
