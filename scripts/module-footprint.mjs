#!/usr/bin/env node
// How far each ledger feature reaches outside its own folder (docs/design/modules.md "Footprint").
//
//   node scripts/module-footprint.mjs [module] [--files]
//
// Definition. The footprint of a feature is the set of files OUTSIDE its folder (src/modules/<name>/ for a
// migrated module) that mention it, counted over the product's sources and documentation: every file under
// src/ (test files `*.test.ts` excluded), docs/ and scripts/, less the feature's own documentation page. A
// file mentions the feature when either
//   (a) one of its relative imports resolves into the feature's folder, or
//   (b) its text matches the feature's name pattern below (case-insensitive, anywhere: code, strings,
//       comments), e.g. /trigger/i for triggers — so `TriggerCodec`, `runDueTriggers` and "time trigger"
//       in a comment all count.
// A section of a shared page between `<!-- modules:NAME -->` and `<!-- /modules:NAME -->` is not read for
// (b): it is rendered from the modules' descriptors in registry order (src/modules/docs.ts), so a module's
// row there is the module's own declaration reaching the page through the registry, not a hand mention,
// and src/modules/docs.test.ts fails when such a section differs from what the descriptors give (so no
// hand-written text can hide in one); test/project/module-footprint.test.ts checks that every such
// section in the counted files is one that src/modules/docs.ts renders.
// Likewise the table of ranks between `<!-- serving-order -->` and `<!-- /serving-order -->` (only in
// docs/design/modules.md "Serving order") is not read for (b): it is rendered from the route families a
// node serves (each family's own `servedAt`), and test/project/serving-order.test.ts fails when it
// differs from what a served node gives; test/project/module-footprint.test.ts checks that the page
// holds the only such section.
// A module that builds on another one (its `dependsOn` in src/modules/registry.ts, mirrored below) names
// it by design — subscriptions bill through ledger-made trigger rows, and their wire field
// `billing_trigger_id` cannot change — so the folder and docs page of a module that declares a dependency
// on the feature counted are left out of that feature's count (the dependent's own footprint still counts
// every other file); test/project/module-footprint.test.ts checks the mirror against the registry.
// The subscriptions pattern: the word "subscribe" and its family (subscriber, unsubscribe, …) and the
// event-stream senses of "subscription" belong to the gateway's SSE/WebSocket event streams, not to the
// billing feature. So for subscriptions (b) is: the text, less the event-stream vocabulary listed in
// STREAM_SUBSCRIPTION_TERMS (the subscribe/subscriber word family, `EventSubscription`, an event / stream /
// bus / NATS / WebSocket subscription, a subscription request / slot / limit / field, the per-connection
// limit's names, the first message's refusals), matches /subscription|\$sub:/i — the feature's noun (its
// instructions, events, tables, rejection codes and routes all carry it) or the id prefix of its billing
// runs. A billing mention in a stream file still counts; the stream's own words never do.
// The aliases pattern: /alias/i, less the one other sense of the word in the sources, listed in
// URL_ALIAS_TERMS: the summary "OpenAPI document (alias)" of `/openapi.json`, a second URL of the
// OpenAPI document (its text is in the OpenAPI document, which cannot change), not a name of this feature.
// The conference pattern: /conference/i, less two fixed consensus-data strings of the core listed in
// CONSENSUS_CONFERENCE_TERMS: the rejection code name `conference_native_asset_not_configured` (R619) of the
// core's native asset charge (state/exec-native-asset.ts, which the core's shielded pool pays through with
// no module installed) and the meaning of the core pool's `shielded_pool_not_configured` (R627), which names
// the entry fee parameter. Both are in committed results and the results root, so they cannot change;
// they are the core's names, not hand mentions of the module. Any other word of the module still counts
// (its entry fee parameter `conference_entry_fee` on its own included).
// The dashboard pattern: /dashboard/i, less the word's other senses listed in OTHER_DASHBOARD_TERMS: the
// Grafana dashboard of deploy/grafana/ (`torana-dashboard.json`, a "Grafana dashboard") and any client's
// dashboard as a common noun ("dashboards and scripts", "a dashboard or a script"). The dashboard is the
// module other modules add to by convention: a module folder's `dashboard.ts` (its pages and panels,
// built with the `torana:dashboard` parts and found by the dashboard's build, never imported by path)
// is that module's own piece, so the folder of a module that has one is left out of the dashboard's count
// (`extendedBy`, below), with its docs page, as a dependent's folder and page are; every other module folder still counts. Its
// configuration section `[dashboard]` stays a core section (as a module section it would be written after
// the core's sections and change the generated configuration), so its keys (`dashboard.enabled`,
// `dashboard.connect_src`, the table `[dashboard]`) and the texts of the generated configuration that
// name it (fixed: src/config/fixed-defaults.test.ts) are the core's, listed in CORE_CONFIG_DASHBOARD_TERMS
// and removed too; any other word of the dashboard in the config files still counts.
// The operator sign-in pattern (OPERATOR_SIGN_IN_PATTERN): the module's own words, not the bare word
// "operator" nor the gateway's session store; and the doc of the store's audit capacity
// (`operator.session_audit_max`), a fixed text of the generated configuration that names the route
// reading it, is the core's (CORE_CONFIG_OPERATOR_TEXTS) and removed before the pattern is matched.
// The explorer pattern: /explorer/i, less the words of another module's routes under the URL prefix
// `/v1/explorer/`, listed in MODULE_EXPLORER_URL_TERMS: the real-world-asset lots' two routes
// `/v1/explorer/rwas` and `/v1/explorer/rwas/{rwa_id}`, with their OpenAPI names (the operation ids
// `explorerListRwas` / `explorerGetRwa` and the schema names `ExplorerRwa`, `ExplorerRwaList`,
// `ExplorerRwaPagination`, `ExplorerRwaHolds`, written as the quoted strings that make them). The rwas
// module serves them from its own family over its own tables, with no explorer module installed (it
// declares no `dependsOn`; test/project/module-footprint.test.ts builds its routes alone), and their
// texts are in the OpenAPI document, which cannot change (test/project/compat.test.ts): the prefix is
// a URL namespace of the read API there (docs/explorer.md says routes under it may be another module's),
// not a mention of the explorer module. Any other explorer word in those files still counts.
// Tests under test/ and benchmarks under bench/ are not counted: they exercise a feature from outside by
// design (end-to-end through sockets and processes). This script itself is not counted either.
// A migrated module's footprint should be its registry line (src/modules/registry.ts), the core's tag
// tables (src/model/tags.ts), and the docs index.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/**
 * The gateway's event-stream vocabulary (SSE/WebSocket subscribers), removed from a text before the
 * subscriptions pattern is matched: these words name the event streams, not the billing feature.
 */
