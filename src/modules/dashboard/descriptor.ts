// The web dashboard (docs/dashboard.md): the static files of the browser UI under /dashboard/, built
// from ui/ by build.mjs. It needs nothing of the ledger (no instruction, table, event or rejection):
// only its route family and its docs. Its configuration section `[dashboard]` stays a core section of
// src/config/schema.ts: as a module section it would be written after the core's sections and change the generated
// configuration (see README.md).

import type { LedgerModule } from '../descriptor.js';
import { DASHBOARD_DOC_SECTIONS, DASHBOARD_HOSTED_DOC_SECTIONS } from './docs.js';
import { builtDashboard } from './family.js';

export const dashboardModule: LedgerModule = {
  name: 'dashboard',
  instructions: {},
  tables: [],
  schemaTypes: [],
  events: [],
  rejections: [],
  // Not part of the application API (gated by the telemetry profile); built only with
  // `dashboard.enabled` and a built bundle (else logged, and nothing is registered: 404).
  routes: (env) => {
    const c = env.config.dashboard;
    if (!c.enabled) return undefined;
    return builtDashboard(env.deps.profile, env.logError, undefined, c.connectSrc)[0];
  },
  docs: 'docs/dashboard.md',
  docSections: DASHBOARD_DOC_SECTIONS,
  // The modules that add to the dashboard say what on its page (docs/dashboard.md "Ledger modules").
  hostsDocSections: DASHBOARD_HOSTED_DOC_SECTIONS,
};
