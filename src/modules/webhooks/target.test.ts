import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Resolve, TargetChecker } from './target.js';

const names: Record<string, string[]> = {
  'public.example': ['93.184.216.34'],
  'rebind.example': ['93.184.216.34', '10.0.0.7'],
  'v6.example': ['2606:2800:220:1::1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'dev.internal': ['192.168.1.5'],
};
const resolve: Resolve = async (host) => {
  const a = names[host];
  if (a === undefined) throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
  return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const checker = (allowed: string[] = [], allowPrivate = false) =>
  new TargetChecker({ allowPrivate, allowed, urlCharsMax: 200 }, resolve);

describe('webhook targets', () => {
  it('refuses private, loopback, link-local, unique-local and unspecified addresses by default', async () => {
    const c = checker();
    for (const url of [
      'http://127.0.0.1/h',
      'http://10.1.2.3/h',
      'http://172.20.0.1/h',
      'http://192.168.0.1/h',
      'http://169.254.169.254/latest',
      'http://0.0.0.0/h',
      'http://100.64.0.1/h',
      'http://[::1]/h',
      'http://[fd00::1]/h',
      'http://[fe80::1]/h',
      'http://mapped.example/h',
    ]) {
      const r = await c.check(url);
      assert.equal(r.ok, false, url);
      if (!r.ok) assert.equal(r.code, 'webhook_target_refused', url);
    }
  });

  it('checks every address a name resolves to and connects to the checked one', async () => {
    const c = checker();
    const bad = await c.check('https://rebind.example/h');
    assert.ok(!bad.ok && bad.details.address === '10.0.0.7');
    const good = await c.check('https://public.example:8443/h?x=1');
    assert.ok(good.ok);
    assert.equal(good.target.address, '93.184.216.34');
    const v6 = await c.check('http://v6.example/h');
    assert.ok(v6.ok && v6.target.family === 6);
    const nx = await c.check('http://nowhere.example/h');
    assert.ok(!nx.ok && nx.code === 'webhook_target_refused');
  });

  it('lets allowed CIDRs, addresses and host names through, or everything when private is allowed', async () => {
    const c = checker(['127.0.0.0/8', '::1/128', 'dev.internal']);
    assert.ok((await c.check('http://127.0.0.1:9/h')).ok);
    assert.ok((await c.check('http://[::1]:9/h')).ok);
    assert.ok((await c.check('http://dev.internal/h')).ok);
    assert.ok(!(await c.check('http://10.0.0.1/h')).ok);
    assert.ok((await checker([], true).check('http://10.0.0.1/h')).ok);
  });

  it('refuses what is not an absolute http(s) URL without credentials', async () => {
    const c = checker();
    for (const [url, reason] of [
      ['ftp://public.example/', 'scheme'],
      ['not a url', 'not_a_url'],
      ['http://u:p@public.example/', 'credentials'],
      [`http://public.example/${'a'.repeat(300)}`, 'too_long'],
    ] as const) {
      const r = await c.check(url);
      assert.ok(!r.ok && r.code === 'webhook_url_invalid' && r.details.reason === reason, url);
    }
  });
});
