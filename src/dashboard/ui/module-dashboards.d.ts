// The ledger modules' dashboard additions, bundled by scripts/build-dashboard.mjs from each
// `src/modules/<name>/dashboard.ts` (extensions.ts).
declare module 'torana:module-dashboards' {
  const dashboards: readonly import('./extensions.js').DashboardExtension[];
  export default dashboards;
}
