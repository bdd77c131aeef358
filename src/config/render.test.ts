import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The registry adds the modules' sections to the schema (sections.ts): they are checked like the core's.
import '../modules/registry.js';
import { parse } from 'smol-toml';
import { configKeys } from './keys.js';
import { loadConfig } from './load.js';
import { configToJson, renderConfigToml, tomlString } from './render.js';
import { type Config, defaultConfig } from './schema.js';

function load(file: string): Config {
  const r = loadConfig({ file });
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.errors, null, 2));
  return r.config;
}

function custom(): Config {
  const r = loadConfig({
    overrides: {
      'node.chain_id': 'chain "quoted" \\ back\tslash\nnew line \u0001 \u007f é \u{1F600}',
      'gateway.port': 0,
      'gateway.cors_origins': ['https://a.example', 'x"y'],
      'storage.fsync': false,
      'storage.lmdb_map_bytes': 2 ** 40,
      'telemetry.profile': 'full',
      'iso20022.enabled': true,
    },
  });
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.errors));
  return r.config;
}

describe('renderConfigToml', () => {
  it('round-trips the defaults through loadConfig', () => {
    assert.deepEqual(load(renderConfigToml(defaultConfig())), defaultConfig());
  });

  it('round-trips a customised configuration, including awkward strings', () => {
    const c = custom();
    assert.deepEqual(load(renderConfigToml(c)), c);
    assert.deepEqual(load(renderConfigToml(c, { onlyNonDefault: true })), c);
  });

  it('writes every key with its doc comment, section by section', () => {
    const text = renderConfigToml(defaultConfig());
    for (const k of configKeys()) assert.ok(text.includes(`# ${k.spec.doc}\n${k.key} = `), k.path);
    assert.ok(text.includes('\n[gateway]\n'));
    assert.ok(text.includes('cors_origins = []\n'));
    assert.ok(text.includes('allowed_algorithms = ["ed25519"]\n'));
    assert.ok(text.includes('lmdb_map_bytes = 17179869184\n'));
  });

  it('writes only changed keys and their sections with onlyNonDefault', () => {
    const text = renderConfigToml(custom(), { onlyNonDefault: true });
    const keys = text
      .split('\n')
      .filter((l) => /^[a-z_0-9]+ = /.test(l))
      .map((l) => l.split(' ')[0]);
    assert.deepEqual(keys, [
      'chain_id',
      'port',
      'cors_origins',
      'fsync',
      'lmdb_map_bytes',
      'profile',
      'enabled',
    ]);
    assert.ok(!text.includes('[queue]'));
    const none = renderConfigToml(defaultConfig(), { onlyNonDefault: true });
    assert.ok(!none.includes('['), none);
  });
});

describe('tomlString', () => {
  it('escapes what TOML basic strings require and nothing else', () => {
    assert.equal(tomlString('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(tomlString('\b\t\n\f\r'), '"\\b\\t\\n\\f\\r"');
    assert.equal(tomlString('\u0000\u001f\u007f'), '"\\u0000\\u001f\\u007f"');
    assert.equal(tomlString('é \u{1F600}'), '"é \u{1F600}"');
  });

  it('is read back by a TOML parser as the same string', () => {
    const s = 'x\u0000\u0008\u000b\u001b\u007f"\\\'\u2028\u{10FFFF}';
    assert.equal((parse(`v = ${tomlString(s)}`) as { v: string }).v, s);
  });
});

describe('configToJson', () => {
  it('gives snake_case sections and keys, with copies of lists', () => {
    const json = configToJson(defaultConfig()) as Record<string, Record<string, unknown>>;
    assert.equal(json['gateway']?.['transaction_body_bytes_max'], 65536);
    assert.deepEqual(json['transaction']?.['allowed_algorithms'], ['ed25519']);
    assert.ok(!Object.isFrozen(json['transaction']?.['allowed_algorithms']));
    assert.deepEqual(Object.keys(json), Object.keys(defaultConfig()));
  });
});
