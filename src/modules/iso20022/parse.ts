// The library's entry point: parseMessage(kind, body, opts). XML bodies go through the hardened
// reader (xml.ts), then the kind's extractor; pacs.008 and pacs.009 also take the flat field form
// (flat.ts) as an object or a JSON string. Never throws on any input: every failure is a typed
// IsoError (errors.ts). Supported messages and versions: README "Supported messages".

import { type IsoError, inputError } from './errors.js';
import { parseFlatPacs008, parseFlatPacs009 } from './flat.js';
import { resolveLimits, type XmlLimits } from './limits.js';
import {
  CAMT052_ROOT,
  CAMT053_ROOT,
  CAMT054_ROOT,
  type CamtReportMessage,
  extractCamt052,
  extractCamt053,
  extractCamt054,
} from './messages/camt-reports.js';
import { CAMT056_ROOT, type Camt056Message, extractCamt056 } from './messages/camt056.js';
import {
  COLR010_ROOT,
  COLR012_ROOT,
  type Colr010Message,
  type Colr012Message,
  extractColr010,
  extractColr012,
} from './messages/colr.js';
import type { ExtractContext } from './messages/common.js';
import { type AppHeader, type Head001Message, readAppHeader } from './messages/head001.js';
import { extractPacs002, PACS002_ROOT, type Pacs002Message } from './messages/pacs002.js';
import { extractPacs008, PACS008_ROOT, type Pacs008Message } from './messages/pacs008.js';
import { extractPacs009, PACS009_ROOT, type Pacs009Message } from './messages/pacs009.js';
import { extractPacs028, PACS028_ROOT, type Pacs028Message } from './messages/pacs028.js';
import { extractPacs029, PACS029_ROOT, type Pacs029Message } from './messages/pacs029.js';
import { extractPain001, PAIN001_ROOT, type Pain001Message } from './messages/pain001.js';
import { extractPain002, PAIN002_ROOT, type Pain002Message } from './messages/pain002.js';
import {
  extractPacs004,
  extractPacs007,
  PACS004_ROOT,
  PACS007_ROOT,
  type Pacs004Message,
  type Pacs007Message,
} from './messages/returns.js';
import { extractSese023, SESE023_ROOT, type Sese023Message } from './messages/sese023.js';
import { extractSese024, SESE024_ROOT, type Sese024Message } from './messages/sese024.js';
import { extractSese025, SESE025_ROOT, type Sese025Message } from './messages/sese025.js';
import { Issues } from './validate/fields.js';
import { type IsoDocument, parseIsoXml } from './xml.js';

/** The typed record each kind parses into. */
export interface MessageMap {
  pacs008: Pacs008Message;
  pacs009: Pacs009Message;
  pacs002: Pacs002Message;
  pacs004: Pacs004Message;
  pacs007: Pacs007Message;
  pacs028: Pacs028Message;
  pacs029: Pacs029Message;
  camt052: CamtReportMessage<'camt052'>;
  camt053: CamtReportMessage<'camt053'>;
  camt054: CamtReportMessage<'camt054'>;
  camt056: Camt056Message;
  pain001: Pain001Message;
  pain002: Pain002Message;
  sese023: Sese023Message;
  sese024: Sese024Message;
  sese025: Sese025Message;
  colr010: Colr010Message;
  colr012: Colr012Message;
  head001: Head001Message;
}

export type MessageKind = keyof MessageMap;
export type IsoMessage = MessageMap[MessageKind];

export type ParseResult<T> =
  | { readonly ok: true; readonly message: T }
  | { readonly ok: false; readonly errors: IsoError[] };

export interface ParseOptions {
  readonly limits?: Partial<XmlLimits>;
}

interface KindSpec {
  /** Message definition prefix without the version, e.g. `pacs.008.001`. */
  readonly family: string;
  /** Versions read (inclusive): those whose element paths match what the extractor reads. */
  readonly versions: readonly [number, number];
  /** The message element under Document. */
  readonly root: string;
  readonly extract: (ctx: ExtractContext) => IsoMessage | undefined;
}

