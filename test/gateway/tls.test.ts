// HTTPS at the gateway (docs/operations.md "TLS"): a node given a certificate and key serves every
// route over TLS 1.2+ only, a client that trusts the certificate gets answers (the SDK's fetch, an SSE
// stream, `torana status` through NODE_EXTRA_CA_CERTS), one that does not is refused, and plain HTTP on
// the same port gets no answer. Certificates are made with Debian's openssl in a temporary directory.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { ROOT, tsEntryArgs } from '../helpers/ts-entry.js';

const work = mkdtempSync(join(tmpdir(), 'torana-tls-'));
const cert = join(work, 'cert.pem');
const key = join(work, 'key.pem');

function makeCert(): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
}

interface Answer {
  status: number;
  body: string;
}

function get(url: string, ca?: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { ...(ca === undefined ? {} : { ca }), headers, timeout: 30_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
        if (headers.accept === 'text/event-stream' && body.includes('\n\n')) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

describe('gateway over HTTPS', () => {
  let t: ServedTestNode;
  before(async () => {
    makeCert();
    t = await startServedNode({ 'gateway.tls_cert_file': cert, 'gateway.tls_key_file': key });
  });
  after(async () => {
    await t?.stopAll();
    rmSync(work, { recursive: true, force: true });
  });

  it('names an https:// URL and answers a client that trusts the certificate', async () => {
    assert.match(t.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const a = await get(`${t.url}/health`, readFileSync(cert));
    assert.equal(a.status, 200);
    assert.match(a.body, /"status"/);
  });

  it('streams server-sent events over TLS', async () => {
    const a = await get(`${t.url}/v1/events/sse`, readFileSync(cert), { accept: 'text/event-stream' });
    assert.equal(a.status, 200);
  });

  it('refuses a client that does not trust the certificate', async () => {
    await assert.rejects(get(`${t.url}/health`), /self[- ]signed|unable to verify|certificate/i);
  });

  it('gives plain HTTP on the same port no answer', async () => {
    const plain = t.url.replace(/^https:/, 'http:');
    const outcome = await get(`${plain}/health`).then(
      (a) => `status ${a.status}`,
      (e: Error) => `error ${e.message}`,
    );
    assert.ok(!outcome.startsWith('status 200'), outcome);
  });

  it('serves `torana status` with the certificate trusted through NODE_EXTRA_CA_CERTS', async () => {
    const child = spawn(
      process.execPath,
      [...tsEntryArgs('test/helpers/torana-cli.ts'), 'status', '--url', t.url, '--json'],
      { cwd: ROOT, env: { ...process.env, NODE_EXTRA_CA_CERTS: cert } },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    assert.equal(code, 0, err);
    assert.equal(
      typeof (JSON.parse(out) as { latest_block_height?: unknown }).latest_block_height,
      'number',
      out,
    );
  });
});

describe('gateway TLS configuration', () => {
  it('refuses a certificate without its key, naming the missing key', () => {
    const r = loadConfig({ overrides: { 'gateway.tls_cert_file': 'cert.pem' } });
    assert.equal(r.ok, false);
    const e = !r.ok ? r.errors.find((x) => x.key === 'gateway.tls_key_file') : undefined;
    assert.ok(e, JSON.stringify(r));
    assert.equal(e.code, 'config_invalid_value');
  });

  it('refuses to start on a file that is not PEM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'torana-tls-bad-'));
    writeFileSync(join(dir, 'c.pem'), 'not a certificate');
    writeFileSync(join(dir, 'k.pem'), 'not a key', { mode: 0o600 });
    try {
      await assert.rejects(
        startServedNode({
          'gateway.tls_cert_file': join(dir, 'c.pem'),
          'gateway.tls_key_file': join(dir, 'k.pem'),
        }),
        /gateway\.tls_cert_file: .* is not a PEM file/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
