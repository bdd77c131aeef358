// The fast paths of keys and ids (keys.ts, ids.ts, account-texts.ts) against the general path they stand in for:
// `decodeText` (read the wire form straight to text) vs decoding the binary parts and printing them, on
// valid encodings and random bytes — the same text, or the same error at the same offset; `encodeText`
// and the remembered encodings (codec/text.ts) vs parsing the text and encoding its parts, on canonical,
// non-canonical and broken texts — the same bytes, or the same error.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Codec } from '../codec/codec.js';
import { CodecError } from '../codec/errors.js';
import { decode, encode } from '../codec/frame.js';
import { Reader } from '../codec/reader.js';
import { Writer } from '../codec/writer.js';
import { publicKeyToText } from '../crypto/keys.js';
import {
  ACCOUNT_MEMO_WINDOW,
  ACCOUNT_TEXT_MEMO_MAX,
  ACCOUNT_TEXT_MEMO_MIN,
  accountTextMemoSlots,
  installAccountTexts,
} from './account-texts.js';
import { accountIdArb, assetIdArb, definitionIdArb, nftIdArb, publicKeyArb } from './arbitraries.test.js';
import {
  AccountId,
  AssetDefinitionId,
  AssetId,
  DomainId,
  NftId,
  parseAccountId,
  parseAssetId,
  parseDefinitionId,
  parseNftId,
  setUsualAccountReader,
} from './ids.js';
import { KEY_TEXT_MEMO_MAX, PublicKeyText, parsePublicKey } from './keys.js';
import { Name, nameProblem, writePlainAsciiName } from './names.js';

/** `value` after a round trip through `codec`'s wire form (the decode must succeed). */
function roundTrip<T>(codec: Codec<T>, value: T): T {
  const d = decode(codec, encode(codec, value), { bytesMax: 1 << 20, itemsMax: 1000, depthMax: 32 });
  assert.ok(d.ok);
  return d.value;
}

// The node's reader of the usual account id (account-texts.ts), as the node installs it at start: every
// AccountId and AssetId decoded below goes through it.
installAccountTexts();

type Decoder = (r: Reader) => string;

const toHexString = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The generic path for a public key: the PublicKeyBytes enum value, then its print. */
const keyReference: Decoder = (r) => {
  const v = PublicKeyText.children()[0]!.decode(r) as { kind: string; key: Uint8Array };
  return publicKeyToText({ algorithm: v.kind === 'Ed25519' ? 'ed25519' : 'bls12_381', bytes: v.key });
};

/** The generic path for a two-part id: its parts struct (entered like any struct), then the joined text. */
function partsReference(left: Decoder, sep: string, right: Decoder): Decoder {
  return (r) => {
    r.enter();
    const a = left(r);
    const b = right(r);
    r.leave();
    return a + sep + b;
  };
}

const plain =
  (c: Codec<string>): Decoder =>
  (r) =>
    c.decode(r);
const accountReference = partsReference(keyReference, '@', plain(DomainId));
const definitionReference = partsReference(plain(Name), '#', plain(DomainId));
const CASES: { name: string; codec: Codec<string>; reference: Decoder }[] = [
  { name: 'PublicKey', codec: PublicKeyText, reference: keyReference },
  { name: 'AccountId', codec: AccountId, reference: accountReference },
  { name: 'AssetDefinitionId', codec: AssetDefinitionId, reference: definitionReference },
  { name: 'AssetId', codec: AssetId, reference: partsReference(definitionReference, '#', accountReference) },
  { name: 'NftId', codec: NftId, reference: partsReference(plain(Name), '$', plain(DomainId)) },
];

type Outcome = { text: string; end: number } | { code: string; at: number | string | undefined };

function outcome(bytes: Uint8Array, depthMax: number, read: Decoder): Outcome {
  const r = new Reader(bytes, { bytesMax: 1 << 20, itemsMax: 1000, depthMax });
  try {
    const text = read(r);
    return { text, end: r.pos };
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    return { code: e.code, at: e.at };
  }
}

