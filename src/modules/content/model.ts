// Content bundles (docs/content.md): the wire types of a bundle, its deterministic id, the limits of a
// manifest and the checks every manifest and access rule passes. Only the manifest is ledger state — the
// paths, sizes, SHA-256 digests and media types of a bundle's files; the bytes themselves are kept off
// chain by each node that was given them (store.ts) and served by the content routes (routes.ts).

import type { Infer } from '../../codec/codec.js';
import { enumOf, seq, struct } from '../../codec/compound.js';
import { string, u64 } from '../../codec/primitives.js';
import { blake2b256 } from '../../crypto/hash.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { toHex } from '../../util/hex.js';

/** Files one bundle lists. */
export const CONTENT_FILES_MAX = 256;
/** Bytes of a path (UTF-8; ASCII only in practice: see PATH_SEGMENT). */
export const CONTENT_PATH_BYTES_MAX = 256;
/** Bytes of a media type. */
export const CONTENT_TYPE_BYTES_MAX = 128;
/** Sum of the sizes of a bundle's files (256 MiB). */
export const CONTENT_TOTAL_BYTES_MAX = 256 * 1024 * 1024;
/** Accounts of an allow-list. */
export const CONTENT_ALLOW_LIST_MAX = 64;
/** Characters of a bundle id: 64 lowercase hex digits. */
export const CONTENT_ID_CHARS = 64;

export const ContentBundleIdCodec = string(CONTENT_ID_CHARS);

/** One file of a bundle: where it is served, how many bytes, their SHA-256 (hex), its media type. */
export const ContentFileCodec = struct('ContentFile', {
  path: string(CONTENT_PATH_BYTES_MAX),
  size: u64,
  sha256: string(64),
  contentType: string(CONTENT_TYPE_BYTES_MAX),
});
export type ContentFile = Infer<typeof ContentFileCodec>;

export const ContentManifestCodec = seq(ContentFileCodec, CONTENT_FILES_MAX);

/** Who may download a bundle's files: anyone, the holders of an asset, or listed accounts. */
export const ContentAccessCodec = enumOf('ContentAccess', {
  Public: {},
  HoldersOf: { definition: AssetDefinitionId },
  AllowList: { accounts: seq(AccountId, CONTENT_ALLOW_LIST_MAX) },
});
export type ContentAccess = Infer<typeof ContentAccessCodec>;

export const ContentStatusCodec = enumOf('ContentStatus', { Active: {}, Retired: {} });
export type ContentStatus = Infer<typeof ContentStatusCodec>;

/** A bundle: world-state table 0x20, keyed by its id. */
export const ContentBundleCodec = struct('ContentBundle', {
  id: ContentBundleIdCodec,
  owner: AccountId,
  manifest: ContentManifestCodec,
  totalBytes: u64,
  access: ContentAccessCodec,
  status: ContentStatusCodec,
});
export type ContentBundle = Infer<typeof ContentBundleCodec>;

const utf8 = new TextEncoder();

/** A path segment: letters, digits and `._~-`, never `.` or `..` alone. */
const PATH_SEGMENT = /^[A-Za-z0-9._~-]+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** `type/subtype` with an optional `; charset=…` (RFC 9110 tokens, lower case). */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(?:; ?charset=[a-z0-9_-]+)?$/;

/** Why `path` is not a bundle path, or undefined. */
export function pathProblem(path: string): string | undefined {
  if (path === '') return 'a path is empty';
  if (utf8.encode(path).length > CONTENT_PATH_BYTES_MAX)
    return `a path is at most ${CONTENT_PATH_BYTES_MAX} bytes`;
  for (const seg of path.split('/'))
    if (!PATH_SEGMENT.test(seg) || seg === '.' || seg === '..')
      return `path ${JSON.stringify(path)} has a segment outside [A-Za-z0-9._~-] (or . or ..)`;
  return undefined;
}

/** Why `manifest` cannot be registered, or undefined: bounds, paths ascending and unique, digests, types. */
export function manifestProblem(manifest: readonly ContentFile[]): string | undefined {
  if (manifest.length === 0) return 'a bundle lists at least one file';
  if (manifest.length > CONTENT_FILES_MAX) return `a bundle lists at most ${CONTENT_FILES_MAX} files`;
  let total = 0n;
  let last: string | undefined;
  for (const f of manifest) {
    const p = pathProblem(f.path);
    if (p !== undefined) return p;
    if (last !== undefined && !(last < f.path))
      return 'the paths of a manifest are unique and in ascending order';
    last = f.path;
    if (!SHA256_HEX.test(f.sha256)) return `the sha256 of ${f.path} is 64 lowercase hex digits`;
    if (!MEDIA_TYPE.test(f.contentType) || f.contentType.length > CONTENT_TYPE_BYTES_MAX)
      return `the content type of ${f.path} is a lower-case type/subtype`;
    total += f.size;
  }
  if (total > BigInt(CONTENT_TOTAL_BYTES_MAX))
    return `a bundle holds at most ${CONTENT_TOTAL_BYTES_MAX} bytes`;
  return undefined;
}

/** The sum of the sizes of the manifest's files. */
export const totalBytesOf = (manifest: readonly ContentFile[]): bigint =>
  manifest.reduce((n, f) => n + f.size, 0n);

/**
 * The id of the bundle `owner` registers with `manifest`: the BLAKE2b-256 of the owner and every
 * file's path, size, digest and media type, in hex. The same owner cannot register one manifest twice.
 */
export function contentBundleId(owner: string, manifest: readonly ContentFile[]): string {
  const parts = [
    'content-bundle',
    owner,
    ...manifest.map((f) => `${f.path}\u0000${f.size}\u0000${f.sha256}\u0000${f.contentType}`),
  ];
  return toHex(blake2b256(utf8.encode(parts.join('\u0001'))));
}

/** The manifest's entry for `path`, or undefined. */
export function fileOf(bundle: ContentBundle, path: string): ContentFile | undefined {
  return bundle.manifest.find((f) => f.path === path);
}

/** Load check: the total is the sum of the sizes, the manifest well formed. */
export function bundleProblem(b: ContentBundle): string | undefined {
  if (b.totalBytes !== totalBytesOf(b.manifest)) return 'total bytes differ from the manifest';
  return manifestProblem(b.manifest);
}
