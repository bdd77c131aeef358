import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileHeaders, matchesEtag, rendersInline } from './headers.js';

const FILE = {
  path: 'site/index.html',
  size: 5n,
  sha256: 'ab'.repeat(32),
  contentType: 'text/html; charset=utf-8',
};

describe('content answer headers', () => {
  it('strong ETag, nosniff, sandboxing CSP; public immutable or private; attachment for active media', () => {
    const h = fileHeaders(FILE, { public: true, maxAgeS: 60 });
    assert.equal(h.etag, `"${FILE.sha256}"`);
    assert.equal(h['cache-control'], 'public, max-age=60, immutable');
    assert.equal(h['x-content-type-options'], 'nosniff');
    assert.equal(h['content-security-policy'], "default-src 'none'; sandbox");
    assert.equal(h['content-disposition'], 'attachment; filename="index.html"');
    assert.equal(
      fileHeaders(FILE, { public: false, maxAgeS: 60 })['cache-control'],
      'private, max-age=60, immutable',
    );
    for (const t of ['image/png', 'text/plain; charset=utf-8', 'application/json', 'video/mp4'])
      assert.ok(rendersInline(t), t);
    for (const t of [
      'image/svg+xml',
      'text/html',
      'application/pdf',
      'text/javascript',
      'application/octet-stream',
    ])
      assert.ok(!rendersInline(t), t);
  });

  it('If-None-Match: the tag, a list naming it, a weak form of it, or *', () => {
    const s = FILE.sha256;
    assert.ok(matchesEtag(`"${s}"`, s));
    assert.ok(matchesEtag(`"x", W/"${s}"`, s));
    assert.ok(matchesEtag('*', s));
    assert.ok(!matchesEtag('"other"', s));
    assert.ok(!matchesEtag(undefined, s));
  });
});