const KEY = 'ed0120' + 'AB'.repeat(32);
const SAMPLES = {
  PublicKey: [KEY, 'ea0130' + '0F'.repeat(48)],
  AccountId: [`${KEY}@wonderland`],
  AssetDefinitionId: ['rose#wonderland'],
  AssetId: [`rose#wonderland#${KEY}@garden`],
  NftId: ['deed$wonderland'],
} as const;

describe('direct text decoders match the generic path', () => {
  for (const { name, codec, reference } of CASES) {
    it(`${name}: valid encodings, truncations, depth limits and random bytes agree`, () => {
      for (const text of SAMPLES[name as keyof typeof SAMPLES]) {
        const bytes = encode(codec, text);
        const back = decode(codec, bytes, { bytesMax: 1 << 20, itemsMax: 1000, depthMax: 32 });
        assert.ok(back.ok && back.value === text, `${name} round trip`);
        for (let cut = 0; cut <= bytes.length; cut++) {
          for (const depth of [0, 1, 2, 32]) {
            const part = bytes.subarray(0, cut);
            assert.deepEqual(
              outcome(part, depth, (r) => codec.decode(r)),
              outcome(part, depth, reference),
            );
          }
        }
      }
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 160 }), fc.integer({ min: 0, max: 4 }), (bytes, depth) => {
          assert.deepEqual(
            outcome(bytes, depth, (r) => codec.decode(r)),
            outcome(bytes, depth, reference),
          );
        }),
        { numRuns: 2000 },
      );
    });
  }

  it('AccountId and AssetId: every byte of valid encodings changed, under tight limits, agree', () => {
    // The usual account id (one-byte key tag, one-byte domain length, plain ASCII domain) is read
    // straight to its text; each changed byte, length or limit either keeps it on that path or sends it
    // to the general one, and both must give the same text or the same error at the same offset.
    const replacements = [0x00, 0x01, 0x02, 0x20, 0x21, 0x23, 0x24, 0x40, 0x41, 0x7e, 0x7f, 0x80, 0xc3, 0xff];
    const cases = [
      { codec: AccountId, reference: accountReference, texts: [`${KEY}@a`, `${KEY}@wonderland`] },
      {
        codec: AccountId,
        reference: accountReference,
        texts: [`ea0130${'0F'.repeat(48)}@${'d'.repeat(127)}`, `${KEY}@${'d'.repeat(128)}`, `${KEY}@café`],
      },
      { codec: AssetId, reference: CASES[3]!.reference, texts: [`rose#wonderland#${KEY}@garden`] },
    ];
    for (const { codec, reference, texts } of cases) {
      for (const text of texts) {
        const valid = encode(codec, text);
        const inputs = [valid];
        for (let i = 0; i < valid.length; i++) {
          for (const x of replacements) {
            const changed = valid.slice();
            changed[i] = x;
            inputs.push(changed);
          }
        }
        for (const bytes of inputs) {
          for (const limits of [
            { bytesMax: 1 << 20, depthMax: 32 },
            { bytesMax: 5, depthMax: 32 },
            { bytesMax: 127, depthMax: 32 },
            { bytesMax: 1 << 20, depthMax: 1 },
            { bytesMax: 1 << 20, depthMax: 2 },
            { bytesMax: 1 << 20, depthMax: 3 },
          ]) {
            const read = (read: Decoder) => {
              const r = new Reader(bytes, { ...limits, itemsMax: 1000 });
              try {
                return { text: read(r), end: r.pos };
              } catch (e) {
                if (!(e instanceof CodecError)) throw e;
                return { code: e.code, at: e.at, message: e.message };
              }
            };
            assert.deepEqual(
              read((r) => codec.decode(r)),
              read(reference),
              `${text} ${toHexString(bytes)}`,
            );
          }
        }
      }
    }
  });

  it('remembered account texts: ids sharing key bytes or domains, and more ids than the memo holds', () => {
    const read = (text: string) => roundTrip(AccountId, text);
    const a = `ed0120AABBCCDD${'11'.repeat(28)}`;
    const b = `ed0120AABBCCDD${'22'.repeat(28)}`;
    const c = `ea0130AABBCCDD${'11'.repeat(44)}`;
    const ids = [`${a}@x`, `${a}@y`, `${a}@xy`, `${b}@x`, `${c}@x`, `${a}@x`, `${a}@${'x'.repeat(127)}`];
    for (let i = 0; i < 3; i++) for (const id of ids) assert.equal(read(id), id);
    const many = Array.from(
      { length: ACCOUNT_TEXT_MEMO_MAX + 500 },
      (_, i) => `ed0120${i.toString(16).toUpperCase().padStart(8, '0').repeat(8)}@d${i % 7}`,
    );
    for (let round = 0; round < 2; round++) for (const id of many) assert.equal(read(id), id);
  });

  it('the account text memo shrinks while ids do not recur and grows back when they do', () => {
    const read = (text: string) => assert.equal(roundTrip(AccountId, text), text);
    /** Distinct ids whose first key bytes (which pick a slot) are i's low bytes. */
    const id = (i: number) =>
      `ed0120${[i, i >> 8, i >> 16, i >> 24].map((b) => (b & 255).toString(16).toUpperCase().padStart(2, '0')).join('')}${'AB'.repeat(28)}@d`;
    // Every id new: each window of lookups has no hits, so the slots shrink to the minimum.
    let n = 1_000_000;
    for (let i = 0; i < 8 * ACCOUNT_MEMO_WINDOW; i++) read(id(n++));
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MIN);
    // The same few ids again and again: the windows hit, the slots grow back to the maximum.
    for (let i = 0; i < 8 * ACCOUNT_MEMO_WINDOW; i++) read(id(i % 24));
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MAX);
    // Each id read twice in a row (an authority, then the account inside its asset id), never again:
    // for two ids in three: fewer than half the lookups hit, which shrinks the slots again.
    for (let i = 0; i < 8 * ACCOUNT_MEMO_WINDOW; i++) {
      read(id(n));
      if (i % 3 !== 0) read(id(n));
      n++;
    }
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MIN);
  });

  it('AccountId reads the usual id through the installed reader only, and through its parts without one', () => {
    const read = (text: string) => assert.equal(roundTrip(AccountId, text), text);
    const id = (i: number) =>
      `ed0120${[i, i >> 8, i >> 16, i >> 24].map((b) => (b & 255).toString(16).toUpperCase().padStart(2, '0')).join('')}${'CD'.repeat(28)}@e`;
    // Recurring ids through the installed reader: its memo grows to the maximum.
    for (let i = 0; i < 8 * ACCOUNT_MEMO_WINDOW; i++) read(id(i % 24));
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MAX);
    let n = 2_000_000;
    try {
      // No reader (as in the SDK's builds): new ids read through their parts, the memo never consulted.
      setUsualAccountReader(undefined);
      for (let i = 0; i < 8 * ACCOUNT_MEMO_WINDOW; i++) read(id(n++));
      assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MAX);
    } finally {
      installAccountTexts();
    }
    // Installed again: the same stream of new ids goes through the memo, which shrinks.
    for (let i = 0; i < 8 * ACCOUNT_MEMO_WINDOW; i++) read(id(n++));
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MIN);
  });

  it('remembered key texts: keys sharing their first bytes, and more keys than the memo holds', () => {
    const read = (text: string) => roundTrip(PublicKeyText, text);
    const a = `ed0120AABBCCDD${'11'.repeat(28)}`;
    const b = `ed0120AABBCCDD${'22'.repeat(28)}`;
    const c = `ea0130AABBCCDD${'11'.repeat(44)}`;
    for (let i = 0; i < 3; i++) for (const k of [a, b, c, a]) assert.equal(read(k), k);
    const many = Array.from(
      { length: KEY_TEXT_MEMO_MAX + 500 },
      (_, i) => `ed0120${i.toString(16).toUpperCase().padStart(8, '0').repeat(8)}`,
    );
    for (let round = 0; round < 2; round++) for (const k of many) assert.equal(read(k), k);
  });

  it('a remembered encoding is never used for a different or invalid text', () => {
    const canonical = `${KEY}@wonderland`;
    const lower = `${KEY.toLowerCase()}@wonderland`;
    assert.deepEqual(encode(AccountId, lower), encode(AccountId, canonical));
    assert.deepEqual(encode(AccountId, canonical), encode(AccountId, lower));
    assert.throws(() => encode(AccountId, `${KEY}@wonder land`), { code: 'codec_invalid_value' });
    assert.throws(() => encode(AccountId, `${KEY}@wonder land`), { code: 'codec_invalid_value' });
  });
});

