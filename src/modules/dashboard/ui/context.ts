// What every page shares: the live feed and the paths the node serves (from its OpenAPI document).

import { createContext } from 'preact';
import { LiveFeed } from './live.js';

export const FeedContext = createContext<LiveFeed>(new LiveFeed(''));
export const PathsContext = createContext<ReadonlySet<string>>(new Set());
