// Content bundles through real sockets (docs/content.md): the CLI and the SDK register bundles on a
// served node and upload their files (signed by the owner); GET serves them whole, by one Range (206),
// 304 on If-None-Match and 416 for a range past the end or several ranges, with the manifest's
// Content-Type, the strong ETag, Cache-Control, nosniff, the sandboxing CSP and Content-Disposition;
// uploads not matching the manifest or not signed by the owner are refused; a file this node was not
// given is 404 content_not_stored; restricted bundles (allow-list, holders of an asset) are refused
// without a signed request and served with one of an allowed account; the per-client egress budget
// answers 429 with Retry-After and is counted in the metrics; a retired bundle answers 410; the routes
// are in the OpenAPI document and only the JSON read is an MCP tool.

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  contentBundle,
  contentBundleId,
  contentFile,
  downloadContent,
  instructions as ix,
  ToranaClient,
  uploadContent,
} from '../../src/sdk/index.js';
import { runCli } from '../helpers/cli-in-process.js';
import { registerAccounts, run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { newAccount } from '../helpers/tx.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
type J = any;

const enc = (s: string) => new TextEncoder().encode(s);
const HELLO = enc('hello, world');
const PAGE = enc('<script>alert(1)</script>');
const BIG = new Uint8Array(600).fill(7);
const GOLD = 'gold#wonderland';

describe('content bundles (served node)', () => {
  let t: ServedTestNode;
  let work: string;
  let pub: string;
  let owner: ToranaClient;
  const alice = newAccount('wonderland', 41);
  const bob = newAccount('wonderland', 42);
  const carol = newAccount('wonderland', 43);
  const as = (a: typeof alice) => new ToranaClient({ url: t.url, account: a.id, signer: a.key });

  before(async () => {
    t = await startServedNode({
      'gateway.rate_burst': 100_000,
      'mcp.enabled': true,
      'telemetry.profile': 'full',
      'content.egress_client_bytes': 1000,
    });
    await registerAccounts(t, [alice, bob, carol]);
    owner = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    work = await mkdtemp(join(tmpdir(), 'content-e2e-'));
    await mkdir(join(work, 'site'));
    await writeFile(join(work, 'site', 'hello.txt'), HELLO);
    await writeFile(join(work, 'site', 'index.html'), PAGE);
    await writeFile(join(work, 'site', 'big.bin'), BIG);
  });
  after(async () => {
    await t.stopAll();
    await rm(work, { recursive: true, force: true });
  });

  const cli = async (args: string[]): Promise<J> => {
    const r = await runCli([...args, '--dir', t.dir, '--url', t.url, '--json']);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err} ${r.out}`);
    return JSON.parse(r.out);
  };
  const file = (id: string, path: string) => `${t.url}/v1/content/${id}/${path}`;
  const code = async (res: Response) => ((await res.json()) as { code: string }).code;

  it('the CLI registers a bundle and uploads its files; GET /v1/content/{bundle} shows the manifest', async () => {
    const site = ['hello.txt', 'index.html', 'big.bin'].map((f) => join(work, 'site', f));
    const reg = await cli(['content', 'register', '--base', join(work, 'site'), ...site]);
    assert.equal(reg.status, 'Committed');
    pub = reg.bundle_id;
    const manifest = [
      contentFile('big.bin', BIG, 'application/octet-stream'),
      contentFile('hello.txt', HELLO, 'text/plain; charset=utf-8'),
      contentFile('index.html', PAGE, 'text/html; charset=utf-8'),
    ];
    assert.equal(pub, contentBundleId(t.admin.id, manifest));
    const up = await cli(['content', 'upload', pub, '--base', join(work, 'site'), ...site]);
    assert.deepEqual(
      up.uploaded.map((u: J) => [u.path, u.stored]),
      [
        ['hello.txt', true],
        ['index.html', true],
        ['big.bin', true],
      ],
    );
    const b = await contentBundle(owner, pub);
    assert.equal(b.owner, t.admin.id);
    assert.equal(b.total_bytes, 12 + PAGE.length + 600);
    assert.deepEqual(b.access, { kind: 'Public' });
    assert.equal(b.status, 'Active');
    const got = await cli(['content', 'get', pub, 'hello.txt', '--out', join(work, 'out.txt')]);
    assert.equal(got.status, 200);
    assert.equal(got.bytes, 12);
  });

  it('GET serves whole files, one range (206), 304 on If-None-Match, 416 past the end or for several ranges', async () => {
    const res = await fetch(file(pub, 'hello.txt'));
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'hello, world');
    const sha = contentFile('x', HELLO, 'text/plain').sha256;
    const h = Object.fromEntries(res.headers);
    assert.equal(h['content-type'], 'text/plain; charset=utf-8');
    assert.equal(h['content-length'], '12');
    assert.equal(h.etag, `"${sha}"`);
    assert.equal(h['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(h['x-content-type-options'], 'nosniff');
    assert.equal(h['content-security-policy'], "default-src 'none'; sandbox");
    assert.equal(h['content-disposition'], 'inline');
    assert.equal(h['accept-ranges'], 'bytes');
    const page = await fetch(file(pub, 'index.html'));
    assert.equal(page.headers.get('content-disposition'), 'attachment; filename="index.html"');
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await page.text(), '<script>alert(1)</script>', 'served as stored, never interpreted');

    const same = await fetch(file(pub, 'hello.txt'), { headers: { 'if-none-match': `"${sha}"` } });
    assert.equal(same.status, 304);
    assert.equal(same.headers.get('etag'), `"${sha}"`);
    assert.equal(await same.text(), '');
    const part = await fetch(file(pub, 'hello.txt'), { headers: { range: 'bytes=7-11' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), 'bytes 7-11/12');
    assert.equal(await part.text(), 'world');
    const sdkPart = await downloadContent(owner, pub, 'hello.txt', { range: 'bytes=-5' });
    assert.equal(sdkPart.status, 206);
    assert.equal(new TextDecoder().decode(sdkPart.bytes), 'world');
    for (const range of ['bytes=50-', 'bytes=0-1,4-5']) {
      const r = await fetch(file(pub, 'hello.txt'), { headers: { range } });
      assert.equal(r.status, 416, range);
      assert.equal(r.headers.get('content-range'), 'bytes */12', range);
      assert.equal(await code(r), 'content_range_not_satisfiable');
    }
    const missing = await fetch(file(pub, 'nope.txt'));
    assert.equal(missing.status, 404);
    assert.equal(await code(missing), 'content_not_found');
  });

  it('uploads: the manifest bytes only, signed by the owner; a file not given to this node is content_not_stored', async () => {
    const wrong = await owner
      .signedRequest({
        method: 'POST',
        path: `/v1/content/${pub}/hello.txt`,
        body: enc('hello, World'),
        contentType: 'application/octet-stream',
      })
      .catch((e) => e);
    assert.equal(wrong.status, 422);
    assert.equal(wrong.code, 'content_hash_mismatch');
    const notOwner = await uploadContent(as(alice), pub, 'hello.txt', HELLO).catch((e) => e);
    assert.equal(notOwner.status, 403);
    assert.equal(notOwner.code, 'content_not_owner');
    const unsigned = await fetch(file(pub, 'hello.txt'), {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: HELLO,
    });
    assert.equal(unsigned.status, 401);
    assert.equal(await code(unsigned), 'signature_missing');
    const again = await uploadContent(owner, pub, 'hello.txt', HELLO);
    assert.equal(again.stored, false, 'already held');
    // A bundle on the ledger whose file nobody gave this node.
    const other = [contentFile('only-elsewhere.txt', enc('elsewhere'), 'text/plain')];
    assert.equal((await run(t, t.admin, [ix.registerContentBundle(other)])).status.kind, 'Committed');
    const res = await fetch(file(contentBundleId(t.admin.id, other), 'only-elsewhere.txt'));
    assert.equal(res.status, 404);
    assert.equal(await code(res), 'content_not_stored');
  });

  it('restricted bundles: refused without a signed request, served to an allowed account or a holder', async () => {
    const files = [contentFile('secret.txt', enc('for alice'), 'text/plain')];
    const id = contentBundleId(t.admin.id, files);
    const reg = await run(t, t.admin, [ix.registerContentBundle(files, { allow: [alice.id] })]);
    assert.equal(reg.status.kind, 'Committed');
    await uploadContent(owner, id, 'secret.txt', enc('for alice'));
    const anon = await fetch(file(id, 'secret.txt'));
    assert.equal(anon.status, 401);
    assert.equal(await code(anon), 'signature_missing');
    const denied = await downloadContent(as(bob), id, 'secret.txt', { signed: true }).catch((e) => e);
    assert.equal(denied.status, 403);
    assert.equal(denied.code, 'content_access_denied');
    const ok = await downloadContent(as(alice), id, 'secret.txt', { signed: true });
    assert.equal(ok.status, 200);
    assert.equal(new TextDecoder().decode(ok.bytes), 'for alice');
    assert.equal(ok.headers.get('cache-control'), 'private, max-age=31536000, immutable');
    // Holders of an asset: bob holds gold, alice none.
    const gold = await run(t, t.admin, [
      {
        kind: 'RegisterAssetDefinition',
        id: GOLD,
        scale: 0,
        mintable: { kind: 'Infinitely' },
        metadata: new Map(),
      },
      { kind: 'MintAsset', asset: `${GOLD}#${bob.id}`, amount: { mantissa: 1n, scale: 0 } },
      ix.setContentBundleAccess(id, { holdersOf: GOLD }),
    ]);
    assert.equal(gold.status.kind, 'Committed', JSON.stringify(gold.status));
    assert.equal((await downloadContent(as(bob), id, 'secret.txt', { signed: true })).status, 200);
    const alice2 = await downloadContent(as(alice), id, 'secret.txt', { signed: true }).catch((e) => e);
    assert.equal(alice2.code, 'content_access_denied');
  });

  it('the per-client egress budget answers 429 with Retry-After, counted in the metrics', async () => {
    // 600 bytes a download, 1000 per client and window: the second download in a window is refused.
    // No retry of the 429 inside the SDK (it would wait and resend).
    const carolNoRetry = new ToranaClient({ url: t.url, account: carol.id, signer: carol.key, retries: 0 });
    let refused: Response | undefined;
    for (let i = 0; i < 3 && refused === undefined; i++) {
      const r = await carolNoRetry
        .signedRequest({ method: 'GET', path: `/v1/content/${pub}/big.bin`, accept: '*/*' })
        .catch((e) => e);
      if (r instanceof Response) assert.equal((await r.arrayBuffer()).byteLength, 600);
      else refused = r;
    }
    const e = refused as J;
    assert.ok(e !== undefined, 'a download past the budget is refused');
    assert.equal(e.status, 429);
    assert.equal(e.code, 'content_egress_limited');
    assert.equal(e.details.scope, 'client');
    assert.ok(e.retryAfterS >= 1 && e.retryAfterS <= 60, `Retry-After ${e.retryAfterS}`);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    assert.match(metrics, /content_egress_refused_total\{scope="client"\} [1-9]/);
    const served = Number(/content_egress_bytes_total (\d+)/.exec(metrics)?.[1]);
    assert.ok(served >= 600, `served ${served}`);
    assert.match(metrics, new RegExp(`content_store_bytes ${12 + PAGE.length + 600 + 9}`));
  });

  it('a retired bundle answers 410 on its files; the bundle read shows it retired', async () => {
    const r = await cli(['content', 'retire', pub]);
    assert.equal(r.status, 'Committed');
    const res = await fetch(file(pub, 'hello.txt'));
    assert.equal(res.status, 410);
    assert.equal(await code(res), 'content_retired');
    const up = await uploadContent(owner, pub, 'hello.txt', HELLO).catch((e) => e);
    assert.equal(up.status, 410);
    assert.equal((await cli(['content', 'get', pub])).status, 'Retired');
  });

  it('the routes are in the OpenAPI document with examples; only the JSON read is an MCP tool', async () => {
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as J;
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/content'));
    assert.deepEqual(paths.sort(), ['/v1/content/{bundle}', '/v1/content/{bundle}/{path}'].sort());
    const read = doc.paths['/v1/content/{bundle}'].get;
    assert.equal(read['x-ledger-family'], 'content');
    assert.ok(JSON.stringify(read.responses['200']).includes('img/logo.png'), 'an example');
    const get = doc.paths['/v1/content/{bundle}/{path}'].get;
    assert.ok(get.responses['206'] && get.responses['416'] && get.responses['304'], 'statuses');
    assert.ok(doc.paths['/v1/content/{bundle}/{path}'].post.responses['422']);
    const res = await fetch(`${t.url}/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const names = ((await res.json()) as J).result.tools.map((x: J) => x.name as string);
    assert.ok(names.includes('getContentBundle'));
    assert.ok(!names.includes('getContentFile') && !names.includes('uploadContentFile'));
  });
});
