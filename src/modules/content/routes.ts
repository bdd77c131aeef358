// The content routes (docs/content.md §Routes). The bundle itself is ledger state (read at the committed
// height); the files' bytes are this node's own, off chain (store.ts), never relayed from a peer.
//
//   GET  /v1/content/{bundle}           → the bundle: owner, manifest, access, status (JSON)
//   POST /v1/content/{bundle}/{path…}   the file's bytes (application/octet-stream), signed by the owner
//                                       → {bundle, path, sha256, size, stored}
//   GET  /v1/content/{bundle}/{path…}   → the file's bytes (200, 206 for one Range, 304 for If-None-Match)
// The family is an application family (`app_api.enabled`) and needs a node directory (its store lives
// in the data folder): off, none of these is served or documented. The byte routes are not MCP tools
// (they answer no JSON); the bundle read is.

import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { PATH_ID_CHARS_MAX } from '../../gateway/routes/app-params.js';
import { ACCOUNT_HEADER, type SignedRequests } from '../../gateway/signed-request.js';
import type { EgressLimiter } from './egress.js';
import { fileHeaders, matchesEtag } from './headers.js';
import { type ContentBundle, type ContentFile, fileOf } from './model.js';
import { parseRange } from './range.js';
import { type ContentStore, ContentStoreFullError } from './store.js';

/** What the routes read (reads.ts adapts the committed world state). */
export interface ContentPort {
  bundle(id: string): Readonly<ContentBundle> | undefined;
  /** Whether `account` holds a positive balance of `definition`. */
  holds(account: string, definition: string): boolean;
}

export interface ContentRouteOptions {
  port: ContentPort;
  store: () => Promise<ContentStore>;
  egress: EgressLimiter;
  auth: SignedRequests;
  uploadBytesMax: number;
  maxAgeS: number;
  /** Counts served bytes and refusals (metrics.ts). */
  served(bytes: number): void;
  refused(scope: 'node' | 'client'): void;
}

const TAGS = ['content'];
const EXAMPLE_ID = '5d0c7e0f6c4d8a9b1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d';
const EXAMPLE_SHA = 'a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447';
const OWNER = 'ed01208139770EA87D175F56A35466C34C7ECCCB8D8A91B4EE37A25DF60F5B8FC9B394@wonderland';

const BundleParams = Type.Object({ bundle: Type.String({ minLength: 1, maxLength: PATH_ID_CHARS_MAX }) });
const FileParams = Type.Object({
  bundle: Type.String({ minLength: 1, maxLength: PATH_ID_CHARS_MAX }),
  '*': Type.String({ minLength: 1, maxLength: 1024 }),
});
type FileParamsT = Static<typeof FileParams>;

const FileJson = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
  content_type: Type.String(),
});
const BundleJson = Type.Object({
  id: Type.String(),
  owner: Type.String(),
  files: Type.Array(FileJson),
  total_bytes: Type.Integer(),
  access: Type.Object(
    {
      kind: Type.String({ enum: ['Public', 'HoldersOf', 'AllowList'] }),
      definition: Type.Optional(Type.String()),
      accounts: Type.Optional(Type.Array(Type.String())),
    },
    { additionalProperties: false },
  ),
  status: Type.String({ enum: ['Active', 'Retired'] }),
});
const UploadJson = Type.Object({
  bundle: Type.String(),
  path: Type.String(),
  sha256: Type.String(),
  size: Type.Integer(),
  stored: Type.Boolean({ description: 'false when this node already held these bytes' }),
});
const Bytes = (description: string) => Type.String({ format: 'binary', description });

export function bundleJson(b: Readonly<ContentBundle>): Static<typeof BundleJson> {
  return {
    id: b.id,
    owner: b.owner,
    files: b.manifest.map((f) => ({
      path: f.path,
      size: Number(f.size),
      sha256: f.sha256,
      content_type: f.contentType,
    })),
    total_bytes: Number(b.totalBytes),
    access:
      b.access.kind === 'AllowList'
        ? { kind: 'AllowList', accounts: [...b.access.accounts] }
        : { ...b.access },
    status: b.status.kind,
  };
}

