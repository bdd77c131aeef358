import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAddress, inNet, parseNet } from './address-range.js';

// [address, global unicast?, range name]
const TABLE: [string, boolean, string][] = [
  ['93.184.216.34', true, 'unicast'],
  ['8.8.8.8', true, 'unicast'],
  ['127.0.0.1', false, 'loopback'],
  ['10.1.2.3', false, 'private'],
  ['172.20.0.1', false, 'private'],
  ['192.168.0.1', false, 'private'],
  ['169.254.169.254', false, 'linkLocal'],
  ['100.64.0.1', false, 'carrierGradeNat'],
  ['0.0.0.0', false, 'unspecified'],
  ['192.0.2.1', false, 'reserved'],
  ['198.18.0.1', false, 'reserved'],
  ['224.0.0.1', false, 'multicast'],
  ['255.255.255.255', false, 'broadcast'],
  ['2606:2800:220:1::1', true, 'unicast'],
  ['::', false, 'unspecified'],
  ['::1', false, 'loopback'],
  ['fd00::1', false, 'uniqueLocal'],
  ['fe80::1', false, 'linkLocal'],
  ['fec0::1', false, 'deprecatedSiteLocal'],
  ['ff02::1', false, 'multicast'],
  ['2001:db8::1', false, 'reserved'],
  ['100::1', false, 'discard'],
  ['4000::1', false, 'ipv6_outside_2000::/3'],
  // IPv4 inside IPv6: judged by the IPv4 address carried.
  // IPv4-compatible: URLs and the resolver give the hex form; ipaddr.js reads the dotted form as mapped.
  ['::7f00:1', false, 'unicast:loopback'],
  ['::808:808', true, 'unicast:unicast'],
  ['::127.0.0.1', false, 'ipv4Mapped:loopback'],
  ['::ffff:127.0.0.1', false, 'ipv4Mapped:loopback'],
  ['::ffff:8.8.8.8', true, 'ipv4Mapped:unicast'],
  ['::ffff:0:7f00:1', false, 'rfc6145:loopback'],
  ['2002:7f00:1::', false, '6to4:loopback'],
  ['2002:a00:1::', false, '6to4:private'],
  ['2002:808:808::', true, '6to4:unicast'],
  ['64:ff9b::7f00:1', false, 'rfc6052:loopback'],
  ['64:ff9b::808:808', true, 'rfc6052:unicast'],
  ['64:ff9b:1::1', false, 'rfc6052'],
  // Teredo: the client address is the last 32 bits inverted (127.0.0.1 -> 80ff:fffe).
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', false, 'teredo:loopback'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', true, 'teredo:unicast'],
];

describe('webhook address ranges', () => {
  it('only global unicast passes; embedded IPv4 addresses are judged as IPv4', () => {
    for (const [address, global, range] of TABLE) {
      const c = classifyAddress(address);
      assert.deepEqual([c.global, c.range], [global, range], address);
    }
  });

  it('reads the addresses URLs normalise to (brackets removed)', () => {
    for (const host of ['[::127.0.0.1]', '[::ffff:0:7f00:1]', '[2002:7f00:1::]', '[fec0::1]']) {
      const hostname = new URL(`http://${host}/h`).hostname.slice(1, -1);
      assert.equal(classifyAddress(hostname).global, false, host);
    }
  });

  it('allow-list entries: CIDRs and single addresses; IPv4-mapped matches its IPv4 net', () => {
    const loop = parseNet('127.0.0.0/8')!;
    assert.ok(inNet('127.3.4.5', loop));
    assert.ok(inNet('::ffff:127.0.0.1', loop));
    assert.ok(!inNet('::1', loop));
    assert.ok(inNet('::1', parseNet('::1')!));
    assert.equal(parseNet('localhost'), undefined);
  });
});