/** The general encoding path of each id: parse the text, encode the binary parts. */
const keyBytes = PublicKeyText.children()[0]!;
function keyParts(text: string) {
  const k = parsePublicKey(text);
  return k === undefined
    ? undefined
    : { kind: k.algorithm === 'ed25519' ? 'Ed25519' : 'Bls12381', key: k.bytes };
}
const ENCODERS: {
  name: string;
  codec: Codec<string>;
  reference: (w: Writer, text: string) => void;
  arb: fc.Arbitrary<string>;
}[] = [
  {
    name: 'PublicKey',
    codec: PublicKeyText,
    arb: publicKeyArb,
    reference: (w, t) => keyBytes.encode(w, need(keyParts(t))),
  },
  {
    name: 'AccountId',
    codec: AccountId,
    arb: accountIdArb,
    reference: (w, t) => {
      const a = need(parseAccountId(t));
      keyBytes.encode(w, need(keyParts(a.signatory)));
      w.string(a.domain);
    },
  },
  {
    name: 'AssetDefinitionId',
    codec: AssetDefinitionId,
    arb: definitionIdArb,
    reference: (w, t) => names(w, need(parseDefinitionId(t))),
  },
  { name: 'NftId', codec: NftId, arb: nftIdArb, reference: (w, t) => names(w, need(parseNftId(t))) },
  {
    name: 'AssetId',
    codec: AssetId,
    arb: assetIdArb,
    reference: (w, t) => {
      const a = need(parseAssetId(t));
      names(w, need(parseDefinitionId(a.definition)));
      const acct = need(parseAccountId(a.account));
      keyBytes.encode(w, need(keyParts(acct.signatory)));
      w.string(acct.domain);
    },
  },
];

