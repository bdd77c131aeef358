import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { installClientMethods, ToranaClient } from '../sdk/client.js';
import * as sdk from '../sdk/index.js';
import { instructions } from '../sdk/instructions.js';
import { claimProblems, installedHandlers, installedTransferChecks } from '../state/module-host.js';
import { declaredWires, undeclaredWire } from '../state/module-wire.js';
import { MODULE_CLI_ID_NAMES, MODULE_COMMANDS, MODULES_WITH_COMMANDS } from './commands.js';
import { controlsModule } from './controls/descriptor.js';
import type { LedgerModule } from './descriptor.js';
import { entryProblems, LEDGER_MODULES, moduleFamilies, registryProblems } from './load.js';
import { multisigModule } from './multisig/descriptor.js';
import ENTRIES from './registry.js';
import { repoModule } from './repo/descriptor.js';
import { testRouteEnv } from './test-route-env.js';
import { triggersModule } from './triggers/descriptor.js';

const byName = (name: string) => LEDGER_MODULES.find((m) => m.name === name)!;

describe('ledger module registry', () => {
  it('this build is consistent: every instruction tag and table id has exactly one owner', () => {
    assert.deepEqual(registryProblems(LEDGER_MODULES), []);
    assert.deepEqual(
      LEDGER_MODULES.map((m) => m.name),
      [
        'ledger',
        'conference',
        'aliases',
        'multisig',
        'controls',
        'triggers',
        'subscriptions',
        'rwas',
        'content',
        'repo',
        'webhooks',
        'explorer',
        'history',
        'connect',
        'iso20022',
        'telemetry',
        'operator',
        'dashboard',
      ],
    );
    assert.deepEqual(
      ENTRIES.map((e) => e.name),
      LEDGER_MODULES.map((m) => m.name),
    );
  });

  it('subscriptions own their instructions and tables and build on triggers, listed before them', () => {
    const subscriptions = byName('subscriptions');
    assert.equal(installedHandlers().Subscribe, subscriptions.instructions.Subscribe);
    assert.equal(byName('ledger').instructions.Subscribe, undefined);
    assert.deepEqual(subscriptions.tables, ['subscriptionPlan', 'subscription']);
    assert.deepEqual(subscriptions.dependsOn, ['triggers']);
    const entry = ENTRIES.find((e) => e.name === 'subscriptions')!;
    assert.deepEqual(entry.dependsOn, ['triggers']);
    assert.deepEqual(entryProblems(entry, subscriptions), []);
    assert.deepEqual(entryProblems({ ...entry, dependsOn: [] }, subscriptions), [
      'subscriptions: the registry entry and the descriptor disagree on its dependencies',
    ]);
    const reordered = LEDGER_MODULES.filter((m) => m.name !== 'triggers');
    reordered.push(byName('triggers'));
    assert.ok(
      registryProblems(reordered).includes(
        'subscriptions depends on triggers, which is not listed before it',
      ),
      registryProblems(reordered).join('\n'),
    );
  });

  it('the conference module owns its instructions and tables, and the core ledger none of them', () => {
    const conference = byName('conference');
    assert.equal(installedHandlers().CreateConference, conference.instructions.CreateConference);
    assert.equal(installedHandlers().JoinConference, conference.instructions.JoinConference);
    assert.equal(byName('ledger').instructions.CreateConference, undefined);
    assert.ok(byName('ledger').instructions.ShieldAsset !== undefined, 'the shielded pool stays in the core');
    assert.deepEqual(conference.tables, ['conferenceCall', 'conferenceRelay']);
    const without = registryProblems(LEDGER_MODULES.filter((m) => m.name !== 'conference'));
    assert.ok(without.includes('table conferenceCall is claimed by no module'), without.join('\n'));
    assert.ok(
      without.some((p) => p.startsWith('CreateConference (tag ')),
      without.join('\n'),
    );
  });

  it('the registry declared every module wire: each tag-table entry has its declaration', () => {
    assert.deepEqual(undeclaredWire(), []);
    // Declared in the registry's import order; the codecs follow the tag order whatever that order is.
    assert.deepEqual(
      declaredWires()
        .map((w) => w.name)
        .sort(),
      ENTRIES.flatMap((e) => (e.wire === undefined ? [] : [e.name])).sort(),
    );
    for (const e of ENTRIES) {
      if (e.wire === undefined) continue;
      const m = LEDGER_MODULES.find((d) => d.name === e.name)!;
      assert.equal(e.wire.docs, m.docs, `${e.name}: the wire and the descriptor name the same docs page`);
      assert.deepEqual(Object.keys(e.wire.instructions ?? {}).sort(), Object.keys(m.instructions).sort());
    }
  });

  it('importing the registry installed the modules: the triggers handlers are the executor’s', () => {
    assert.equal(installedHandlers().RegisterTrigger, triggersModule.instructions.RegisterTrigger);
    assert.equal(installedHandlers().UnregisterTrigger, triggersModule.instructions.UnregisterTrigger);
  });

  it('the multisig handlers are the executor’s, and its tables and SDK names are its own', () => {
    for (const kind of Object.keys(
      multisigModule.instructions,
    ) as (keyof typeof multisigModule.instructions)[])
      assert.equal(installedHandlers()[kind], multisigModule.instructions[kind], kind);
    assert.deepEqual(Object.keys(multisigModule.instructions).sort(), [
      'ApproveMultisig',
      'CancelMultisig',
      'ProposeMultisig',
      'RegisterMultisig',
      'SetMultisigSpec',
    ]);
    const problems = registryProblems(LEDGER_MODULES.filter((m) => m.name !== 'multisig'));
    assert.ok(problems.includes('table multisigAccount is claimed by no module'), problems.join('\n'));
    assert.equal(typeof instructions.proposeMultisig, 'function');
    assert.equal(sdk.multisigAccountId, multisigModule.sdk?.multisigAccountId);
  });

  it('the controls module’s handlers and transfer check are installed; moving its claims out is reported', () => {
    assert.equal(installedHandlers().SetTransferCap, controlsModule.instructions.SetTransferCap);
    assert.deepEqual(installedTransferChecks(), [controlsModule.transferCheck, repoModule.transferCheck]);
    const without = registryProblems(LEDGER_MODULES.filter((m) => m.name !== 'controls'));
    assert.ok(
      without.some((p) => /^SetTransferFreeze \(tag \d+\) is claimed by no module$/.test(p)),
      without.join('\n'),
    );
    assert.ok(without.includes('table assetControl is claimed by no module'), without.join('\n'));
  });

  it('a tag claimed by no module, by two, or unknown to the tag table is reported', () => {
    const ledger = byName('ledger');
    const noTriggers = registryProblems([ledger]);
    assert.ok(noTriggers.includes('RegisterTrigger (tag 53) is claimed by no module'), noTriggers.join('\n'));
    assert.ok(noTriggers.includes('table trigger is claimed by no module'), noTriggers.join('\n'));
    const twice = claimProblems(
      [
        { name: 'a', handlers: { Log: ledger.instructions.Log! } },
        { name: 'b', handlers: { Log: ledger.instructions.Log! } },
      ],
      ['Log'],
    );
    assert.deepEqual(twice, ['Log is claimed by a and b']);
    const unknown = claimProblems([{ name: 'a', handlers: { Log: ledger.instructions.Log! } }], []);
    assert.deepEqual(unknown, ['a claims Log, which has no tag']);
  });

  it('modules are listed in tag order, and their events, codes and schema types exist', () => {
    const rogue: LedgerModule = {
      ...triggersModule,
      name: 'rogue',
      instructions: {},
      tables: [],
      events: ['NoSuchEvent' as never],
      rejections: ['no_such_code' as never],
    };
    const problems = registryProblems([byName('triggers'), byName('ledger'), rogue]);
    assert.ok(problems.includes('ledger is listed after triggers but has a lower tag'), problems.join('\n'));
    assert.ok(problems.includes('rogue claims event NoSuchEvent, which has no tag'), problems.join('\n'));
    assert.ok(problems.includes('rogue claims unknown code no_such_code'), problems.join('\n'));
  });

  it('each module’s SDK functions are exported by the SDK under their names, and its CLI is registered', () => {
    for (const m of LEDGER_MODULES) {
      for (const [name, fn] of Object.entries(m.sdk ?? {}))
        assert.equal((sdk as Record<string, unknown>)[name], fn, `${m.name}: sdk export ${name}`);
    }
    const withCli = LEDGER_MODULES.filter((m) => m.cli !== undefined);
    assert.deepEqual(
      [...MODULES_WITH_COMMANDS],
      withCli.map((m) => m.name).sort(),
      'the module folders with commands.ts are the registry entries with cli: true',
    );
    assert.deepEqual(
      MODULE_CLI_ID_NAMES,
      LEDGER_MODULES.flatMap((m) => (m.cliIdNames === undefined ? [] : [m.cliIdNames])),
      'the names given in place of ids are the modules’ (folder-name order)',
    );
    for (const m of withCli)
      assert.equal(MODULE_COMMANDS[MODULES_WITH_COMMANDS.indexOf(m.name)], m.cli, `${m.name}: its CLI`);
    assert.equal(typeof instructions.registerTrigger, 'function');
    assert.equal(typeof instructions.registerAccountAlias, 'function');
    assert.equal(typeof instructions.createConference, 'function');
    assert.equal(typeof instructions.shieldAsset, 'function', 'the shielded pool builder stays in the core');
  });

  it('moduleFamilies gives each module the store folder <data>/<name> (or the one it names), and none without a data folder', async () => {
    const seen: (string | undefined)[] = [];
    const probe: LedgerModule = {
      ...byName('rwas'),
      name: 'probe',
      routes: (e) => void seen.push(e.storeDir),
    };
    const env = testRouteEnv(
      { 'app_api.enabled': true },
      {
        deps: { ports: { query: {} } } as never,
        events: { since: () => [], subscribe: () => () => undefined, lastId: () => 0 } as never,
      },
    );
    await moduleFamilies(env, [probe]);
    await moduleFamilies({ ...env, dataDir: '/var/lib/torana/data' }, [probe]);
    assert.deepEqual(seen, [undefined, '/var/lib/torana/data/probe']);
    // A module naming its store folder (one node directories already hold) gets that one instead.
    await moduleFamilies({ ...env, dataDir: '/var/lib/torana/data' }, [{ ...probe, storeFolder: 'kept' }]);
    assert.equal(seen.at(-1), '/var/lib/torana/data/kept');
    assert.equal(byName('iso20022').storeFolder, 'bridge', 'the bridge keeps <data>/bridge/');
    // A family failing to build closes those built before it, and the failure reaches the caller.
    const closed: string[] = [];
    const opened: LedgerModule = {
      ...probe,
      name: 'opened',
      routes: () => ({
        name: 'opened',
        app: true,
        servedAt: 1,
        routes: () => [],
        close: async () => void closed.push('opened'),
      }),
    };
    const failing: LedgerModule = {
      ...probe,
      name: 'failing',
      routes: async () => {
        throw new Error('refused');
      },
    };
    await assert.rejects(moduleFamilies(env, [opened, failing]), /refused/);
    assert.deepEqual(closed, ['opened']);
    const base = mkdtempSync(join(tmpdir(), 'torana-module-stores-'));
    try {
      const families = await moduleFamilies({ ...env, dataDir: base }, [byName('webhooks')]);
      assert.deepEqual(
        families.map((f) => f.name),
        ['webhooks'],
      );
      assert.ok(existsSync(join(base, 'webhooks', 'data.mdb')), 'the webhooks store opens in its folder');
      for (const f of families) await f.close?.();
      assert.deepEqual(await moduleFamilies(env, [byName('webhooks')]), [], 'no store folder: no family');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('a module’s client methods are on every ToranaClient, and a name the client has is refused', () => {
    const client = new ToranaClient({ url: 'http://127.0.0.1:1' });
    for (const name of [
      'getCall',
      'listCalls',
      'listRelays',
      'shieldedPool',
      'publishOffers',
      'watchSignals',
      'createWebhook',
      'rotateWebhookSecret',
      'webhookEventTypes',
    ])
      assert.equal(typeof (client as unknown as Record<string, unknown>)[name], 'function', name);
    assert.throws(
      () => installClientMethods({ submit: () => undefined }),
      /ToranaClient already has a member submit/,
    );
    const getCall = (ToranaClient.prototype as unknown as Record<string, () => unknown>).getCall!;
    installClientMethods({ getCall }); // the same function again: a no-op
  });
});
