// What the other ledger modules give the dashboard, found by convention in their folders and bundled as
// virtual modules, so that no dashboard file names a module and no module folder imports this one:
// - `torana:module-dashboards`: each module folder's `dashboard.ts` (ui/extensions.ts; their default
//   exports, in folder order);
// - `torana:module-rejection-forms`: each module folder's `rejection-forms.ts` (the committed rejection
//   messages that carry base units, read at their definition's scale: ui/rejections.ts; every export of
//   each file, in folder order);
// - `torana:dashboard`: the dashboard's UI parts a module's `dashboard.ts` builds with (ui/kit.ts).
// Used by build.mjs and by the tests that bundle the UI (test/dashboard/module-additions.test.ts).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../..', import.meta.url).pathname;
const MODULES = join(root, 'src/modules');

/** `<module folder>/<file>` for every module folder that has one (absolute paths, in folder order). */
function moduleFiles(file, modulesDir) {
  return readdirSync(modulesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(modulesDir, d.name, file))
    .filter((f) => existsSync(f))
    .sort();
}

/** The module folders' `dashboard.ts` files (absolute paths, in folder order). */
export function moduleDashboardFiles(modulesDir = MODULES) {
  return moduleFiles('dashboard.ts', modulesDir);
}

/** The module folders' `rejection-forms.ts` files (absolute paths, in folder order). */
export function moduleRejectionFormFiles(modulesDir = MODULES) {
  return moduleFiles('rejection-forms.ts', modulesDir);
}

/** The source of `torana:module-dashboards`: the default export of each file, in order. */
export function moduleDashboardsSource(files) {
  const imports = files.map((f, i) => `import m${i} from ${JSON.stringify(f)};`);
  return `${imports.join('\n')}\nexport default [${files.map((_, i) => `m${i}`).join(', ')}];\n`;
}

/** The source of `torana:module-rejection-forms`: every export of each file (a `RejectionForms`), in order. */
export function moduleRejectionFormsSource(files) {
  const imports = files.map((f, i) => `import * as f${i} from ${JSON.stringify(f)};`);
  const all = files.map((_, i) => `...Object.values(f${i})`).join(', ');
  return `${imports.join('\n')}\nexport default [${all}];\n`;
}

/** The file `torana:dashboard` stands for. */
export const DASHBOARD_KIT = new URL('ui/kit.ts', import.meta.url).pathname;

const VIRTUAL = {
  'torana:module-dashboards': () => moduleDashboardsSource(moduleDashboardFiles()),
  'torana:module-rejection-forms': () => moduleRejectionFormsSource(moduleRejectionFormFiles()),
};

/** The esbuild plugin that serves the three modules above. */
export const moduleDashboardsPlugin = {
  name: 'module-dashboards',
  setup(b) {
    b.onResolve({ filter: /^torana:dashboard$/ }, () => ({ path: DASHBOARD_KIT }));
    b.onResolve({ filter: /^torana:module-(?:dashboards|rejection-forms)$/ }, (a) => ({
      path: a.path,
      namespace: 'module-dashboards',
    }));
    b.onLoad({ filter: /.*/, namespace: 'module-dashboards' }, (a) => ({
      contents: VIRTUAL[a.path](),
      loader: 'js',
      resolveDir: root,
    }));
  },
};
