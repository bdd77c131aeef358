// Figure `iso_pacs008_per_s` (issue 6 table "ISO 20022": pacs.008 messages accepted per second and p99,
// baseline the `POST /transaction` rate; goal ≥ 2,000 msg/s, "when the bridge exists"). The bridge's
// parsing and mapping exist in src/iso20022/, but the node's gateway does not serve
// `POST /v1/iso20022/pacs008` (gateway-interface.md "ISO 20022 bridge") yet, so there is nothing to load.

import { type Figure, type FigureResult, notMeasured } from '../lib/types.js';

const UNIT = 'msg/s';
const GOAL = '>= 2,000 pacs.008 msg/s';

export const isoFigure: Figure = {
  id: 'iso_pacs008_per_s',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    return notMeasured(
      'iso_pacs008_per_s',
      UNIT,
      GOAL,
      missing ??
        'the node does not serve POST /v1/iso20022/pacs008 yet (the bridge is not wired into the gateway)',
    );
  },
};
