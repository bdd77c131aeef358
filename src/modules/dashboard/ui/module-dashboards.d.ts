// What module-dashboards.mjs bundles from the other module folders, found by convention: their
// `dashboard.ts` (extensions.ts) and their `rejection-forms.ts` (rejections.ts).
declare module 'torana:module-dashboards' {
  const dashboards: readonly import('./extensions.js').DashboardExtension[];
  export default dashboards;
}
declare module 'torana:module-rejection-forms' {
  const forms: readonly import('../../../model/rejection-text.js').RejectionForms[];
  export default forms;
}
