// The ledger modules' additions to the dashboard (src/dashboard/ui/extensions.ts): each module folder's
// `dashboard.ts`, found by convention and bundled as the module `torana:module-dashboards` (their default
// exports, in folder order). Used by scripts/build-dashboard.mjs and its test
// (test/dashboard/module-additions.test.ts).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** The module folders' `dashboard.ts` files (absolute paths, in folder order). */
export function moduleDashboardFiles(modulesDir = join(root, 'src/modules')) {
  return readdirSync(modulesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(modulesDir, d.name, 'dashboard.ts'))
    .filter((f) => existsSync(f))
    .sort();
}

/** The source of `torana:module-dashboards`: the default export of each file, in order. */
export function moduleDashboardsSource(files) {
  const imports = files.map((f, i) => `import m${i} from ${JSON.stringify(f)};`);
  return `${imports.join('\n')}\nexport default [${files.map((_, i) => `m${i}`).join(', ')}];\n`;
}

/** The esbuild plugin that serves `torana:module-dashboards`. */
export const moduleDashboardsPlugin = {
  name: 'module-dashboards',
  setup(b) {
    b.onResolve({ filter: /^torana:module-dashboards$/ }, (a) => ({
      path: a.path,
      namespace: 'module-dashboards',
    }));
    b.onLoad({ filter: /.*/, namespace: 'module-dashboards' }, () => ({
      contents: moduleDashboardsSource(moduleDashboardFiles()),
      loader: 'js',
      resolveDir: root,
    }));
  },
};
