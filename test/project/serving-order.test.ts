// The serving order (docs/design/modules.md "Serving order"): every route family declares its rank
// (`RouteFamily.servedAt`) and the node serves them in ascending rank, so no family names another to
// find its place. The table of ranks in use on that page is the one a node with every optional family on
// serves: this test renders it from the served families and fails when the page differs (rewrite it
// with UPDATE=1), so a newcomer picking a rank sees the order, and no two served families share a rank.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { placeFamilies, type RouteFamily } from '../../src/gateway/family.js';
import { dashboardFamily } from '../../src/modules/dashboard/family.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const PAGE = new URL('../../docs/design/modules.md', import.meta.url);

/** The section of the page the table sits in (scripts/module-footprint.mjs `SERVING_ORDER_SECTION`). */
const SECTION = /(<!-- serving-order -->\n)[\s\S]*?(<!-- \/serving-order -->)/;

/** Every optional family on: the application API, the profile that serves all, every switch. */
const ALL = {
  'telemetry.profile': 'full',
  'conference.enabled': true,
  'iso20022.enabled': true,
  'mcp.enabled': true,
  'connect.enabled': true,
  'dashboard.enabled': true,
  'operator.passkeys_enabled': true,
};

/** The table: one row per served family, in the order served (a hosted family under its host's row). */
export function servingOrderTable(families: readonly RouteFamily[]): string {
  const rows = ['| rank | family | application API |', '| ---: | --- | --- |'];
  for (const f of families) {
    const row = `| ${f.servedAt} | \`${f.name}\` | ${f.app ? 'yes' : 'no'} |`;
    if (rows.at(-1) !== row) rows.push(row);
  }
  return rows.join('\n');
}

describe('the serving order', () => {
  let t: ServedTestNode;
  let served: readonly RouteFamily[];
  before(async () => {
    t = await startServedNode(ALL);
    // The dashboard's family is left out of an unbuilt tree (npm run build); its rank is its factory's.
    served = t.served.families.some((f) => f.name === 'dashboard')
      ? t.served.families
      : placeFamilies([...t.served.families, dashboardFamily({ assets: new Map(), profile: 'full' })]);
  });
  after(async () => t?.stopAll());

  it('serves the families in ascending rank, no two of them at one rank', () => {
    const ranks = served.map((f) => f.servedAt);
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
    const byRank = new Map<number, Set<string>>();
    for (const f of served) byRank.set(f.servedAt, (byRank.get(f.servedAt) ?? new Set()).add(f.name));
    // A hosted family is served under its host's name and at its host's place: one name per rank.
    for (const [rank, names] of byRank) assert.equal(names.size, 1, `rank ${rank}: ${[...names].join(', ')}`);
  });

  it('docs/design/modules.md "Serving order" holds the table of the ranks in use', () => {
    const text = readFileSync(PAGE, 'utf8');
    assert.match(text, SECTION, 'the page has its serving-order section');
    const next = text.replace(
      SECTION,
      (_, open: string, close: string) => `${open}${servingOrderTable(served)}\n${close}`,
    );
    if (process.env.UPDATE === '1' && next !== text) writeFileSync(PAGE, next);
    assert.equal(
      next,
      text,
      'rewrite it with UPDATE=1 node scripts/test.mjs --only test/project/serving-order',
    );
  });
});
