// The content bundles module's wire declarations (docs/content.md): its instruction and event variants,
// rejection meanings, weights, stored row type and table. Their tags, numbers and ids are in
// model/tags.ts; importing this file (src/modules/registry.ts does) declares them into the core's codecs
// and tables.

import { u32, u64 } from '../../codec/primitives.js';
import { AccountId } from '../../model/ids.js';
import { row, sized } from '../../model/weights.js';
import { declareModuleWire } from '../../state/module-wire.js';
import { type TableDef, tableDef } from '../../state/tables.js';
import {
  bundleProblem,
  ContentAccessCodec,
  type ContentBundle,
  ContentBundleCodec,
  ContentBundleIdCodec,
  ContentManifestCodec,
} from './model.js';

/** One contiguous block. */
const INSTRUCTIONS = {
  /** A new bundle `contentBundleId(authority, manifest)` owned by the authority. */
  RegisterContentBundle: { manifest: ContentManifestCodec, access: ContentAccessCodec },
  /** Who may download the bundle's files from now on (owner only). */
  SetContentBundleAccess: { bundle: ContentBundleIdCodec, access: ContentAccessCodec },
  /** Retires the bundle for good: its files are no longer served (owner only). */
  RetireContentBundle: { bundle: ContentBundleIdCodec },
};

/** One per instruction. */
const EVENTS = {
  ContentBundleRegistered: { id: ContentBundleIdCodec, owner: AccountId, files: u32, totalBytes: u64 },
  ContentBundleAccessSet: { bundle: ContentBundleIdCodec, access: ContentAccessCodec },
  ContentBundleRetired: { bundle: ContentBundleIdCodec },
};

declare module '../../model/instructions.js' {
  interface InstructionVariants extends ContentInstructionVariants {}
}
declare module '../../model/events.js' {
  interface DataEventVariants extends ContentEventVariants {}
}
declare module '../../state/tables.js' {
  interface TableRows {
    contentBundle: ContentBundle;
  }
}
type ContentInstructionVariants = typeof INSTRUCTIONS;
type ContentEventVariants = typeof EVENTS;

export const CONTENT_TABLES = [
  tableDef<ContentBundle>('contentBundle', ContentBundleCodec, {
    idOf: (v) => v.id,
    check: (_id, v) => bundleProblem(v),
  }),
] as const;

export const contentWire = declareModuleWire({
  name: 'content',
  instructions: INSTRUCTIONS,
  events: EVENTS,
  // 902-919 (901 is the core's execution_limit); texts are stable (a rejection's message is in the
  // committed result).
  rejections: {
    content_bundle_invalid:
      'a manifest or access rule is out of bounds: files, path, size, digest, media type or accounts',
    content_bundle_not_found: 'no content bundle with this id',
    content_bundle_exists: 'the owner already registered a content bundle with this manifest',
    content_bundle_retired: 'the content bundle is retired',
  },
  weights: {
    // Checks and hashes the manifest (up to 256 files) once, writes one row.
    RegisterContentBundle: sized(60, 0.1),
    // Reads the bundle, checks the rule (an allow-list walked once), writes it.
    SetContentBundleAccess: sized(40, 0.05),
    RetireContentBundle: row(40),
  },
  schemaTypes: [ContentBundleCodec],
  tables: CONTENT_TABLES as unknown as readonly TableDef<never>[],
  docs: 'docs/content.md',
});
