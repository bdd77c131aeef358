// The XML attack suite (docs/design/testing.md "Tests we keep"): every attack is refused with a
// typed error within 50 ms, and no file is opened and no connection made while parsing.

import assert from 'node:assert/strict';
import fs, { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { timingBound } from '../../../test/helpers/timing-bound.js';
import type { IsoError } from './errors.js';
import { parseMessage } from './parse.js';

const NS = 'urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09';
/** The budget per attack; typical times are well under 5 ms. */
const ATTACK_MS_MAX = 50;

/** Runs `fn` with file opening and socket connection trapped; returns what it returned and the trapped calls. */
function trapped<T>(fn: () => T): { value: T; calls: string[] } {
  const calls: string[] = [];
  const f = fs as unknown as Record<string, unknown>;
  const names = ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream'] as const;
  const saved = names.map((n) => f[n]);
  const savedPromises = [fs.promises.open, fs.promises.readFile];
  const savedConnect = Socket.prototype.connect;
  const trap = (name: string) => () => {
    calls.push(name);
    throw new Error(`trapped ${name}`);
  };
  for (const n of names) f[n] = trap(n);
  fs.promises.open = trap('promises.open') as typeof fs.promises.open;
  fs.promises.readFile = trap('promises.readFile') as typeof fs.promises.readFile;
  Socket.prototype.connect = trap('connect') as typeof Socket.prototype.connect;
  syncBuiltinESMExports();
  try {
    return { value: fn(), calls };
  } finally {
    names.forEach((n, i) => {
      f[n] = saved[i];
    });
    [fs.promises.open, fs.promises.readFile] = savedPromises as [
      typeof fs.promises.open,
      typeof fs.promises.readFile,
    ];
    Socket.prototype.connect = savedConnect;
    syncBuiltinESMExports();
  }
}

/** Parses the attack five times (the fastest of five is robust to a GC pause or a busy second core); asserts a typed refusal, the fastest time and no file or network access. */
function refuse(body: string, code: IsoError['code']): IsoError {
  let best = Number.POSITIVE_INFINITY;
  let last: IsoError | undefined;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const { value: result, calls } = trapped(() => parseMessage('pacs008', body));
    best = Math.min(best, performance.now() - started);
    assert.deepEqual(calls, [], 'no file opened, no connection made');
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.errors.length, 1);
      last = result.errors[0];
    }
  }
  assert.equal(last?.code, code, JSON.stringify(last));
  timingBound({
    what: `refusing ${code} (fastest of 5)`,
    value: best,
    max: ATTACK_MS_MAX,
    quietWithin: true,
  });
  return last!;
}

function pacs008With(msgId: string, prolog = ''): string {
  return `<?xml version="1.0"?>${prolog}<Document xmlns="${NS}"><FIToFICstmrCdtTrf><GrpHdr><MsgId>${msgId}</MsgId></GrpHdr></FIToFICstmrCdtTrf></Document>`;
}

describe('XML attack suite', () => {
  it('control: the trap sees file reads through named imports and socket connections', () => {
    const { calls } = trapped(() => {
      for (const attempt of [
        () => readFileSync('/etc/hostname'),
        () => new Socket().connect(9, '127.0.0.1'),
      ]) {
        assert.throws(attempt, /trapped/);
      }
    });
    assert.deepEqual(calls, ['readFileSync', 'connect']);
  });

  it('XXE: an external entity to a local file is refused before parsing and never read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'iso-xxe-'));
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-7f3a');
    try {
      for (const target of ['file:///etc/passwd', `file://${secret}`, 'http://127.0.0.1:9/evil.dtd']) {
        const e = refuse(
          pacs008With('&xxe;', `<!DOCTYPE Document [<!ENTITY xxe SYSTEM "${target}">]>`),
          'iso_xml_forbidden_construct',
        );
        assert.ok(!JSON.stringify(e).includes('TOP-SECRET'));
      }
      refuse(
        pacs008With('x', `<!doctype Document SYSTEM "file://${secret}">`),
        'iso_xml_forbidden_construct',
      );
      refuse(
        pacs008With('x', '<!DOCTYPE Document [<!ENTITY % p SYSTEM "http://127.0.0.1:9/p.dtd"> %p;]>'),
        'iso_xml_forbidden_construct',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('billion laughs: nested entity definitions are refused', () => {
    const defs = ['<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++)
      defs.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    refuse(pacs008With('&lol9;', `<!DOCTYPE lolz [${defs.join('')}]>`), 'iso_xml_forbidden_construct');
  });

  it('an entity reference without a declaration is malformed, not expanded', () => {
    refuse(pacs008With('&xxe;'), 'iso_xml_malformed');
  });

  it('deep nesting: 10,000 levels stop at the depth limit', () => {
    const deep = `<Document xmlns="${NS}">${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</Document>`;
    assert.match(refuse(deep, 'iso_xml_too_deep').message, /depthMax/);
  });

  it('huge attribute: a 100 KiB attribute value is refused', () => {
    const body = `<Document xmlns="${NS}" x="${'A'.repeat(100 * 1024)}"/>`;
    assert.match(refuse(body, 'iso_xml_too_large').message, /attribute value/);
  });

  it('huge body: 2 MiB is refused before scanning', () => {
    const body = pacs008With('x'.repeat(2 * 1024 * 1024));
    assert.match(refuse(body, 'iso_xml_too_large').message, /bodyBytesMax/);
  });

  it('element flood: more elements than elementsMax are refused', () => {
    const body = `<Document xmlns="${NS}">${'<a/>'.repeat(30_000)}</Document>`;
    assert.match(refuse(body, 'iso_xml_too_large').message, /elementsMax/);
  });

  it('attribute flood on one element is refused', () => {
    const attrs = Array.from({ length: 100 }, (_, i) => ` a${i}="1"`).join('');
    refuse(`<Document xmlns="${NS}"${attrs}/>`, 'iso_xml_too_large');
  });

  it('processing instructions and other declarations are refused', () => {
    refuse(
      pacs008With('x', '<?xml-stylesheet href="http://127.0.0.1:9/x.xsl"?>'),
      'iso_xml_forbidden_construct',
    );
    refuse(pacs008With('<?php echo 1; ?>'), 'iso_xml_forbidden_construct');
    refuse(pacs008With('x', '<!ELEMENT Document ANY>'), 'iso_xml_forbidden_construct');
  });

  it('prototype-polluting element names are a typed error', () => {
    refuse(
      `<Document xmlns="${NS}"><__proto__><polluted>yes</polluted></__proto__></Document>`,
      'iso_xml_malformed',
    );
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });
});
