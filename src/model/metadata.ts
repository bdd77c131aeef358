// Metadata: a map from names to JSON values, encoded with sorted keys (docs/codec.md §4.3).

import type { Json } from '../codec/codec.js';
import { map } from '../codec/compound.js';
import { jsonValue } from '../codec/primitives.js';
import { Name } from './names.js';

export const METADATA_ENTRIES_MAX = 1024;

export const MetadataCodec = map(Name, jsonValue(16 * 1024), METADATA_ENTRIES_MAX);
export type Metadata = Map<string, Json>;
