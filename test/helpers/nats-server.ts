// Test helper: a NATS server with JetStream (Debian package nats-server) on a free loopback port, its
// store in a temporary directory, stopped and removed after. A machine without it fails the test with
// the package to install (.ci/run installs it), never a silent skip.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NatsServer {
  url: string;
  stop(): Promise<void>;
}

const MISSING =
  'nats-server not found on PATH: install the Debian package nats-server (apt-get install -y nats-server)';

export async function startNatsServer(): Promise<NatsServer> {
  const probe = spawnSync('nats-server', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined) throw new Error(MISSING);
  const dir = await mkdtemp(join(tmpdir(), 'torana-nats-'));
  // -p -1: a free port, printed on the "Listening for client connections" line.
  const child: ChildProcess = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', '-1', '-sd', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (d) => {
      log += d;
      const port = /Listening for client connections on 127\.0\.0\.1:(\d+)/.exec(log)?.[1];
      if (port !== undefined && log.includes('Server is ready')) resolve(`nats://127.0.0.1:${port}`);
    });
    child.on('exit', (code) =>
      reject(new Error(`nats-server exited with ${code} before it was ready:\n${log}`)),
    );
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
