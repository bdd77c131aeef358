// The attacker's pass over multisig proposal spam, alias transfers under a payment and conference signal
// box quotas (test/abuse/probe.ts), small: one served node for the file.

import { after, before, describe, it } from 'node:test';
import { aliasSwitch, type ProbeNode, proposalSpam, signalQuota, startProbeNode } from './probe.js';

describe('abuse: multisig proposals, alias switches, signal quotas', { timeout: 240_000 }, () => {
  let p: ProbeNode;
  before(async () => {
    p = await startProbeNode();
  });
  after(async () => {
    await p.t.stopAll();
  });

  it('one signatory cannot open more than the per-proposer cap of live proposals; the list stays paged', () =>
    proposalSpam(p));
  it('a payment signed after resolving an alias names the id: moving the alias does not redirect it', () =>
    aliasSwitch(p));
  it('a host spreading offers over its calls meets its own quota; other hosts and replacements are unaffected', () =>
    signalQuota(p));
});
