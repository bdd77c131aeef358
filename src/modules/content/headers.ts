// The headers of a served content file (docs/content.md "Serving"): what the browser may do with bytes the
// node never interprets. Every answer: `X-Content-Type-Options: nosniff` and a sandboxing
// `Content-Security-Policy: default-src 'none'; sandbox`, so even an HTML or SVG file opened directly runs
// no script and loads nothing. Media types that render active content (HTML, SVG, XML, scripts, PDF, and
// anything not on the inline list) are sent `Content-Disposition: attachment`.

import type { ContentFile } from './model.js';

export const CONTENT_CSP = "default-src 'none'; sandbox";

/** Media types shown inline: passive images (not SVG), audio, video, plain text, JSON, fonts. */
export function rendersInline(contentType: string): boolean {
  const t = contentType.split(';')[0]!.trim();
  if (t === 'image/svg+xml') return false;
  return (
    /^(?:image|audio|video|font)\//.test(t) ||
    t === 'text/plain' ||
    t === 'text/csv' ||
    t === 'application/json'
  );
}

/** The headers of every answer about `file` (200, 206 and 304). */
export function fileHeaders(
  file: ContentFile,
  opts: { public: boolean; maxAgeS: number },
): Record<string, string> {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  return {
    etag: `"${file.sha256}"`,
    'cache-control': opts.public
      ? `public, max-age=${opts.maxAgeS}, immutable`
      : `private, max-age=${opts.maxAgeS}, immutable`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': CONTENT_CSP,
    'accept-ranges': 'bytes',
    'content-disposition': rendersInline(file.contentType) ? 'inline' : `attachment; filename="${name}"`,
  };
}

/** Whether an If-None-Match header names the file's ETag (or `*`); weak tags compare by their value. */
export function matchesEtag(header: string | undefined, sha256: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === `"${sha256}"`);
}
