import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { POSTGRES_MISSING, postgresBin } from './postgres.js';

describe('postgresBin', () => {
  it('fails naming the Debian package when no PostgreSQL binaries are found', () => {
    assert.throws(() => postgresBin('/nonexistent/postgresql', '/nonexistent/bin'), {
      message: POSTGRES_MISSING,
    });
    assert.match(POSTGRES_MISSING, /Debian package `postgresql`/);
  });
});