export const STREAM_SUBSCRIPTION_TERMS = new RegExp(
  [
    String.raw`\b(?:un)?subscrib(?!tion)\w*`,
    '(?:event|stream|bus|nats|websocket|ws|sse)[ _-]?subscriptions?',
    'subscriptions? (?:request|slot|limit|field|per connection)s?',
    'subscription (?:is not valid JSON|must be a JSON object)',
    String.raw`subscriptions?_?per_?connection\w*`,
    String.raw`\w*subscriptionsMax`,
    '(?:acquire|release)Subscription',
    'SUBSCRIPTION_DECODE_LIMITS',
    'subscriptions one (?:websocket )?connection may hold',
    'clients, subscriptions, buffers',
  ].join('|'),
  'gi',
);

/** The words "alias" in a sense other than the aliases feature's names (a second URL of a route). */
export const URL_ALIAS_TERMS = /OpenAPI document \(alias\)/g;

/**
 * The core's fixed consensus-data strings that carry the conference module's name (a rejection code name
 * and a rejection meaning: committed results cannot change), removed before its pattern is matched.
 */
export const CONSENSUS_CONFERENCE_TERMS =
  /conference_native_asset_not_configured|the shielded_pool_account or conference_entry_fee parameter is missing or invalid/gi;

/**
 * Another module's routes under the read API's URL prefix `/v1/explorer/` and their OpenAPI names (fixed
 * by the OpenAPI document): the real-world-asset lots' page and lot routes. Not the explorer module.
 */
export const MODULE_EXPLORER_URL_TERMS = new RegExp(
  [
    String.raw`/v1/explorer/rwas\b`,
    "'ExplorerRwa(?:List|Pagination|Holds)?'",
    "'explorer(?:ListRwas|GetRwa)'",
  ].join('|'),
  'g',
);