const SPECS: { readonly [K in Exclude<MessageKind, 'head001'>]: KindSpec } = {
  pacs008: { family: 'pacs.008.001', versions: [8, 13], root: PACS008_ROOT, extract: extractPacs008 },
  pacs009: { family: 'pacs.009.001', versions: [8, 12], root: PACS009_ROOT, extract: extractPacs009 },
  pacs002: { family: 'pacs.002.001', versions: [10, 14], root: PACS002_ROOT, extract: extractPacs002 },
  pacs004: { family: 'pacs.004.001', versions: [9, 14], root: PACS004_ROOT, extract: extractPacs004 },
  pacs007: { family: 'pacs.007.001', versions: [9, 13], root: PACS007_ROOT, extract: extractPacs007 },
  pacs028: { family: 'pacs.028.001', versions: [3, 6], root: PACS028_ROOT, extract: extractPacs028 },
  pacs029: { family: 'pacs.029.001', versions: [1, 2], root: PACS029_ROOT, extract: extractPacs029 },
  camt052: { family: 'camt.052.001', versions: [8, 13], root: CAMT052_ROOT, extract: extractCamt052 },
  camt053: { family: 'camt.053.001', versions: [8, 13], root: CAMT053_ROOT, extract: extractCamt053 },
  camt054: { family: 'camt.054.001', versions: [8, 13], root: CAMT054_ROOT, extract: extractCamt054 },
  camt056: { family: 'camt.056.001', versions: [8, 11], root: CAMT056_ROOT, extract: extractCamt056 },
  pain001: { family: 'pain.001.001', versions: [9, 12], root: PAIN001_ROOT, extract: extractPain001 },
  pain002: { family: 'pain.002.001', versions: [10, 14], root: PAIN002_ROOT, extract: extractPain002 },
  sese023: { family: 'sese.023.001', versions: [9, 11], root: SESE023_ROOT, extract: extractSese023 },
  sese024: { family: 'sese.024.001', versions: [9, 12], root: SESE024_ROOT, extract: extractSese024 },
  sese025: { family: 'sese.025.001', versions: [8, 11], root: SESE025_ROOT, extract: extractSese025 },
  colr010: { family: 'colr.010.001', versions: [4, 6], root: COLR010_ROOT, extract: extractColr010 },
  colr012: { family: 'colr.012.001', versions: [4, 6], root: COLR012_ROOT, extract: extractColr012 },
};

export const MESSAGE_KINDS: readonly MessageKind[] = [...(Object.keys(SPECS) as MessageKind[]), 'head001'];

export function isMessageKind(value: string): value is MessageKind {
  return (MESSAGE_KINDS as readonly string[]).includes(value);
}

function fail<T>(errors: IsoError[]): ParseResult<T> {
  return { ok: false, errors };
}

function parseHead001(doc: IsoDocument): ParseResult<Head001Message> {
  if (doc.appHeader === undefined || doc.document !== undefined) {
    return fail([inputError('iso_message_mismatch', 'expected a bare AppHdr (head.001)')]);
  }
  const is = new Issues();
  const header = readAppHeader(doc.appHeader, doc.appHeaderNamespace, undefined, is);
  return header === undefined || !is.ok
    ? fail(is.errors)
    : { ok: true, message: { kind: 'head001', header } };
}

