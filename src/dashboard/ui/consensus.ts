// Consensus: status, leader, latest QC, pacemaker, phase timings, validator sets and peers, polled.
// Developer-profile routes the node does not expose show their 503 answer instead.

import { html } from 'htm/preact';
import { usePoll } from './hooks.js';
import { Json, Loaded, Page } from './parts.js';

const PANELS: [string, string][] = [
  ['Status', '/v1/consensus/status'],
  ['Leader', '/v1/consensus/leader'],
  ['Latest quorum certificate', '/v1/consensus/qc'],
  ['Pacemaker', '/v1/consensus/pacemaker'],
  ['Phases', '/v1/consensus/phases'],
  ['Validator sets', '/v1/consensus/validator-sets'],
  ['Peers', '/peers'],
];

function Panel({ title, path }: { title: string; path: string }) {
  const answer = usePoll<unknown>(path, 2000);
  return html`<section class="panel" aria-label=${title}>
    <h2>${title} <code class="muted">${path}</code></h2>
    <${Loaded} answer=${answer}>${(v: unknown) => html`<${Json} value=${v} label=${title} />`}<//>
  </section>`;
}

export function Consensus() {
  return html`<${Page} title="Consensus">
    <div class="panels">${PANELS.map(([t, p]) => html`<${Panel} key=${p} title=${t} path=${p} />`)}</div>
  <//>`;
}
