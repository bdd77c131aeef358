// The content bundles module's SDK functions (docs/content.md): the builders of its three instructions
// (spread into the SDK's `instructions`), a manifest entry from a file's bytes (`contentFile`), the id a
// registration will give (`contentBundleId`), the bundle read, and the upload and download of a file's
// bytes (a signed app request of the owner to upload; a signed request to download from a restricted
// bundle). Browser-safe: SHA-256 from @noble/hashes.

import { sha256 } from '@noble/hashes/sha2';
import type { Instruction } from '../../model/instructions.js';
import type { Http, HttpRequest } from '../../sdk/http.js';
import { toHex } from '../../util/hex.js';
import { type ContentAccess, type ContentFile, contentBundleId } from './model.js';

/** An access rule in the SDK's short form: 'public', `{ holdersOf: definition }`, `{ allow: [accounts] }`. */
export type ContentAccessInput = 'public' | { holdersOf: string } | { allow: string[] };

export function contentAccess(a: ContentAccessInput): ContentAccess {
  if (a === 'public') return { kind: 'Public' };
  if ('holdersOf' in a) return { kind: 'HoldersOf', definition: a.holdersOf };
  return { kind: 'AllowList', accounts: [...a.allow] };
}

/** The manifest entry of one file: its path in the bundle, size, SHA-256 and media type. */
export function contentFile(path: string, bytes: Uint8Array, contentType: string): ContentFile {
  return { path, size: BigInt(bytes.length), sha256: toHex(sha256(bytes)), contentType };
}

/** The manifest in its one accepted order (paths ascending). */
export const sortedManifest = (files: readonly ContentFile[]): ContentFile[] =>
  [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

export const contentInstructions = {
  /** Registers the bundle `contentBundleId(signer, manifest)` (sorted by path here); the signer owns it. */
  registerContentBundle: (
    manifest: readonly ContentFile[],
    access: ContentAccessInput = 'public',
  ): Instruction => ({
    kind: 'RegisterContentBundle',
    manifest: sortedManifest(manifest),
    access: contentAccess(access),
  }),
  /** Who may download the bundle's files (owner only). */
  setContentBundleAccess: (bundle: string, access: ContentAccessInput): Instruction => ({
    kind: 'SetContentBundleAccess',
    bundle,
    access: contentAccess(access),
  }),
  /** Retires the bundle for good (owner only): its files are no longer served. */
  retireContentBundle: (bundle: string): Instruction => ({ kind: 'RetireContentBundle', bundle }),
} as const;

/** A bundle as GET /v1/content/{bundle} answers it. */
export interface ContentBundleJson {
  id: string;
  owner: string;
  files: { path: string; size: number; sha256: string; content_type: string }[];
  total_bytes: number;
  access:
    | { kind: 'Public' }
    | { kind: 'HoldersOf'; definition: string }
    | { kind: 'AllowList'; accounts: string[] };
  status: 'Active' | 'Retired';
}

/** What the content routes need of a client: its HTTP and, for signed requests, its signing. */
export interface ContentClient {
  http: Http;
  signedRequest(req: HttpRequest): Promise<Response>;
}

const fileUrl = (bundle: string, path: string) =>
  `/v1/content/${encodeURIComponent(bundle)}/${path.split('/').map(encodeURIComponent).join('/')}`;

/** The bundle: owner, manifest, access, status. An unknown bundle is a ToranaApiError `not_found`. */
export function contentBundle(client: { http: Http }, id: string): Promise<ContentBundleJson> {
  return client.http.json<ContentBundleJson>({
    method: 'GET',
    path: `/v1/content/${encodeURIComponent(id)}`,
  });
}

/**
 * Uploads one file of the bundle to the node the client talks to (a signed request of the bundle's
 * owner). The node keeps it only if its bytes match the manifest entry of `path`.
 */
export async function uploadContent(
  client: ContentClient,
  bundle: string,
  path: string,
  bytes: Uint8Array,
): Promise<{ bundle: string; path: string; sha256: string; size: number; stored: boolean }> {
  const res = await client.signedRequest({
    method: 'POST',
    path: fileUrl(bundle, path),
    body: bytes,
    contentType: 'application/octet-stream',
  });
  return (await res.json()) as {
    bundle: string;
    path: string;
    sha256: string;
    size: number;
    stored: boolean;
  };
}

export interface DownloadOptions {
  /** A single byte range, e.g. 'bytes=0-99'. */
  range?: string;
  /** An ETag the caller holds: an unchanged file answers 304 with no body. */
  ifNoneMatch?: string;
  /** Sign the request with the client's account (restricted bundles need it). */
  signed?: boolean;
}

/** A file's bytes with the answer's status and headers (200, 206 or 304); errors as ToranaApiError. */
export async function downloadContent(
  client: ContentClient,
  bundle: string,
  path: string,
  opts: DownloadOptions = {},
): Promise<{ status: number; bytes: Uint8Array; headers: Headers }> {
  const headers: Record<string, string> = {
    ...(opts.range === undefined ? {} : { range: opts.range }),
    ...(opts.ifNoneMatch === undefined ? {} : { 'if-none-match': opts.ifNoneMatch }),
  };
  const req: HttpRequest = { method: 'GET', path: fileUrl(bundle, path), accept: '*/*', headers };
  let res: Response;
  try {
    res = opts.signed === true ? await client.signedRequest(req) : await client.http.request(req);
  } catch (e) {
    // A 304 is not an error: Http hands only 2xx answers back, so it arrives here as an ApiError.
    if ((e as { status?: number }).status === 304)
      return { status: 304, bytes: new Uint8Array(), headers: new Headers() };
    throw e;
  }
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
}

export { contentBundleId };

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const CONTENT_SDK = {
  contentBundle,
  contentBundleId,
  contentFile,
  uploadContent,
  downloadContent,
} as const;
