// The message kinds the bridge takes (one submission route each) and the reports it writes (one XML
// report route each). The one list of each: the records, the routes, the planner and the CLI read them
// from here. A module without imports, so that the CLI can name them without loading the bridge.

export const MESSAGE_KINDS_ROUTED = [
  'pacs008',
  'pacs009',
  'pacs002',
  'pacs004',
  'camt056',
  'sese023',
  'sese024',
  'sese025',
  'colr012',
] as const;
export type RoutedKind = (typeof MESSAGE_KINDS_ROUTED)[number];

export const REPORT_KINDS = ['pacs002', 'pacs004', 'camt029', 'sese024', 'sese025'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export function isRoutedKind(value: string): value is RoutedKind {
  return (MESSAGE_KINDS_ROUTED as readonly string[]).includes(value);
}
