// Consensus: a summary (mode, height, view, leader, QCs, view changes, pacemaker, phase times), the
// validator set, the modules' panels (extensions.ts `consensusPanels`), then each route's full answer; polled every 2 s. Developer-profile routes a node does
// not expose show their 503 answer instead.

import { html } from 'htm/preact';
import { useContext } from 'preact/hooks';
import type { Answer } from './api.js';
import { PathsContext } from './context.js';
import { EXTENSIONS } from './extensions.js';
import { usePoll } from './hooks.js';
import { Facts, Json, Loaded, Page, short, Table } from './parts.js';

const EVERY_MS = 2000;

interface Qc {
  height: number;
  view: number;
}
interface Status {
  mode: string;
  height: number;
  view: number;
  leader_index: number;
  view_changes: number;
  highest_qc?: Qc;
  locked_qc?: Qc;
}
interface Leader {
  leader_index: number;
  leader_peer_id: string;
}
interface Pacemaker {
  round_in_progress: boolean;
  view_timeout_remaining_ms: number;
  view_timeout_target_ms: number;
}
interface Phases {
  average?: { propose_us: number; collect_votes_us: number; commit_us: number; total_us: number };
}
interface ValidatorSets {
  items: { height: number; validator_set: { peer: string }[] }[];
}

const PANELS: [string, string][] = [
  ['Status', '/v1/consensus/status'],
  ['Leader', '/v1/consensus/leader'],
  ['Latest quorum certificate', '/v1/consensus/qc'],
  ['Pacemaker', '/v1/consensus/pacemaker'],
  ['Phases', '/v1/consensus/phases'],
];

const qc = (q: Qc | undefined) => (q === undefined ? '–' : `height ${q.height}, view ${q.view}`);
const ms = (us: number | undefined) => (us === undefined ? '–' : `${(us / 1000).toFixed(1)} ms`);
const body = <T>(a: Answer<T> | undefined): T | undefined => (a?.ok ? a.body : undefined);

function Summary() {
  const status = usePoll<Status>('/v1/consensus/status', EVERY_MS);
  const leader = body(usePoll<Leader>('/v1/consensus/leader', EVERY_MS));
  const pace = body(usePoll<Pacemaker>('/v1/consensus/pacemaker', EVERY_MS));
  const avg = body(usePoll<Phases>('/v1/consensus/phases', EVERY_MS))?.average;
  return html`<${Loaded} answer=${status}>
    ${(s: Status) => html`<${Facts}
      items=${[
        ['Mode', s.mode],
        ['Height', s.height],
        ['View', s.view],
        [
          'Leader',
          leader
            ? html`${leader.leader_index} <span class="mono">${short(leader.leader_peer_id)}</span>`
            : s.leader_index,
        ],
        ['Highest QC', qc(s.highest_qc)],
        ['Locked QC', qc(s.locked_qc)],
        ['View changes', s.view_changes],
        [
          'Pacemaker',
          pace
            ? `${pace.round_in_progress ? 'round in progress' : 'idle'}, ${pace.view_timeout_remaining_ms} / ${pace.view_timeout_target_ms} ms`
            : '–',
        ],
        [
          'Propose / votes / commit (avg)',
          avg ? `${ms(avg.propose_us)} / ${ms(avg.collect_votes_us)} / ${ms(avg.commit_us)}` : '–',
        ],
      ]}
    />`}
  <//>`;
}

function Validators() {
  const sets = usePoll<ValidatorSets>('/v1/consensus/validator-sets', EVERY_MS);
  return html`<${Loaded} answer=${sets}>
    ${(v: ValidatorSets) => {
      const latest = v.items[v.items.length - 1];
      return html`<${Table}
        caption=${`Validator set${latest ? ` (from height ${latest.height})` : ''}`}
        rows=${latest?.validator_set ?? []}
        columns=${[{ label: 'Peer', cell: (p: { peer: string }) => html`<span class="mono">${p.peer}</span>` }]}
      />`;
    }}
  <//>`;
}

function Panel({ title, path }: { title: string; path: string }) {
  const answer = usePoll<unknown>(path, EVERY_MS);
  return html`<section class="panel" aria-label=${title}>
    <h3>${title} <code class="muted">${path}</code></h3>
    <${Loaded} answer=${answer}>${(v: unknown) => html`<${Json} value=${v} label=${title} />`}<//>
  </section>`;
}

export function Consensus() {
  const paths = useContext(PathsContext);
  return html`<${Page} title="Consensus">
    <${Summary} />
    <${Validators} />
    ${EXTENSIONS.flatMap((x) => x.consensusPanels ?? [])
      .filter((p) => paths.has(p.path))
      .map(({ path, Panel }) => html`<${Panel} key=${path} everyMs=${EVERY_MS} />`)}
    <h2>Answers</h2>
    <div class="panels">${PANELS.map(([t, p]) => html`<${Panel} key=${p} title=${t} path=${p} />`)}</div>
  <//>`;
}
