// Register a domain and an asset definition, mint into our own account, and wait for the commit.

import { formatNumeric, instructions as ix, TransactionRejectedError } from 'torana/sdk';
import { clientFromEnv } from './env.js';

const client = clientFromEnv();
const me = client.opts.account!;
const domain = `example${Date.now().toString(36)}`;
const coin = `coin#${domain}`;

const tx = await client.build([
  ix.registerDomain(domain),
  ix.registerAssetDefinition(coin, { scale: 2 }),
  ix.mintAsset(coin, me, '100.00'),
]);
try {
  const { blockHeight } = await client.submitAndWait(tx);
  console.log(`committed ${tx.hash} in block ${blockHeight}`);
} catch (e) {
  if (e instanceof TransactionRejectedError) console.error(`rejected: ${e.code}`);
  throw e;
}
const balance = await client.find({ kind: 'FindAssetById', id: `${coin}#${me}` });
if (balance.kind === 'Asset') console.log(`balance of ${coin}: ${formatNumeric(balance.value.value)}`); // 100.00, at the definition's scale
