// The node's log at a terminal (`npm start` printed a JSON line per request). A served node
// with the defaults writes no per-request entries; `log.access = true` brings them back; `pretty`
// lines are readable text and `json` lines are JSON. stdout is captured while the node serves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatLogLine, usePrettyLogs } from '../../src/node/log-format.js';
import { startServedNode } from '../helpers/served.js';

async function servedLog(overrides: Record<string, unknown>): Promise<string[]> {
  const lines: string[] = [];
  const write = process.stdout.write;
  // The test runner reports through stdout in Buffers: those pass; the node's log lines are strings.
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    if (typeof chunk !== 'string') return write.call(process.stdout, chunk, ...rest);
    lines.push(...chunk.split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
  try {
    const t = await startServedNode({ 'log.level': 'info', ...overrides });
    try {
      for (let i = 0; i < 3; i++) await (await fetch(`${t.url}/status`)).text();
    } finally {
      await t.stopAll();
    }
  } finally {
    process.stdout.write = write;
  }
  return lines;
}

describe('node logs', () => {
  it('pretty by default on a terminal only, json when configured', () => {
    assert.equal(usePrettyLogs('auto', true), true);
    assert.equal(usePrettyLogs('auto', undefined), false);
    assert.equal(usePrettyLogs('json', true), false);
    assert.equal(usePrettyLogs('pretty', false), true);
  });

  it('formats a pino line as one readable line, with the request and error stack', () => {
    const line = JSON.stringify({
      level: 50,
      time: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
      pid: 1,
      hostname: 'h',
      reqId: 'req-1',
      req: { method: 'GET', url: '/status' },
      res: { statusCode: 500 },
      responseTime: 1.234,
      err: { stack: 'Error: boom\n    at x' },
      msg: 'request failed',
    });
    assert.equal(
      formatLogLine(line),
      '03:04:05.678 ERROR request failed GET /status 500 1.2 ms reqId=req-1\nError: boom\n    at x',
    );
    assert.equal(formatLogLine('not json'), 'not json');
  });

  it('writes no per-request entries unless log.access is on', async () => {
    const quiet = await servedLog({ 'log.format': 'json' });
    assert.ok(
      quiet.some((l) => l.includes('Server listening')),
      quiet.join('\n'),
    );
    assert.deepEqual(
      quiet.filter((l) => /incoming request|request completed/.test(l)),
      [],
    );
    const access = await servedLog({ 'log.format': 'json', 'log.access': true });
    const requests = access.filter((l) => /incoming request/.test(l));
    assert.equal(requests.length, 3, access.join('\n'));
    for (const l of access) assert.doesNotThrow(() => JSON.parse(l), l);
  });

  it('writes readable lines with log.format = "pretty"', async () => {
    const lines = await servedLog({ 'log.format': 'pretty', 'log.access': true });
    const listening = lines.find((l) => l.includes('Server listening'));
    assert.match(
      listening ?? '',
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}Server listening at http:\/\/127\.0\.0\.1:\d+$/,
    );
    assert.ok(
      lines.some((l) => /INFO {2}incoming request GET \/status reqId=/.test(l)) &&
        lines.some((l) => /INFO {2}request completed 200 [\d.]+ ms/.test(l)),
      lines.join('\n'),
    );
  });
});