function parseDocument(kind: Exclude<MessageKind, 'head001'>, doc: IsoDocument): ParseResult<IsoMessage> {
  const spec = SPECS[kind];
  const id = doc.messageDefinitionId;
  if (id === undefined || doc.document === undefined) {
    return fail([
      inputError('iso_message_mismatch', `expected a ${spec.family} Document, found a bare AppHdr`),
    ]);
  }
  if (!id.startsWith(`${spec.family}.`)) {
    return fail([inputError('iso_message_mismatch', `expected ${spec.family}.xx, found ${id}`, '/Document')]);
  }
  const version = Number(id.slice(-2));
  if (version < spec.versions[0] || version > spec.versions[1]) {
    const range = `${spec.family}.${String(spec.versions[0]).padStart(2, '0')}–${String(spec.versions[1]).padStart(2, '0')}`;
    return fail([
      inputError('iso_unsupported_message', `${id} is not supported (reads ${range})`, '/Document'),
    ]);
  }
  const is = new Issues();
  let appHeader: AppHeader | undefined;
  if (doc.appHeader !== undefined) appHeader = readAppHeader(doc.appHeader, doc.appHeaderNamespace, id, is);
  const root = doc.document.child(spec.root);
  if (!root.exists) {
    is.missing(root.path);
    return fail(is.errors);
  }
  const message = spec.extract({ root, issues: is, messageDefinitionId: id, appHeader });
  return message === undefined || !is.ok ? fail(is.errors) : { ok: true, message };
}

function parseFlat(kind: MessageKind, flat: Readonly<Record<string, unknown>>): ParseResult<IsoMessage> {
  if (kind === 'pacs008') return parseFlatPacs008(flat);
  if (kind === 'pacs009') return parseFlatPacs009(flat);
  return fail([
    inputError(
      'iso_input_invalid',
      `the flat field format is offered for pacs008 and pacs009 only, not ${kind}`,
    ),
  ]);
}

function parseJson(kind: MessageKind, body: string, limits: XmlLimits): ParseResult<IsoMessage> {
  if (body.length > limits.bodyBytesMax || Buffer.byteLength(body, 'utf8') > limits.bodyBytesMax) {
    return fail([
      inputError('iso_input_invalid', `body exceeds ${limits.bodyBytesMax} bytes (bodyBytesMax)`),
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return fail([inputError('iso_input_invalid', 'the body is not valid JSON')]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail([inputError('iso_input_invalid', 'the flat field format is a JSON object')]);
  }
  return parseFlat(kind, value as Record<string, unknown>);
}

/**
 * Parses and validates one ISO 20022 message of the given kind. `body` is XML text, a JSON text
 * of the flat field format, or an already-decoded flat field object (pacs008 and pacs009 only).
 */
export function parseMessage<K extends MessageKind>(
  kind: K,
  body: string | object,
  opts: ParseOptions = {},
): ParseResult<MessageMap[K]> {
  return parseAny(kind, body, opts) as ParseResult<MessageMap[K]>;
}

/** The first character after a byte-order mark and white space (without copying the body). */
function firstSignificantChar(body: string): string {
  for (let i = 0; i < body.length; i++) {
    const c = body.charAt(i);
    if (c !== '\uFEFF' && c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') return c;
  }
  return '';
}

function parseAny(kind: MessageKind, body: unknown, opts: ParseOptions): ParseResult<IsoMessage> {
  if (!isMessageKind(kind)) return fail([inputError('iso_unsupported_message', 'unknown message kind')]);
  if (ArrayBuffer.isView(body))
    return fail([inputError('iso_input_invalid', 'pass the body as text, not bytes')]);
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    return parseFlat(kind, body as Record<string, unknown>);
  }
  if (typeof body !== 'string')
    return fail([inputError('iso_input_invalid', 'the body is XML text or a flat field object')]);
  const limits = resolveLimits(opts.limits);
  const start = firstSignificantChar(body);
  if (start === '{') return parseJson(kind, body, limits);
  if (start !== '<')
    return fail([inputError('iso_input_invalid', 'the body is neither XML nor a JSON object')]);
  const doc = parseIsoXml(body, limits);
  if (!doc.ok) return fail(doc.errors);
  return kind === 'head001' ? parseHead001(doc.value) : parseDocument(kind, doc.value);
}