/**
 * The word "dashboard" in a sense other than the web dashboard module: the Grafana dashboard of the
 * node's metrics, and a client's dashboard as a common noun.
 */
export const OTHER_DASHBOARD_TERMS =
  /torana-dashboard\.json|Grafana dashboard|dashboards and scripts|a dashboard or a script/gi;

/**
 * The core configuration section `[dashboard]`: its keys and table as written anywhere, and the texts of
 * the generated configuration that name the dashboard (each is in test/fixtures/config/default-config.toml;
 * test/project/module-footprint.test.ts checks it).
 */
export const CORE_CONFIG_DASHBOARD_TEXTS = [
  'The web dashboard served at /dashboard (docs/dashboard.md).',
  "Serve the dashboard's static files under /dashboard/",
  'Other nodes the dashboard may read',
  '(docs/dashboard.md "Another node")',
  'reach the node (or its dashboard) by',
];
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const CORE_CONFIG_DASHBOARD_TERMS = new RegExp(
  [
    String.raw`\bdashboard\.(?:enabled|connect_src|connectSrc)\b`,
    String.raw`\[dashboard\]`,
    String.raw`^\s*dashboard: section\(`,
    ...CORE_CONFIG_DASHBOARD_TEXTS.map(escapeRe),
  ].join('|'),
  'gim',
);

/**
 * The word "telemetry" in the senses that are not the telemetry module (its peers-info, propagation and
 * live feed, peer reports, CLI and SDK readers), removed before its pattern is matched:
 *  - the gateway's telemetry profiles (`telemetry.profile`, `TelemetryProfile`, `TELEMETRY_PROFILES`, the
 *    503 code `telemetry_profile_restricted`): the route-visibility gate every family is served under,
 *    core plumbing (also when the phrase wraps over a comment line);
 *  - the OpenAPI tag `telemetry` of the core's `GET /metrics` (`tags: ['telemetry']`), a group of the
 *    OpenAPI document, whose bytes cannot change (test/project/compat.test.ts);
 *  - the consensus engine's vote telemetry (`/v1/consensus/telemetry`, `getConsensusTelemetry`, its view
 *    `ConsensusTelemetry` / `TelemetryView`, `voteTelemetry`, "consensus telemetry", "telemetry of the
 *    round");
 *  - the conference module's own relay telemetry (`relay_telemetry`, `relayTelemetry`, its route note
 *    `TELEMETRY_NOTE`, and "the telemetry feature(s)" in its switch's text, which is the relay telemetry).
 * Any other "telemetry" counts: the module's routes, its `[telemetry]` keys other than `profile`, its reports.
 */
export const OTHER_TELEMETRY_TERMS = new RegExp(
  [
    String.raw`telemetry(?:\s*//)?[\s._-]*profiles?`,
    String.raw`tags: \['telemetry'\]`,
    '/v1/consensus/telemetry',
    '(?:get)?ConsensusTelemetry',
    String.raw`\bTelemetryView\b`,
    String.raw`(?:vote|consensus)(?:[\s*]*)[ _]?telemetry`,
    'telemetry of the round',
    String.raw`relay(?:\s*//)?[\s_]*telemetry`,
    String.raw`\bTELEMETRY_NOTE\b`,
    'the telemetry feature(?=[;,] (?:needs conference|default true))',
    String.raw`the telemetry features \(config`,
  ].join('|'),
  'gi',
);

/**
 * The operator sign-in module's own words: its routes (`/v1/operator/session…`, `/v1/operator/sessions…`,
 * `/v1/operator/auth/…`), operator passkeys (`passkey` in any form), its families and route functions
 * (`operatorFamily`, `operatorPasskeysFamily`, `operatorSessionRoutes`, `passkeyRoutes`), its folder, and
 * the SDK's sign-in over those routes (`operatorSignIn`, `openOperatorSession`, `closeOperatorSession`).
 * Not counted: the bare word "operator" (operator keys, operator routes of every family, signed operator
 * requests `x-ledger-operator-*`, operator authentication and its codes, the people who run a node), and
 * the gateway's session store that operator authentication verifies (`OperatorSessions`,
 * `gateway/operator-sessions.ts`, "operator session" tokens, `operator_session_*` codes): that store is
 * core (docs/design/modules.md), the module only serves the routes that open and close sessions.
 */
