// Abuse scenario: webhook targets that are not global unicast, written so that a hand-kept list of
// ranges misses them — loopback carried inside IPv6 (IPv4-compatible `[::127.0.0.1]`, IPv4-translated
// `[::ffff:0:7f00:1]`, 6to4 `[2002:7f00:1::]`, NAT64, Teredo) and site-local `[fec0::1]` — are registered
// through POST /v1/webhooks. Every one is refused 422 `webhook_target_refused`, while the loopback
// receiver a `torana init` node allows (`webhooks.allowed_targets`) is still accepted.

import assert from 'node:assert/strict';
import { ToranaClient } from '../../src/sdk/client.js';
import { registerAccounts } from '../helpers/node.js';
import { startServedNode } from '../helpers/served.js';
import { newAccount } from '../helpers/tx.js';
import { figure } from './clients.js';

/** Hosts (as written in the URL) that must be refused; the first four are the review's findings. */
export const HOSTILE_HOSTS = [
  '[::127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[2002:7f00:1::]',
  '[fec0::1]',
  '[64:ff9b::a00:1]',
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
  '[2001:db8::1]',
  '[fd12:3456::1]',
  '[fe80::1]',
  '10.0.0.1',
  '169.254.169.254',
  '100.64.0.1',
  '192.0.2.1',
  '0.0.0.0',
];

/** `[2002:xxxx:xxxx::]` and `[::ffff:0:xxxx:xxxx]` forms of `count` addresses in each private IPv4 range. */
function wrapped(count: number): string[] {
  const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
  const out: string[] = [];
  for (const [o1, o2] of [
    [127, 0],
    [10, 1],
    [192, 168],
    [169, 254],
    [172, 16],
  ] as const)
    for (let i = 0; i < count; i++) {
      const hi = hex(o1, o2);
      const lo = hex((i >> 8) & 0xff, i & 0xff || 1);
      out.push(`[2002:${hi}:${lo}::]`, `[::ffff:0:${hi}:${lo}]`, `[64:ff9b::${hi}:${lo}]`);
    }
  return out;
}

export async function webhookTargetRanges(size: { wrappedPerRange: number }): Promise<void> {
  const t = await startServedNode();
  const who = newAccount('wonderland', 77);
  const client = new ToranaClient({ url: t.url, account: who.id, signer: who.key });
  try {
    await registerAccounts(t, [who]); // webhook owners are registered accounts
    const hosts = [...HOSTILE_HOSTS, ...wrapped(size.wrappedPerRange)];
    const accepted: string[] = [];
    const codes = new Map<string, number>();
    for (const host of hosts) {
      const r = await client.createWebhook({ url: `http://${host}:9/hook`, active: false }).then(
        () => undefined,
        (e: { status?: number; code?: string }) => `${e.status} ${e.code}`,
      );
      if (r === undefined) accepted.push(host);
      else codes.set(r, (codes.get(r) ?? 0) + 1);
    }
    const loop = await client.createWebhook({ url: 'http://127.0.0.1:9/hook', active: false });
    figure('webhook target ranges', {
      registered: hosts.length,
      refused: [...codes].map(([c, n]) => `${n} × ${c}`).join(', '),
      accepted: accepted.length === 0 ? 'none' : accepted.join(' '),
      'allowed loopback receiver': loop.url,
    });
    assert.deepEqual(accepted, [], 'no target outside global unicast is registered');
    assert.deepEqual([...codes], [['422 webhook_target_refused', hosts.length]]);
  } finally {
    await t.stopAll();
  }
}
