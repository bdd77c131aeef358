// Test-only: what the dashboard's browser suites share: console-error watching and the axe-core scan.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// What the functions evaluated in the page use of its globals (this file is type-checked without DOM).
declare const document: unknown;

/** Console errors of the page; `expectNetwork` lets failed loads pass while a test causes them. */
export class Console {
  errors: string[] = [];
  outage: string[] = [];
  expectNetwork = false;
  watch(page: Page) {
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      const text = m.text();
      // Only failed loads may pass, and only while a test expects them (an outage, a search for nothing).
      if (this.expectNetwork && /^Failed to load resource|ERR_CONNECTION_REFUSED/.test(text)) {
        this.outage.push(text);
      } else this.errors.push(text);
    });
    page.on('pageerror', (e) => this.errors.push(`page error: ${e.message}`));
  }
}

export async function axeScan(page: Page, name: string) {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe-core's global, injected above.
    const r = await (globalThis as any).axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: { id: string; impact: string; nodes: unknown[] }) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
    }));
  });
  const bad = result.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${name}: ${JSON.stringify(result)}`);
  return result;
}
