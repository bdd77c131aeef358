import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALICE,
  BOB,
  CAROL,
  type Chain,
  expectCode,
  ROSE,
  world,
} from '../../../test/fixtures/state/state-fixture.js';
import { encode } from '../../codec/frame.js';
import type { Instruction } from '../../model/instructions.js';
import {
  CONTENT_ALLOW_LIST_MAX,
  CONTENT_FILES_MAX,
  CONTENT_PATH_BYTES_MAX,
  CONTENT_TOTAL_BYTES_MAX,
  type ContentBundle,
  ContentBundleCodec,
  type ContentFile,
  contentBundleId,
  manifestProblem,
  pathProblem,
} from './model.js';
import { contentFile, contentInstructions as ix } from './sdk.js';

const text = (s: string) => new TextEncoder().encode(s);
const FILES = [
  contentFile('index.txt', text('hello, world'), 'text/plain; charset=utf-8'),
  contentFile('img/a.png', text('not really a png'), 'image/png'),
];

/** ALICE registers FILES (public unless told); the bundle id. */
function register(chain: Chain, access: Parameters<typeof ix.registerContentBundle>[1] = 'public'): string {
  expectCode(chain, ALICE, [ix.registerContentBundle(FILES, access)], 'Committed');
  return contentBundleId(
    ALICE,
    [...FILES].sort((a, b) => (a.path < b.path ? -1 : 1)),
  );
}

const bundle = (chain: Chain, id: string): ContentBundle => {
  const b = chain.state.tables.contentBundle.get(id);
  assert.ok(b, `bundle ${id}`);
  return b;
};

const raw = (manifest: ContentFile[]): Instruction => ({
  kind: 'RegisterContentBundle',
  manifest,
  access: { kind: 'Public' },
});

describe('content bundle instructions', () => {
  it('register: a deterministic id, the signer as owner, the manifest only (sorted), one per owner and manifest', () => {
    const chain = world();
    const id = register(chain);
    assert.match(id, /^[0-9a-f]{64}$/);
    const b = bundle(chain, id);
    assert.equal(b.owner, ALICE);
    assert.deepEqual(
      b.manifest.map((f) => f.path),
      ['img/a.png', 'index.txt'],
    );
    assert.equal(b.totalBytes, 28n);
    assert.deepEqual(b.status, { kind: 'Active' });
    // The row holds digests and sizes, never the bytes.
    assert.ok(!Buffer.from(encode(ContentBundleCodec, b)).includes(Buffer.from('hello, world')));
    expectCode(chain, ALICE, [ix.registerContentBundle(FILES)], 'content_bundle_exists');
    // Another owner, same manifest: another bundle.
    expectCode(chain, BOB, [ix.registerContentBundle(FILES)], 'Committed');
    assert.notEqual(contentBundleId(BOB, bundle(chain, id).manifest), id);
  });

  it('manifest checks: empty, unsorted, repeated paths, bad paths, digests, media types, caps', () => {
    const chain = world();
    const f = FILES[0]!;
    const bad: [string, ContentFile[]][] = [
      ['empty', []],
      ['unsorted', [FILES[0]!, FILES[1]!]],
      ['repeated', [f, f]],
      ['dot-dot', [{ ...f, path: '../etc/passwd' }]],
      ['absolute', [{ ...f, path: '/index.txt' }]],
      ['empty segment', [{ ...f, path: 'a//b' }]],
      ['space', [{ ...f, path: 'a b' }]],
      ['long path', [{ ...f, path: 'a'.repeat(CONTENT_PATH_BYTES_MAX + 1) }]],
      ['digest', [{ ...f, sha256: f.sha256.toUpperCase() }]],
      ['media type', [{ ...f, contentType: 'text' }]],
      ['total', [{ ...f, size: BigInt(CONTENT_TOTAL_BYTES_MAX) + 1n }]],
    ];
    for (const [what, manifest] of bad) {
      assert.ok(manifestProblem(manifest) !== undefined, what);
      if (what === 'long path') continue; // the codec refuses it before the handler (wire bound)
      expectCode(chain, ALICE, [raw(manifest)], 'content_bundle_invalid');
    }
    assert.equal(pathProblem('a'.repeat(CONTENT_PATH_BYTES_MAX)), undefined);
    const many = Array.from({ length: CONTENT_FILES_MAX }, (_, i) => ({
      ...f,
      path: `f${String(i).padStart(4, '0')}`,
    }));
    assert.equal(manifestProblem(many), undefined);
    expectCode(chain, ALICE, [raw(many)], 'Committed');
    assert.match(manifestProblem([...many, { ...f, path: 'z' }]) ?? '', /at most 256 files/);
    const atCap = [{ ...f, size: BigInt(CONTENT_TOTAL_BYTES_MAX) }];
    assert.equal(manifestProblem(atCap), undefined);
  });

  it('access rules: holders of an existing asset, an allow-list of registered accounts named once', () => {
    const chain = world();
    expectCode(
      chain,
      ALICE,
      [ix.registerContentBundle(FILES, { holdersOf: 'nope#wonderland' })],
      'asset_definition_not_found',
    );
    expectCode(chain, ALICE, [ix.registerContentBundle(FILES, { allow: [] })], 'content_bundle_invalid');
    expectCode(
      chain,
      ALICE,
      [ix.registerContentBundle(FILES, { allow: [BOB, BOB] })],
      'content_bundle_invalid',
    );
    expectCode(
      chain,
      ALICE,
      [ix.registerContentBundle(FILES, { allow: ['ed0120AA@nowhere'] })],
      'account_not_found',
    );
    assert.equal(CONTENT_ALLOW_LIST_MAX, 64);
    const id = register(chain, { holdersOf: ROSE });
    assert.deepEqual(bundle(chain, id).access, { kind: 'HoldersOf', definition: ROSE });
    const events = expectCode(
      chain,
      ALICE,
      [ix.setContentBundleAccess(id, { allow: [BOB, CAROL] })],
      'Committed',
    );
    assert.deepEqual(events, [
      { kind: 'ContentBundleAccessSet', bundle: id, access: { kind: 'AllowList', accounts: [BOB, CAROL] } },
    ]);
    assert.deepEqual(bundle(chain, id).access, { kind: 'AllowList', accounts: [BOB, CAROL] });
  });

  it('set access and retire: the owner only; a retired bundle takes neither again; unknown bundle', () => {
    const chain = world();
    const id = register(chain);
    expectCode(chain, BOB, [ix.setContentBundleAccess(id, { allow: [BOB] })], 'permission_denied');
    expectCode(chain, BOB, [ix.retireContentBundle(id)], 'permission_denied');
    expectCode(chain, ALICE, [ix.retireContentBundle('0'.repeat(64))], 'content_bundle_not_found');
    const events = expectCode(chain, ALICE, [ix.retireContentBundle(id)], 'Committed');
    assert.deepEqual(events, [{ kind: 'ContentBundleRetired', bundle: id }]);
    assert.deepEqual(bundle(chain, id).status, { kind: 'Retired' });
    expectCode(chain, ALICE, [ix.retireContentBundle(id)], 'content_bundle_retired');
    expectCode(chain, ALICE, [ix.setContentBundleAccess(id, 'public')], 'content_bundle_retired');
  });
});