/** The bundle and the manifest entry of `path`: unknown → 404 content_not_found, retired → 410. */
function target(
  d: RouteDeps,
  o: ContentRouteOptions,
  p: FileParamsT,
): { b: Readonly<ContentBundle>; f: ContentFile } {
  const b = o.port.bundle(p.bundle);
  if (b === undefined) throw d.errors.create('content_not_found', { bundle: p.bundle });
  if (b.status.kind === 'Retired') throw d.errors.create('content_retired', { bundle: b.id });
  const f = fileOf(b as ContentBundle, p['*']);
  if (f === undefined) throw d.errors.create('content_not_found', { bundle: b.id, path: p['*'] });
  return { b, f };
}

/** The account a restricted bundle's download is signed by, checked against its access rule. */
async function reader(
  d: RouteDeps,
  o: ContentRouteOptions,
  req: FastifyRequest,
  b: Readonly<ContentBundle>,
): Promise<string | undefined> {
  if (b.access.kind === 'Public' && req.headers[ACCOUNT_HEADER] === undefined) return undefined;
  // The signed-request checks, here rather than as route hooks: a public file needs no signature.
  await o.auth.onRequest(req);
  await o.auth.preValidation(req);
  const account = o.auth.account(req)!;
  const a = b.access;
  const allowed =
    a.kind === 'Public' ||
    account === b.owner ||
    (a.kind === 'AllowList' && a.accounts.includes(account)) ||
    (a.kind === 'HoldersOf' && o.port.holds(account, a.definition));
  if (!allowed) throw d.errors.create('content_access_denied', { bundle: b.id, account, access: a.kind });
  return account;
}

async function download(d: RouteDeps, o: ContentRouteOptions, req: FastifyRequest, reply: FastifyReply) {
  const { b, f } = target(d, o, req.params as FileParamsT);
  const account = await reader(d, o, req, b);
  const store = await o.store();
  if (!store.has(f.sha256))
    throw d.errors.create('content_not_stored', { bundle: b.id, path: f.path, sha256: f.sha256 });
  const headers = fileHeaders(f, { public: b.access.kind === 'Public', maxAgeS: o.maxAgeS });
  const ifNoneMatch = req.headers['if-none-match'];
  if (matchesEtag(typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined, f.sha256))
    return reply.code(304).headers(headers).send();
  const size = Number(f.size);
  const range = parseRange(typeof req.headers.range === 'string' ? req.headers.range : undefined, size);
  if (range.kind === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw d.errors.create('content_range_not_satisfiable', { reason: range.reason, size });
  }
  const [start, end] = range.kind === 'part' ? [range.start, range.end] : [0, size - 1];
  const length = end - start + 1;
  const taken = o.egress.take(account ?? `ip:${req.ip}`, length);
  if (!taken.ok) {
    o.refused(taken.scope);
    throw d.errors.create('content_egress_limited', {
      scope: taken.scope,
      retry_after_s: taken.retryAfterS,
      limit_bytes: taken.limit,
    });
  }
  o.served(length);
  reply.headers(headers).header('content-type', f.contentType).header('content-length', String(length));
  if (range.kind === 'part') reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  return reply.send(length === 0 ? Buffer.alloc(0) : store.read(f.sha256, start, end));
}