function need<T>(v: T | undefined): T {
  if (v === undefined) throw new CodecError('codec_invalid_value', 'malformed');
  return v;
}

function names(w: Writer, v: { name: string; domain: string }): void {
  w.string(v.name);
  w.string(v.domain);
}

function encodeOutcome(write: (w: Writer) => void): string {
  const w = new Writer(16);
  try {
    write(w);
    return Buffer.from(w.finish()).toString('hex');
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    return e.code;
  }
}

/** Texts near a valid one: a changed, dropped or doubled character, lower case, another separator. */
function variants(text: string, at: number, ch: string): string[] {
  const i = at % (text.length + 1);
  return [
    text,
    text.toLowerCase(),
    text.slice(0, i) + ch + text.slice(i + 1),
    text.slice(0, i) + text.slice(i + 1),
    text.slice(0, i) + ch + text.slice(i),
    ` ${text}`,
  ];
}

describe('direct text encoders and remembered encodings match the general path', () => {
  for (const { name, codec, reference, arb } of ENCODERS) {
    it(`${name}: canonical, non-canonical and broken texts, each encoded twice`, () => {
      fc.assert(
        fc.property(
          arb,
          fc.nat(),
          fc.constantFrom('@', '#', '$', 'a', 'F', 'g', ' ', 'é', '０', '\u0000'),
          (text, at, ch) => {
            for (const t of variants(text, at, ch)) {
              const expected = encodeOutcome((w) => reference(w, t));
              for (let round = 0; round < 2; round++) {
                assert.equal(
                  encodeOutcome((w) => codec.encode(w, t)),
                  expected,
                  `${name} ${JSON.stringify(t)} round ${round}`,
                );
              }
            }
          },
        ),
        { numRuns: 400 },
      );
    });
  }
});

