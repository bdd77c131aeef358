// The dashboard's shell: header with navigation and search, hash routing (`#/account/<id>`, so the
// static files work from any path), the live feed shared by every page. The chain's pages (blocks,
// transactions, lists) and every other ledger module's pages come from the modules (extensions.ts).

import { html } from 'htm/preact';
import { useContext } from 'preact/hooks';
import { AccountPage } from './accounts.js';
import { Consensus } from './consensus.js';
import { PathsContext } from './context.js';
import { EXTENSIONS, type ModulePage } from './extensions.js';
import { type Route, useRoute } from './hooks.js';
import { Overview } from './overview.js';
import { Page } from './parts.js';
import { SearchForm, SearchPage } from './search.js';
import { Settings } from './settings.js';

function Content({ route }: { route: Route }) {
  const [page = '', arg = ''] = route.parts;
  switch (page) {
    case '':
      return html`<${Overview} />`;
    case 'account':
      return html`<${AccountPage} id=${arg} />`;
    case 'consensus':
      return html`<${Consensus} />`;
    case 'settings':
      return html`<${Settings} />`;
    case 'search':
      return html`<${SearchPage} q=${route.query.get('q') ?? ''} />`;
    default: {
      const own = modulePage(page);
      if (own !== undefined) return html`<${own.Page} arg=${arg} />`;
      return html`<${Page} title="Not found"><p>No such page. <a href="#/">Back to the overview</a>.</p><//>`;
    }
  }
}

/** The ledger modules' pages (extensions.ts), in module folder order. */
const MODULE_PAGES: readonly ModulePage[] = EXTENSIONS.flatMap((x) => x.pages ?? []);

function modulePage(route: string): ModulePage | undefined {
  return MODULE_PAGES.find((p) => p.route === route);
}

export function App() {
  const route = useRoute();
  const paths = useContext(PathsContext);
  const listed = (leading: boolean): [string, string][] =>
    MODULE_PAGES.filter(
      (p) =>
        p.title !== undefined &&
        p.path !== undefined &&
        paths.has(p.path) &&
        (p.leading ?? false) === leading,
    ).map((p): [string, string] => [`#/${p.route}`, p.title ?? p.route]);
  const links: [string, string][] = [
    ['#/', 'Overview'],
    ...listed(true),
    ['#/consensus', 'Consensus'],
    ...listed(false),
    ['#/settings', 'Settings'],
  ];
  const here = `#/${route.parts[0] ?? ''}`;
  return html`
    <a class="skip" href="#main" onClick=${(e: Event) => {
      e.preventDefault();
      document.getElementById('main')?.focus();
    }}>Skip to content</a>
    <header>
      <span class="brand">torana</span>
      <nav aria-label="Pages">
        <ul>${links.map(([h, t]) => html`<li><a href=${h} aria-current=${h === here ? 'page' : undefined}>${t}</a></li>`)}</ul>
      </nav>
      <${SearchForm} />
    </header>
    <main id="main" tabindex="-1"><${Content} route=${route} /></main>
  `;
}
