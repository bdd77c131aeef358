// Entry of the bundle (build.mjs of this module): styles, the live feed, the served paths, the app.

import 'uplot/dist/uPlot.min.css';
import './style.css';
import { html } from 'htm/preact';
import { render } from 'preact';
import { NODE_URL, servedPaths } from './api.js';
import { App } from './app.js';
import { FeedContext, PathsContext } from './context.js';
import { EXTENSIONS } from './extensions.js';
import { LiveFeed } from './live.js';

const feed = new LiveFeed(
  `${NODE_URL}/v1/events/sse`,
  EXTENSIONS.flatMap((x) => (x.recentBlocks === undefined ? [] : [x.recentBlocks])),
);
feed.start();
const paths = await servedPaths();
const root = document.getElementById('app');
if (root !== null) {
  render(
    html`<${FeedContext.Provider} value=${feed}>
      <${PathsContext.Provider} value=${paths}><${App} /><//>
    <//>`,
    root,
  );
}