describe('fast paths with non-ASCII ids and many texts', () => {
  const limits = { bytesMax: 1 << 20, itemsMax: 1000, depthMax: 32 };
  const roundTrip = (codec: Codec<string>, text: string) => {
    const bytes = encode(codec, text);
    const back = decode(codec, bytes, limits);
    assert.ok(back.ok, text);
    assert.equal(back.value, text);
    return Buffer.from(bytes).toString('hex');
  };

  it('non-ASCII names round-trip with the bytes of the general path, twice (fresh and remembered)', () => {
    const key = `ed0120${'0A'.repeat(32)}`;
    const utf8 = (s: string) => Buffer.from(s, 'utf8');
    const str = (s: string) => `${utf8(s).length.toString(16).padStart(2, '0')}${utf8(s).toString('hex')}`;
    const keyHex = `00${'0a'.repeat(32)}`;
    for (let round = 0; round < 2; round++) {
      assert.equal(roundTrip(AccountId, `${key}@café`), keyHex + str('café'));
      assert.equal(roundTrip(AccountId, `${key}@ジャパン`), keyHex + str('ジャパン'));
      assert.equal(roundTrip(AssetId, `rosé#жар#${key}@😀`), str('rosé') + str('жар') + keyHex + str('😀'));
      assert.equal(
        roundTrip(AssetId, `rose#garden#${key}@mañana`),
        str('rose') + str('garden') + keyHex + str('mañana'),
      );
      assert.equal(roundTrip(AssetDefinitionId, 'ß#é'), str('ß') + str('é'));
    }
  });

  it('a lone surrogate or a bad key in an id is a typed error, whichever path it takes', () => {
    const key = `ed0120${'0A'.repeat(32)}`;
    for (const bad of [`${key}@x\uD800`, `rose#x\uD800#${key}@a`, `rose#a#${key.replace('0A', '0a')}X@b`]) {
      const codec = bad.includes('#') ? AssetId : AccountId;
      const w = new Writer(8);
      w.u8(7);
      assert.throws(() => codec.encode(w, bad), CodecError, bad);
    }
  });

  it('more distinct ids than the memo holds, with long names, keep their exact bytes', () => {
    const long = 'n'.repeat(120);
    const many = Array.from({ length: 5000 }, (_, i) => {
      const key = `ed0120${i.toString(16).toUpperCase().padStart(8, '0').repeat(8)}`;
      return `${long}#${long}#${key}@${i % 2 === 0 ? long : 'é'.repeat(40)}`;
    });
    const first = many.map((t) => roundTrip(AssetId, t));
    const again = many.map((t) => roundTrip(AssetId, t));
    assert.deepEqual(again, first);
    // A remembered encoding is copied into a writer that already holds bytes, at its position.
    const w = new Writer(4);
    w.u8(0xee);
    AssetId.encode(w, many[0]!);
    assert.equal(Buffer.from(w.finish()).toString('hex'), `ee${first[0]}`);
  });
});

describe('plain ASCII names written in place', () => {
  it('give the bytes of the string codec at every length and each character, or write nothing', () => {
    const chars = ['a', 'Z', '~', '!', ' ', '#', '$', '@', '\u007f', 'é', '\u0000'];
    for (const n of [0, 1, 2, 63, 64, 126, 127, 128, 129, 200]) {
      for (const ch of chars) {
        for (const at of [0, n >> 1, n - 1]) {
          const name = n === 0 ? '' : 'n'.repeat(at) + ch + 'n'.repeat(Math.max(0, n - at - 1));
          // Inside a longer text, as ids hold their names.
          const text = `x#${name}#y`;
          const w = new Writer(4);
          w.u8(0xee);
          const wrote = writePlainAsciiName(w, text, 2, 2 + name.length);
          const plain = name.length > 0 && [...name].every((c) => c >= '!' && c <= '~' && !'#$@'.includes(c));
          assert.equal(wrote, plain && name.length <= 128, JSON.stringify(name));
          if (wrote) {
            assert.equal(nameProblem(name), undefined);
            const expected = new Writer(4);
            expected.u8(0xee);
            expected.string(name);
            assert.deepEqual(w.finish(), expected.finish(), `${n} ${JSON.stringify(ch)}`);
          } else assert.deepEqual(w.finish(), new Uint8Array([0xee]), 'nothing written');
        }
      }
    }
  });
});
