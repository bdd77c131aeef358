// The dashboard's shell: header with navigation and search, hash routing (`#/tx/<hash>`, so the
// static files work from any path), the live feed shared by every page.

import { html } from 'htm/preact';
import { useContext } from 'preact/hooks';
import { AccountPage } from './accounts.js';
import { AssetDefinition } from './assets.js';
import { Block, Blocks } from './blocks.js';
import { Consensus } from './consensus.js';
import { PathsContext } from './context.js';
import { EXTENSIONS, type ModulePage } from './extensions.js';
import { type Route, useRoute } from './hooks.js';
import { AccountsList, AssetDefinitions, Domain, Domains, Nfts } from './lists.js';
import { Overview } from './overview.js';
import { Page } from './parts.js';
import { SearchForm, SearchPage } from './search.js';
import { Settings } from './settings.js';
import { Transaction } from './tx.js';

const num = (v: string | null, d: number) => {
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : d;
};

function Content({ route }: { route: Route }) {
  const [page = '', arg = ''] = route.parts;
  switch (page) {
    case '':
      return html`<${Overview} />`;
    case 'blocks':
      return html`<${Blocks} page=${num(route.query.get('page'), 1)} />`;
    case 'block':
      return html`<${Block} height=${arg} />`;
    case 'tx':
      return html`<${Transaction} hash=${arg} />`;
    case 'accounts':
      return html`<${AccountsList} page=${num(route.query.get('page'), 1)} />`;
    case 'account':
      return html`<${AccountPage} id=${arg} />`;
    case 'assets':
      return html`<${AssetDefinitions} page=${num(route.query.get('page'), 1)} />`;
    case 'domains':
      return html`<${Domains} page=${num(route.query.get('page'), 1)} />`;
    case 'nfts':
      return html`<${Nfts} page=${num(route.query.get('page'), 1)} />`;
    case 'asset':
      return html`<${AssetDefinition} id=${arg} />`;
    case 'domain':
      return html`<${Domain} id=${arg} />`;
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
  const links: [string, string][] = [
    ['#/', 'Overview'],
    ['#/blocks', 'Blocks'],
    ['#/accounts', 'Accounts'],
    ['#/domains', 'Domains'],
    ['#/assets', 'Assets'],
    ['#/nfts', 'NFTs'],
    ['#/consensus', 'Consensus'],
    ...MODULE_PAGES.filter((p) => paths.has(p.path)).map((p): [string, string] => [`#/${p.route}`, p.title]),
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
