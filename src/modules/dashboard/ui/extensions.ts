// What the ledger modules add to the dashboard (docs/dashboard.md "Ledger modules"): panels on
// an account's page and on the consensus page, look-ups for the search box, sections of the settings page and whole pages of their own. Each module that adds something has a
// `src/modules/<name>/dashboard.ts` whose default export is a `DashboardExtension`; the bundle build
// (../build.mjs, module-dashboards.mjs) finds those files by convention and hands them over, in module folder
// order, as `torana:module-dashboards`, so no dashboard file names a module.

import moduleDashboards from 'torana:module-dashboards';
import type { FunctionComponent } from 'preact';

/** A page the search text names. */
export interface Match {
  what: string;
  to: string;
}

/** A panel on an account's page, shown when the node serves `path` (from its OpenAPI document). */
export interface AccountPanel {
  readonly path: string;
  readonly Panel: FunctionComponent<{ id: string }>;
}

/**
 * A panel on the consensus page, shown when the node serves `path` (from its OpenAPI document) and
 * polled with the page (every `everyMs`).
 */
export interface ConsensusPanel {
  readonly path: string;
  readonly Panel: FunctionComponent<{ everyMs: number }>;
}

/**
 * A page of its own at `#/<route>` (its argument: the next part of the hash; its query: `useRoute`),
 * listed in the navigation as `title` when the node serves `path` (from its OpenAPI document): right
 * after the overview when `leading` (the chain's own pages), else after the consensus page. A page
 * without a title is not listed (one item, reached by its links). Its route never shadows one of the
 * dashboard's own pages.
 */
export interface ModulePage {
  readonly route: string;
  readonly title?: string;
  readonly path?: string;
  readonly leading?: boolean;
  readonly Page: FunctionComponent<{ arg: string }>;
}

/**
 * A section of the settings page, after the node setting, shown when the node serves one of `paths` (from
 * its OpenAPI document).
 */
export interface SettingsSection {
  readonly paths: readonly string[];
  readonly Section: FunctionComponent;
}

/** A committed block as the live feed lists it. */
export interface RecentBlock {
  height: number;
  hash: string;
  creation_time_ms: number;
}

export interface DashboardExtension {
  /** Its pages, listed in the navigation after the dashboard's own ledger pages. */
  readonly pages?: readonly ModulePage[];
  /** Panels on an account's page, after its summary. */
  readonly accountPanels?: readonly AccountPanel[];
  /** Panels on the consensus page, after the validator set. */
  readonly consensusPanels?: readonly ConsensusPanel[];
  /**
   * The pages a search text names by the module's own names or forms (a height, a hash): `text` is
   * trimmed, holds no `#`, and is no account id; none when it has no form the module knows.
   */
  readonly search?: (text: string) => Promise<Match[]>;
  /**
   * True for a search text that is one of the module's own forms (a block height, a hash): such a text is
   * looked up by the modules owning it only, not as another module's name or a domain id.
   */
  readonly owns?: (text: string) => boolean;
  /** What the search box's placeholder adds for it (a word or two). */
  readonly searchHint?: string;
  /** Its sections of the settings page. */
  readonly settings?: readonly SettingsSection[];
  /**
   * The newest `n` committed blocks, newest first: on every (re)connection of the live feed they join
   * it, so a page that had no event id to resume from still shows the blocks committed meanwhile.
   */
  readonly recentBlocks?: (n: number) => Promise<RecentBlock[]>;
}

/** Every module's additions, in module folder order. */
export const EXTENSIONS: readonly DashboardExtension[] = moduleDashboards;
