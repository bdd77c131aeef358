// Page through every domain, 25 at a time, following the query cursor.

import { clientFromEnv } from './env.js';

const client = clientFromEnv();
let count = 0;
for await (const item of client.iterate({ kind: 'FindDomains' }, { sort: 'id:asc', fetchSize: 25 })) {
  if (item.kind === 'Domain') console.log(item.value.id);
  count++;
}
console.log(`${count} domains`);