/**
 * The core `[operator]` section's texts of the generated configuration that name a route of the sign-in
 * module: the doc of `operator.session_audit_max`, the capacity of the gateway session store's audit list
 * (core, as the store is), which names the route that reads it. Fixed: each is in
 * test/fixtures/config/default-config.toml (src/config/fixed-defaults.test.ts;
 * test/project/module-footprint.test.ts checks it), so it is removed before the pattern is matched.
 */
export const CORE_CONFIG_OPERATOR_TEXTS = ['Session events kept for GET /v1/operator/sessions/audit.'];
const CORE_CONFIG_OPERATOR_TERMS = new RegExp(CORE_CONFIG_OPERATOR_TEXTS.map(escapeRe).join('|'), 'g');

export const OPERATOR_SIGN_IN_PATTERN =
  /\/v1\/operator\/(?:sessions?|auth)\b|passkey|operator(?:Passkeys)?Family|operatorSessionRoutes|passkeyRoutes|modules\/operator|operatorSignIn|(?:open|close)OperatorSession/i;

/**
 * Every ledger feature: its folder (migrated modules) or none yet, its name pattern (and the words
 * removed before it is matched, `unlike`), its docs page, and the modules it builds on (`dependsOn`, as
 * its registry entry says).
 */
export const FEATURES = {
  triggers: { folder: 'src/modules/triggers', pattern: /trigger/i, docs: 'docs/triggers.md' },
  subscriptions: {
    folder: 'src/modules/subscriptions',
    pattern: /subscription|\$sub:/i,
    unlike: STREAM_SUBSCRIPTION_TERMS,
    docs: 'docs/subscriptions.md',
    dependsOn: ['triggers'],
  },
  aliases: {
    folder: 'src/modules/aliases',
    pattern: /alias/i,
    unlike: URL_ALIAS_TERMS,
    docs: 'docs/data-model.md',
  },
  multisig: {
    folder: 'src/modules/multisig',
    pattern: /multisig/i,
    docs: 'docs/multisig.md',
    dependsOn: ['aliases'],
  },
  controls: {
    folder: 'src/modules/controls',
    pattern: /transfer ?controls?|TransferFreeze|TransferCap|controls-port|\/controls\//i,
    docs: 'docs/controls.md',
  },
  conference: {
    folder: 'src/modules/conference',
    pattern: /conference/i,
    unlike: CONSENSUS_CONFERENCE_TERMS,
    docs: 'docs/conference.md',
  },
  // Case-sensitive parts: the bare letters "rwa" sit inside ordinary words ("forward"), so only the
  // module's words count: rwa / rwas as a word or before `_`, `Rwa` in an identifier, `RWA`.
  webhooks: { folder: 'src/modules/webhooks', pattern: /webhook/i, docs: 'docs/webhooks.md' },
  rwas: {
    folder: 'src/modules/rwas',
    pattern: /\b[Rr]was?(?:\b|_)|Rwas?[A-Z]|[a-z]Rwas?\b|\bRWAs?\b/,
    docs: 'docs/rwas.md',
  },
  // Not the common word "content" (a response's content, a content type): the module's own words only.
  content: {
    folder: 'src/modules/content',
    pattern: /content[ _-]?bundle|ContentBundle|\/v1\/content/i,
    docs: 'docs/content.md',
  },
  // The word "connect" is everywhere in its ordinary sense (peers connect, `connection`, the dashboard's
  // `connect_src`), so only the feature's own names count: its routes, its config keys, "Connect relay",
  // its identifiers (`ConnectApp`, `connectApp`, `CONNECT_…`), its URI scheme, its folders and codes.
  connect: {
    folder: 'src/modules/connect',
    pattern:
      /\/v1\/connect|\bconnect\.(?:enabled|sessions_max|token_ttl_ms|idle_ms|frame|pending)|[Cc]onnect relay|\bConnect[A-Z][a-z]|\bconnect(?!Src)[A-Z][a-z]|torana-connect|\bCONNECT_|modules\/connect|sdk\/connect|connect_(?:session|token)/,
    docs: 'docs/connect.md',
  },
  // Not another module's routes under the `/v1/explorer/` prefix (the rwas lots' routes and their OpenAPI names).
  explorer: {
    folder: 'src/modules/explorer',
    pattern: /explorer/i,
    unlike: MODULE_EXPLORER_URL_TERMS,
    docs: 'docs/explorer.md',
  },
  // "history" is a common word with other senses in the core: the event streams' replay history
  // (`streams.event_history_max`), the consensus history routes, the validator set's and the roster's
  // history, the ledger's commit-time indexes (`HistoryEntry`, pipeline/history-entries.ts,
  // `accountHistory`: core plumbing the module reads, docs/design/modules.md "History"). So only the
  // feature's own names count: "transaction history", its routes, `tx history`, its identifiers
  // (`HistoryPage`, `historyFamily`, `CallerHistoryOptions`, `walkTransactionHistory`, …), its config
  // key and section, its folder, files and docs page.
  history: {
    folder: 'src/modules/history',
    pattern:
      /transactions?[ _-]history|\/transactions\/history|\btx history|[Hh]istory(?:Family|Port|Page|Item|Index|Options|Get)\b|CallerHistory|walk(?:Transaction)?History|definitionHistory|\bhistory\.(?:scan_entries_max|scanEntriesMax)|\[history\]|modules\/history|src\/history\b|docs\/history\.md|history-(?:actions|port)\b/,
    docs: 'docs/history.md',
  },
  // Case-sensitive parts, so "repository" and "report" never count: repo as a word or before `_`,
  // `Repo` before a capital (an identifier), `$repo:` (its scheduled runs).
  // The node's own telemetry: peers-info, propagation, the live feed, peer reports (docs/telemetry.md);
  // not the gateway's telemetry profiles, the consensus vote telemetry or the conference relay telemetry.
  telemetry: {
    folder: 'src/modules/telemetry',
    pattern: /telemetry/i,
    unlike: OTHER_TELEMETRY_TERMS,
    docs: 'docs/telemetry.md',
  },
  // Operator sign-in: its routes and passkeys (docs/operator.md); not the word "operator" alone, nor the
  // gateway's session store.
  operator: {
    folder: 'src/modules/operator',
    pattern: OPERATOR_SIGN_IN_PATTERN,
    unlike: CORE_CONFIG_OPERATOR_TERMS,
    docs: 'docs/operator.md',
  },
  repo: {
    folder: 'src/modules/repo',
    pattern: /\brepo\b|\brepo_|Repo[A-Z]|[a-z]Repos?\b|\$repo:/,
    docs: 'docs/repo.md',
    dependsOn: ['triggers'],
  },
  // Off the ledger: the web dashboard. `extendedBy`: the file by which another module adds to it.
  dashboard: {
    folder: 'src/modules/dashboard',
    pattern: /dashboard/i,
    unlike: [OTHER_DASHBOARD_TERMS, CORE_CONFIG_DASHBOARD_TERMS],
    docs: 'docs/dashboard.md',
    extendedBy: 'dashboard.ts',
  },
  // The bridge's name and the message families it reads and writes (pacs.008, camt.053, pain.001, ...).
  iso20022: {
    folder: 'src/modules/iso20022',
    pattern: /iso.?20022|pacs\.0|camt\.|pain\.0/i,
    docs: 'docs/iso20022.md',
  },
};