async function upload(d: RouteDeps, o: ContentRouteOptions, req: FastifyRequest) {
  const { b, f } = target(d, o, req.params as FileParamsT);
  const account = o.auth.account(req);
  if (account !== b.owner) throw d.errors.create('content_not_owner', { bundle: b.id, owner: b.owner });
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const sha = createHash('sha256').update(body).digest('hex');
  if (BigInt(body.length) !== f.size || sha !== f.sha256)
    throw d.errors.create('content_hash_mismatch', {
      path: f.path,
      expected: { size: Number(f.size), sha256: f.sha256 },
      got: { size: body.length, sha256: sha },
    });
  const store = await o.store();
  try {
    const stored = await store.put(f.sha256, body);
    return { bundle: b.id, path: f.path, sha256: f.sha256, size: body.length, stored };
  } catch (e) {
    if (e instanceof ContentStoreFullError)
      throw d.errors.create('content_store_full', { used_bytes: e.used, limit_bytes: e.limit });
    throw e;
  }
}

const FILE_NOTE =
  'Node-local bytes: each node serves only the files it was given (no relay). Answers carry the manifest’s ' +
  'Content-Type, a strong ETag (the SHA-256), X-Content-Type-Options: nosniff and ' +
  "Content-Security-Policy: default-src 'none'; sandbox. One Range per request (206; several ranges: 416).";

export function contentRoutes(d: RouteDeps, o: ContentRouteOptions): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/content/:bundle',
      operationId: 'getContentBundle',
      summary: 'A content bundle: owner, manifest (paths, sizes, SHA-256, media types), access, status',
      description: 'Public ledger state at the committed height; no signature needed.',
      tags: TAGS,
      visibility: 'public',
      errorStatuses: [404],
      schema: {
        params: BundleParams,
        response: {
          200: {
            ...BundleJson,
            examples: [
              {
                id: EXAMPLE_ID,
                owner: OWNER,
                files: [{ path: 'img/logo.png', size: 5120, sha256: EXAMPLE_SHA, content_type: 'image/png' }],
                total_bytes: 5120,
                access: { kind: 'Public' },
                status: 'Active',
              },
            ],
          },
        },
      },
      handler: (req) => {
        const b = o.port.bundle(req.params.bundle);
        if (b === undefined) throw d.errors.create('content_not_found', { bundle: req.params.bundle });
        return bundleJson(b);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/content/:bundle/*',
      operationId: 'uploadContentFile',
      summary: 'Upload one file of a bundle to this node (application/octet-stream, signed by the owner)',
      description:
        'The body is the file’s bytes; they are kept only if their size and SHA-256 are the manifest entry’s ' +
        `(422 content_hash_mismatch). ${FILE_NOTE}`,
      tags: TAGS,
      visibility: 'public',
      nodeLocal: true,
      bodyFormats: [],
      bodyBytesMax: o.uploadBytesMax,
      auth: o.auth,
      errorStatuses: [404, 410, 413, 415, 422, 507],
      schema: {
        params: FileParams,
        response: {
          200: {
            ...UploadJson,
            examples: [
              { bundle: EXAMPLE_ID, path: 'img/logo.png', sha256: EXAMPLE_SHA, size: 5120, stored: true },
            ],
          },
        },
      },
      handler: (req) => upload(d, o, req),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/content/:bundle/*',
      operationId: 'getContentFile',
      summary: 'The bytes of one file of a bundle (whole, one Range, or 304 for a matching If-None-Match)',
      description:
        'Public bundles: no signature, Cache-Control public, immutable. Restricted bundles (holders of an ' +
        'asset, an allow-list): a signed app request of an allowed account, Cache-Control private. Egress ' +
        `budgets per node and per client answer 429 with Retry-After. ${FILE_NOTE}`,
      tags: TAGS,
      visibility: 'public',
      nodeLocal: true,
      formats: { default: 'text', offers: ['text'] },
      errorStatuses: [401, 403, 404, 409, 410, 416],
      schema: {
        params: FileParams,
        response: {
          200: Bytes('The whole file, with the manifest’s Content-Type'),
          206: Bytes('One byte range (Content-Range: bytes start-end/size)'),
          304: Type.Null({ description: 'Not modified: the If-None-Match named the file’s ETag' }),
        },
      },
      handler: (req, reply) => download(d, o, req, reply),
    }),
  ];
}
