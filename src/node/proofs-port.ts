// Adapts the node to the ledger-proofs family's port (src/proofs/port.ts): the block log, the committed
// world state and its state tree, and the validator sets (membership.ts; the genesis set before the
// peer table names any).

import { validatorSetAt } from '../consensus/membership.js';
import type { Validator } from '../consensus/validator-set.js';
import type { GatewayPorts } from '../gateway/ports.js';
import type { ProofsPort } from '../proofs/port.js';
import { tableOfKey } from '../proofs/state-key.js';
import type { BaseTable } from '../state/table.js';
import { bytesEqual } from '../util/hex.js';
import type { Node } from './node.js';

export function proofsPort(node: Node, ports: GatewayPorts): ProofsPort {
  const state = () => node.ledger.state;
  return {
    chain: ports.chain,
    chainId: node.config.node.chainId,
    stateHeight: () => state().version,
    prove: (key, height) => state().tree.prove(key, height),
    currentValue: (key) => {
      const where = tableOfKey(key);
      if (where === undefined) return undefined;
      const table = state().tables[where.table] as BaseTable<unknown>;
      const row = table.get(where.id);
      return row === undefined ? undefined : table.encodeValue(row);
    },
    validatorsAt: (height, setHash): Validator[] | undefined => {
      const set = validatorSetAt(state(), height);
      if (set.size > 0 && bytesEqual(set.hash, setHash)) return [...set.validators];
      if (bytesEqual(node.validatorSet.hash, setHash)) return [...node.validatorSet.validators];
      return undefined;
    },
    versionsKept: node.config.storage.stateTreeVersionsKept,
    archivedValue: (key, vh) => node.ledger.archivedValue(key, vh),
    blockLogBase: () => node.ledger.blockLogBase(),
    pins: node.ledger.proofRetention,
    pinsMax: node.config.storage.stateProofPinsMax,
  };
}
