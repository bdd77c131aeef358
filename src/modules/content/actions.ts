// The code of `torana content …` (commands.ts). Accounts and definitions may be names in place of ids
// (resolved by the node).

import { readFile, writeFile } from 'node:fs/promises';
import { extname, relative, resolve, sep } from 'node:path';
import { type Flags, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { accountArg, definitionArg } from '../../cli/id-args.js';
import { printJson, printRecord } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { pathProblem } from './model.js';
import {
  type ContentAccessInput,
  contentBundle,
  contentBundleId,
  contentFile,
  downloadContent,
  contentInstructions as ix,
  sortedManifest,
  uploadContent,
} from './sdk.js';

/** Media types by extension; anything else is application/octet-stream (served as an attachment). */
const TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.woff2': 'font/woff2',
};

type BaseFlags = Flags & { base?: string };

/** The bundle path of `file` (relative to --base, with `/`), checked as the ledger will. */
function bundlePath(file: string, flags: BaseFlags): string {
  const path = relative(resolve(flags.base ?? '.'), resolve(file))
    .split(sep)
    .join('/');
  const problem = pathProblem(path);
  if (problem !== undefined) throw new CliError('invalid_argument', `${file}: ${problem}`, 2);
  return path;
}

async function accessOf(flags: Flags, rule: string): Promise<ContentAccessInput> {
  if (rule === 'public') return 'public';
  const { client } = await resolveClient(flags, false);
  if (rule.startsWith('holders:')) return { holdersOf: await definitionArg(client, rule.slice(8)) };
  if (rule.startsWith('allow:')) {
    const names = rule
      .slice(6)
      .split(',')
      .filter((s) => s !== '');
    return { allow: await Promise.all(names.map((n) => accountArg(client, n))) };
  }
  throw new CliError(
    'invalid_argument',
    "the rule is 'public', 'holders:<definition>' or 'allow:<a>,<b>'",
    2,
  );
}

type RegisterFlags = BaseFlags & { type?: string[]; holdersOf?: string; allow?: string };

export async function contentRegister(files: string[], flags: RegisterFlags) {
  const { account } = await resolveClient(flags, true);
  const types = new Map(
    (flags.type ?? []).map((t) => {
      const at = t.indexOf('=');
      if (at <= 0) throw new CliError('invalid_argument', `--type ${t}: path=media-type`, 2);
      return [t.slice(0, at), t.slice(at + 1)] as const;
    }),
  );
  const manifest = sortedManifest(
    await Promise.all(
      files.map(async (f) => {
        const path = bundlePath(f, flags);
        const type = types.get(path) ?? TYPES[extname(f).toLowerCase()] ?? 'application/octet-stream';
        return contentFile(path, new Uint8Array(await readFile(f)), type);
      }),
    ),
  );
  if (flags.holdersOf !== undefined && flags.allow !== undefined)
    throw new CliError('invalid_argument', '--holders-of and --allow exclude each other', 2);
  const access =
    flags.holdersOf !== undefined
      ? await accessOf(flags, `holders:${flags.holdersOf}`)
      : flags.allow !== undefined
        ? await accessOf(flags, `allow:${flags.allow}`)
        : 'public';
  const id = contentBundleId(account!, manifest);
  if (!flags.json) process.stdout.write(`bundle ${id}\n`);
  return submit(flags, () => [ix.registerContentBundle(manifest, access)], {
    bundle_id: id,
    files: manifest.map((f) => ({
      path: f.path,
      size: Number(f.size),
      sha256: f.sha256,
      content_type: f.contentType,
    })),
  });
}

export async function contentUpload(bundle: string, files: string[], flags: BaseFlags) {
  const { client } = await resolveClient(flags, true);
  const out: Json[] = [];
  for (const f of files) {
    const r = await uploadContent(client, bundle, bundlePath(f, flags), new Uint8Array(await readFile(f)));
    out.push(r);
    if (!flags.json)
      process.stdout.write(`${r.path}: ${r.stored ? 'stored' : 'already stored'} (${r.size} bytes)\n`);
  }
  if (flags.json) printJson({ bundle, uploaded: out });
}

export async function contentGet(
  bundle: string,
  path: string | undefined,
  flags: Flags & { out?: string; range?: string; signed?: boolean },
) {
  const { client } = await resolveClient(flags, flags.signed === true);
  if (path === undefined) {
    const b = (await contentBundle(client, bundle)) as unknown as Record<string, Json>;
    if (flags.json) printJson(b);
    else printRecord(b);
    return;
  }
  const r = await downloadContent(client, bundle, path, {
    ...(flags.range === undefined ? {} : { range: flags.range }),
    ...(flags.signed === true ? { signed: true } : {}),
  });
  if (flags.out !== undefined) await writeFile(flags.out, r.bytes);
  else if (!flags.json) process.stdout.write(r.bytes);
  if (flags.json)
    printJson({
      status: r.status,
      bytes: r.bytes.length,
      content_type: r.headers.get('content-type'),
      etag: r.headers.get('etag'),
      ...(r.headers.get('content-range') === null ? {} : { content_range: r.headers.get('content-range') }),
      ...(flags.out === undefined ? {} : { out: flags.out }),
    });
}

export async function contentAccess(bundle: string, rule: string, flags: Flags) {
  const access = await accessOf(flags, rule);
  return submit(flags, () => [ix.setContentBundleAccess(bundle, access)]);
}

export const contentRetire = (bundle: string, flags: Flags) =>
  submit(flags, () => [ix.retireContentBundle(bundle)]);
