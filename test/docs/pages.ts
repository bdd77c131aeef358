// The pages whose shell examples the doc-example tests read: README.md and docs/**/*.md.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/ts-entry.js';
import { type DocBlock, shellBlocks } from './extract.js';

export function docPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
    .sort();
  return ['README.md', ...docs];
}

/** Every page's shell blocks, in page order. */
export function docBlocks(): Map<string, DocBlock[]> {
  const out = new Map<string, DocBlock[]>();
  for (const page of docPages()) {
    const blocks = shellBlocks(page, readFileSync(join(ROOT, page), 'utf8'));
    if (blocks.length > 0) out.set(page, blocks);
  }
  return out;
}
