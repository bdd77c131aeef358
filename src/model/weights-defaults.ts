// The defaults of the cost model's chain parameters (docs/cost-model.md "Caps"), apart from the weight
// table so that model/parameters.ts does not depend on the instruction list (which depends on it).

/** TransactionMaxWeight: fits a private join paying its fee (two Groth16 verifications, a pool append). */
export const DEFAULT_TRANSACTION_MAX_WEIGHT = 100_000;
/** BlockMaxWeight: about a quarter of the default one-second block time of execution. */
export const DEFAULT_BLOCK_MAX_WEIGHT = 250_000;
