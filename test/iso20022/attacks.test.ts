// The XML attack suite through the live route (docs/design/testing.md "Tests we keep"): XXE, billion
// laughs, deep nesting and huge attributes all answer 400, no file is opened while the request is
// handled, and no external reference is fetched (a canary HTTP server sees no request). Each attack's
// time is printed here; its 50 ms bound is asserted by test/reliability/timing-bounds.test.ts, which runs
// this file again with every attack sent five times (the fastest counts), never by `npm test`.
// test-runner: own process: it swaps the fs functions process-wide while a request is handled.

import assert from 'node:assert/strict';
import fs, { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { timingBound, timingBoundsAsserted } from '../helpers/timing-bound.js';
import { type BridgeNode, signedHeaders, startBridgeNode } from './bridge-fixture.js';

const NS = 'urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09';
/** docs/design/testing.md: each attack refused within 50 ms. Typical times are a few ms, the HTTP round trip included. */
const ATTACK_MS_MAX = 50;
/** Sends of each attack: five where the bound is asserted (the fastest counts), one in `npm test`. */
const SENDS = timingBoundsAsserted() ? 5 : 1;
const FILE_CALLS = ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream'] as const;

/** Runs `fn` with the fs module's file-opening functions replaced by recorders. */
async function watchingFiles<T>(fn: () => Promise<T>): Promise<{ value: T; opened: string[] }> {
  const opened: string[] = [];
  const f = fs as unknown as Record<string, unknown>;
  const saved = FILE_CALLS.map((n) => f[n]);
  const savedPromises = [fs.promises.open, fs.promises.readFile];
  for (const n of FILE_CALLS)
    f[n] = (...args: unknown[]) => {
      opened.push(`${n} ${String(args[0])}`);
      throw new Error(`trapped ${n}`);
    };
  fs.promises.open = (async (p: unknown) => {
    opened.push(`promises.open ${String(p)}`);
    throw new Error('trapped');
  }) as typeof fs.promises.open;
  fs.promises.readFile = (async (p: unknown) => {
    opened.push(`promises.readFile ${String(p)}`);
    throw new Error('trapped');
  }) as typeof fs.promises.readFile;
  syncBuiltinESMExports();
  try {
    return { value: await fn(), opened };
  } finally {
    FILE_CALLS.forEach((n, i) => {
      f[n] = saved[i];
    });
    [fs.promises.open, fs.promises.readFile] = savedPromises as [
      typeof fs.promises.open,
      typeof fs.promises.readFile,
    ];
    syncBuiltinESMExports();
  }
}

function pacs008With(msgId: string, prolog = ''): string {
  return `<?xml version="1.0"?>${prolog}<Document xmlns="${NS}"><FIToFICstmrCdtTrf><GrpHdr><MsgId>${msgId}</MsgId></GrpHdr></FIToFICstmrCdtTrf></Document>`;
}

describe('ISO 20022 bridge: XML attacks through the route', () => {
  let b: BridgeNode;
  let canary: Server;
  let canaryUrl = '';
  let canaryHits = 0;
  let dir = '';
  before(async () => {
    b = await startBridgeNode();
    canary = createServer((_req, res) => {
      canaryHits++;
      res.end('<!ENTITY x "pwned">');
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    const addr = canary.address();
    canaryUrl = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}`;
    dir = mkdtempSync(join(tmpdir(), 'iso-xxe-route-'));
    writeFileSync(join(dir, 'secret.txt'), 'TOP-SECRET-7f3a');
  });
  after(async () => {
    await new Promise<void>((resolve) => canary.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
    await b.stopAll();
  });

  /** POSTs the attack SENDS times: 400 with `code` each time, no file opened; the best time is the figure. */
  async function refused(body: string, code: string) {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < SENDS; i++) {
      const started = performance.now();
      const { value, opened } = await watchingFiles(async () => {
        // Signed by a participant: the attack must be refused by the reader, not only by the auth.
        const res = await fetch(`${b.url}/v1/iso20022/pacs008`, {
          method: 'POST',
          headers: {
            'content-type': 'application/xml',
            ...signedHeaders(b.bank, 'POST', '/v1/iso20022/pacs008', body),
          },
          body,
        });
        return { status: res.status, text: await res.text() };
      });
      best = Math.min(best, performance.now() - started);
      assert.deepEqual(opened, [], 'no file opened while the attack was handled');
      assert.equal(value.status, 400, value.text);
      assert.equal(JSON.parse(value.text).code, code);
      assert.ok(!value.text.includes('TOP-SECRET') && !value.text.includes('pwned'));
    }
    timingBound({ what: `POST refused with ${code} (fastest of ${SENDS})`, value: best, max: ATTACK_MS_MAX });
  }

  it('XXE to a local file and to an external DTD: 400, never read, never fetched', async () => {
    for (const target of [
      `file://${join(dir, 'secret.txt')}`,
      'file:///etc/passwd',
      `${canaryUrl}/evil.dtd`,
    ]) {
      await refused(
        pacs008With('&xxe;', `<!DOCTYPE Document [<!ENTITY xxe SYSTEM "${target}">]>`),
        'iso_xml_forbidden_construct',
      );
    }
    await refused(
      pacs008With('x', `<!DOCTYPE Document SYSTEM "${canaryUrl}/doc.dtd">`),
      'iso_xml_forbidden_construct',
    );
    await refused(
      pacs008With('x', `<!DOCTYPE d [<!ENTITY % p SYSTEM "${canaryUrl}/p.dtd"> %p;]>`),
      'iso_xml_forbidden_construct',
    );
    assert.equal(canaryHits, 0, 'no external reference was fetched');
  });

  it('billion laughs: 400', async () => {
    const defs = ['<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++)
      defs.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    await refused(pacs008With('&lol9;', `<!DOCTYPE lolz [${defs.join('')}]>`), 'iso_xml_forbidden_construct');
  });

  it('deep nesting (10,000 levels): 400', async () => {
    await refused(
      `<Document xmlns="${NS}">${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</Document>`,
      'iso_xml_too_deep',
    );
  });

  it('huge attribute (100 KiB) and attribute flood: 400', async () => {
    await refused(`<Document xmlns="${NS}" x="${'A'.repeat(100 * 1024)}"/>`, 'iso_xml_too_large');
    const attrs = Array.from({ length: 100 }, (_, i) => ` a${i}="1"`).join('');
    await refused(`<Document xmlns="${NS}"${attrs}/>`, 'iso_xml_too_large');
  });

  it('a body above iso20022.xml_body_bytes_max is 413 before it is parsed', async () => {
    const body = pacs008With('x'.repeat(2 * 1024 * 1024));
    const res = await fetch(`${b.url}/v1/iso20022/pacs008`, {
      method: 'POST',
      headers: {
        'content-type': 'application/xml',
        ...signedHeaders(b.bank, 'POST', '/v1/iso20022/pacs008', body),
      },
      body,
    });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { code: string }).code, 'body_too_large');
  });

  it('control: the file trap records opens and the canary records fetches', async () => {
    const { opened } = await watchingFiles(async () => {
      assert.throws(() => fs.readFileSync(join(dir, 'secret.txt')), /trapped/);
    });
    assert.equal(opened.length, 1);
    const hitsBefore = canaryHits;
    await (await fetch(`${canaryUrl}/evil.dtd`)).text();
    assert.equal(canaryHits, hitsBefore + 1);
  });
});
