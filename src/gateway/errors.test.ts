// Declares the ledger modules' wire pieces (their rejection codes) before the checks below.
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { REJECTION_CODES } from '../model/rejections.js';
import { REJECTION_NUMBERS, type RejectionCode } from '../model/tags.js';
import { declaredWires } from '../state/module-wire.js';
import { toGatewayError } from './error-reply.js';
import { createErrorRegistry, ERRORS, GatewayError, gatewayError } from './errors.js';

const ROW = /^\|\s*`([a-z0-9_]+)`\s*\|\s*(\d{3})\s*\|\s*(.+?)\s*\|$/;

/** `| code | HTTP status | meaning |` rows of docs/errors.md, per table (ledger rejection numbers are not HTTP rows). */
function documentedTables(): Map<string, number>[] {
  const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const tables: Map<string, number>[] = [];
  let current: Map<string, number> | undefined;
  for (const line of text.split('\n')) {
    const m = ROW.exec(line);
    if (m === null) {
      if (!line.startsWith('|')) current = undefined;
      continue;
    }
    if (current === undefined) {
      current = new Map();
      tables.push(current);
    }
    assert.ok(!current.has(m[1]!), `docs/errors.md lists ${m[1]} twice`);
    assert.ok(m[3]!.trim().length > 10, `docs/errors.md: ${m[1]} needs a meaning`);
    current.set(m[1]!, Number(m[2]));
  }
  return tables;
}

function sameCodes(
  documented: Map<string, number>,
  specs: Readonly<Record<string, { status: number }>>,
): void {
  assert.deepEqual([...documented.keys()].sort(), Object.keys(specs).sort());
  for (const [code, status] of documented) assert.equal(status, specs[code]!.status, code);
}

describe('error registry', () => {
  it("docs/errors.md: the first table is exactly the gateway's own registry", () => {
    sameCodes(documentedTables()[0]!, ERRORS);
  });

  it('every ledger rejection code is documented with its number: the core in docs/errors.md, a module on its page', () => {
    const rowsOf = (page: string): Map<string, number> => {
      const text = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
      const rows = new Map<string, number>();
      for (const line of text.split('\n')) {
        const m = /^\|\s*`([a-z0-9_]+)`\s*\|\s*R(\d+)\s*\|/.exec(line);
        if (m !== null) rows.set(m[1]!, Number(m[2]));
      }
      return rows;
    };
    const moduleCodes = new Set<string>();
    for (const w of declaredWires()) {
      const own = Object.keys(w.rejections ?? {}).sort();
      for (const c of own) moduleCodes.add(c);
      const rows = rowsOf(w.docs);
      assert.deepEqual(
        own.map((c) => [c, rows.get(c)]),
        own.map((c) => [c, REJECTION_NUMBERS[c as RejectionCode]]),
        `${w.docs} lists the ${w.name} module's rejection codes with their numbers`,
      );
    }
    assert.deepEqual(
      Object.fromEntries([...rowsOf('docs/errors.md')].sort()),
      Object.fromEntries(
        Object.entries(REJECTION_NUMBERS)
          .filter(([c]) => !moduleCodes.has(c))
          .sort(),
      ),
      'docs/errors.md lists exactly the core codes',
    );
    assert.deepEqual(
      Object.keys(REJECTION_CODES).sort(),
      Object.keys(REJECTION_NUMBERS).sort(),
      'every code has a meaning',
    );
  });

  it('has every code the brief requires, with its status', () => {
    const required: Record<string, number> = {
      unsupported_media_type: 415,
      not_acceptable: 406,
      body_too_large: 413,
      headers_too_large: 431,
      not_found: 404,
      rate_limited: 429,
      stream_limit_reached: 429,
      invalid_pagination: 400,
      unsupported_api_version: 400,
      invalid_api_version: 400,
      telemetry_profile_restricted: 503,
      operator_access_disabled: 403,
      operator_auth_missing: 401,
      operator_auth_invalid: 401,
      operator_replay: 401,
      request_timeout: 408,
      internal_error: 500,
    };
    for (const [code, status] of Object.entries(required)) {
      assert.equal((ERRORS as Record<string, { status: number }>)[code]?.status, status, code);
    }
  });

  it('extends with extra codes and refuses redefinitions, bad names and non-error statuses', () => {
    const r = createErrorRegistry({ queue_full: { status: 429, message: 'Queue full.' } });
    const e = r.create('queue_full', { depth: 5 });
    assert.ok(e instanceof GatewayError);
    assert.deepEqual(e.toBody(), { code: 'queue_full', message: 'Queue full.', details: { depth: 5 } });
    assert.deepEqual(r.codesWithStatus(429), [
      'queue_full',
      'rate_limited',
      'request_nonces_full',
      'stream_limit_reached',
    ]);
    assert.throws(
      () => createErrorRegistry({ not_found: { status: 404, message: 'x' } }),
      /already registered/,
    );
    assert.throws(() => createErrorRegistry({ 'Bad-Code': { status: 400, message: 'x' } }), /snake_case/);
    assert.throws(() => createErrorRegistry({ fine: { status: 200, message: 'x' } }), /non-error status/);
    assert.throws(() => r.create('nope'), /unregistered/);
  });
});

describe('toGatewayError', () => {
  const known = (code: string) => createErrorRegistry().has(code);
  const cases: [unknown, string, boolean][] = [
    [{ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }, 'body_too_large', false],
    [{ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }, 'unsupported_media_type', false],
    [{ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }, 'invalid_json', false],
    [{ code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }, 'invalid_json', false],
    [{ code: 'FST_ERR_BAD_URL', statusCode: 400 }, 'bad_request', false],
    [{ statusCode: 405 }, 'method_not_allowed', false],
    [{ statusCode: 418 }, 'bad_request', false],
    [new TypeError('x is undefined'), 'internal_error', true],
    [new GatewayError('made_up', 400, 'x'), 'internal_error', true],
    [gatewayError('invalid_sort'), 'invalid_sort', false],
    ['a string', 'internal_error', true],
  ];
  for (const [err, code, bug] of cases) {
    it(`maps ${JSON.stringify(err) ?? String(err)} to ${code}`, () => {
      const r = toGatewayError(err, known);
      assert.equal(r.error.code, code);
      assert.equal(r.bug, bug);
    });
  }

  it('reports validation issues without echoing the raw error message', () => {
    const err = {
      code: 'FST_ERR_VALIDATION',
      statusCode: 400,
      validationContext: 'querystring',
      validation: Array.from({ length: 20 }, (_, i) => ({
        instancePath: `/f${i}`,
        message: 'must be integer',
      })),
    };
    const { error } = toGatewayError(err, known);
    assert.equal(error.details.location, 'querystring');
    assert.equal((error.details.issues as unknown[]).length, 10);
  });
});
