// Settings: which node the dashboard reads (stored in localStorage; the page reloads to use it), then the
// modules' sections (extensions.ts `settings`, e.g. the operator sign-in that opens the pages read with an
// operator session, session.ts). docs/dashboard.md "Another node" and "Operator sign-in".

import { html } from 'htm/preact';
import { useContext, useState } from 'preact/hooks';
import { NODE_URL, NODE_URL_KEY, normaliseNodeUrl, SERVING_NODE } from './api.js';
import { PathsContext } from './context.js';
import { EXTENSIONS, type SettingsSection } from './extensions.js';
import { Page } from './parts.js';

const value = (e: Event) => (e.target as HTMLInputElement).value;

function NodeSetting() {
  const [url, setUrl] = useState(NODE_URL === SERVING_NODE ? '' : NODE_URL);
  const [error, setError] = useState('');
  const save = (e: Event) => {
    e.preventDefault();
    if (url.trim() === '') localStorage.removeItem(NODE_URL_KEY);
    else {
      const u = normaliseNodeUrl(url);
      if (u === undefined) return setError('Enter an http or https URL without query or fragment.');
      localStorage.setItem(NODE_URL_KEY, u);
    }
    location.reload();
  };
  return html`<section aria-labelledby="node-title">
    <h2 id="node-title">Node</h2>
    <p>Reading <strong class="mono" data-testid="node-url">${NODE_URL}</strong>${NODE_URL === SERVING_NODE ? ' (the node serving this page)' : ''}.</p>
    <form class="settings" onSubmit=${save}>
      <label for="node-url">Node URL (empty: the node serving this page)</label>
      <input id="node-url" type="url" value=${url} placeholder=${SERVING_NODE} onInput=${(e: Event) => setUrl(value(e))} />
      <button type="submit">Use this node</button>
    </form>
    ${error === '' ? null : html`<p class="error" role="alert">${error}</p>`}
    <p class="muted">Another node must allow this page's origin (its <code>gateway.cors_origins</code>), and the node
      serving this page must allow that node in <code>dashboard.connect_src</code>.</p>
  </section>`;
}

/** The modules' sections of the settings page (extensions.ts), in module folder order. */
const SECTIONS: readonly SettingsSection[] = EXTENSIONS.flatMap((x) => x.settings ?? []);

export function Settings() {
  const paths = useContext(PathsContext);
  const shown = SECTIONS.filter((s) => s.paths.some((p) => paths.has(p)));
  return html`<${Page} title="Settings"><${NodeSetting} />${shown.map((s) => html`<${s.Section} />`)}<//>`;
}