const SELF = 'scripts/module-footprint.mjs';

function walk(dir) {
  const out = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const rel = `${dir}/${name}`;
    const st = statSync(join(root, rel));
    if (st.isDirectory()) out.push(...walk(rel));
    else out.push(rel);
  }
  return out;
}

/** The files a footprint is counted over (paths relative to the repository root, sorted). */
export function countedFiles() {
  return [
    ...walk('src').filter((f) => /\.(ts|tsx|mjs|js|md|css|html)$/.test(f) && !f.endsWith('.test.ts')),
    ...walk('docs').filter((f) => f.endsWith('.md')),
    ...walk('scripts').filter((f) => /\.(mjs|js|ts)$/.test(f) && f !== SELF),
  ];
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\b[^'"`]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|(?:^|[\s;])import\s*['"](\.[^'"]+)['"]/g;

/** A generated module section of a shared page (src/modules/docs.ts): its name in group 1. */
export const MODULE_SECTION = /<!-- modules:([a-z-]+) -->\n[\s\S]*?<!-- \/modules:\1 -->/g;

/** The generated table of the serving order (docs/design/modules.md; test/project/serving-order.test.ts). */
export const SERVING_ORDER_SECTION = /<!-- serving-order -->\n[\s\S]*?<!-- \/serving-order -->/g;

/** The names of the generated module sections in `text`, in order. */
export function moduleSections(text) {
  return [...text.matchAll(MODULE_SECTION)].map((m) => m[1]);
}

/**
 * Whether `text` names the feature (rule (b)): its pattern, outside generated sections (the modules' and
 * the serving order's) and its `unlike`.
 */
export function namesFeature(name, text) {
  const feature = FEATURES[name];
  let rest = text.replace(MODULE_SECTION, '').replace(SERVING_ORDER_SECTION, '');
  for (const unlike of [feature.unlike ?? []].flat()) rest = rest.replace(unlike, '');
  return feature.pattern.test(rest);
}

/** Why `file` mentions the feature ('import', 'name'), or undefined when it does not. */
function mention(file, text, name) {
  const feature = FEATURES[name];
  if (feature.folder !== undefined) {
    for (const m of text.matchAll(IMPORT)) {
      const target = relative(root, resolve(root, dirname(file), m[1] ?? m[2] ?? m[3]));
      if (target.startsWith(`${feature.folder}/`)) return 'import';
    }
  }
  return namesFeature(name, text) ? 'name' : undefined;
}

/** The features that declare a dependency on `name` (their folders and pages are not counted for it). */
export function dependents(name) {
  return Object.keys(FEATURES).filter((n) => (FEATURES[n].dependsOn ?? []).includes(name));
}

/**
 * The other module folders that add to the feature by its convention file (`extendedBy`, e.g. a
 * module's `dashboard.ts`), in folder order; none for a feature without one.
 */
export function extenders(name) {
  const feature = FEATURES[name];
  if (feature?.extendedBy === undefined) return [];
  return readdirSync(join(root, 'src/modules'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `src/modules/${d.name}`)
    .filter((f) => f !== feature.folder && existsSync(join(root, f, feature.extendedBy)))
    .sort();
}

/**
 * The folders and docs pages not read for the feature's count: its own, then its dependents', then the
 * folders and docs pages of the modules that add to it by its convention file (a page says what its
 * module's addition shows).
 */
export function leftOut(name) {
  const feature = FEATURES[name];
  if (feature === undefined)
    throw new Error(`no feature ${name} (known: ${Object.keys(FEATURES).join(', ')})`);
  return [
    ...[feature, ...dependents(name).map((n) => FEATURES[n])].flatMap((f) =>
      f.folder === undefined ? [f.docs] : [f.folder, f.docs],
    ),
    ...extenders(name).flatMap((folder) => {
      const extender = Object.values(FEATURES).find((f) => f.folder === folder);
      return extender === undefined ? [folder] : [folder, extender.docs];
    }),
  ];
}

/** The files outside the feature's folder that mention it, with how. */
export function footprint(name, files = countedFiles()) {
  const skipped = leftOut(name);
  const out = [];
  for (const file of files) {
    if (skipped.some((p) => file === p || file.startsWith(`${p}/`))) continue;
    const how = mention(file, readFileSync(join(root, file), 'utf8'), name);
    if (how !== undefined) out.push({ file, how });
  }
  return out;
}

/** The files outside src/modules/ whose imports reach into a module folder (src/modules/<name>/). */
export function coreImportsOfModules(files = countedFiles()) {
  const out = [];
  for (const file of files) {
    if (!file.startsWith('src/') || file.startsWith('src/modules/')) continue;
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const target = relative(root, resolve(root, dirname(file), m[1] ?? m[2] ?? m[3]));
      if (/^src\/modules\/[^/]+\//.test(target)) out.push(`${file} → ${target}`);
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const showFiles = args.includes('--files');
  const names = args.filter((a) => !a.startsWith('--'));
  const files = countedFiles();
  for (const name of names.length > 0 ? names : Object.keys(FEATURES)) {
    const hits = footprint(name, files);
    const state =
      FEATURES[name].folder === undefined ? 'not yet migrated' : `folder ${FEATURES[name].folder}`;
    console.log(`${name}: ${hits.length} files outside its folder (${state})`);
    if (showFiles) for (const h of hits) console.log(`  ${h.how.padEnd(6)} ${h.file}`);
  }
}
