// The dashboard's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/security.md): what the page may load and connect to, and what the server serves. And the section
// it hosts on its own page, docs/dashboard.md, which the modules that add to the dashboard fill (each
// with a row saying what its `dashboard.ts` adds).

import type { DocSectionPlace, ModuleDocSections } from '../descriptor.js';

declare module '../descriptor.js' {
  interface HostedDocSectionNames {
    /** A `| module | adds |` row of docs/dashboard.md: what a module's `dashboard.ts` adds to its pages. */
    'dashboard-additions': true;
  }
}

/** The sections the dashboard hosts on docs/dashboard.md. */
export const DASHBOARD_HOSTED_DOC_SECTIONS: Readonly<Record<'dashboard-additions', DocSectionPlace>> = {
  'dashboard-additions': {
    page: 'docs/dashboard.md',
    head: ['| module | adds to the dashboard |', '| --- | --- |'],
    join: '\n',
  },
};

export const DASHBOARD_DOC_SECTIONS: ModuleDocSections = {
  'security-sections': [
    '## The dashboard\n\n' +
      'The web dashboard (docs/dashboard.md) is static files read once at start into a table: a URL is a key\n' +
      'of that table, never a file-system path, so no request reaches another file (unknown names answer 404\n' +
      '`not_found`). Every page carries a Content-Security-Policy that allows scripts and styles of its own\n' +
      "origin only (`'self'`; no inline script or style, no CDN, no framing), images of its own origin or\n" +
      'data: URLs, and connections to its own origin plus the origins of `dashboard.connect_src` (checked as\n' +
      'origins at load). It is served only by the `developer` and `full` telemetry profiles (503\n' +
      '`telemetry_profile_restricted` otherwise) and is absent with `dashboard.enabled = false`. Its operator\n' +
      "sign-in keeps the session token in the tab's sessionStorage; the operator's key signs in the browser\n" +
      'and is never stored or sent. Tests:\n' +
      '`src/modules/dashboard/family.test.ts`, `test/dashboard/served.test.ts`.',
  ],
};
