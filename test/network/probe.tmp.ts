import { TestNetwork } from '../helpers/network.js';
import { LoadGenerator } from '../helpers/network-load.js';
import { FAST_CONSENSUS, sleep } from '../helpers/network-scenario.js';

const t0 = Date.now();
const el = () => ((Date.now() - t0) / 1000).toFixed(1);
const net = await TestNetwork.create({ validators: 4, config: FAST_CONSENSUS });
try {
  await net.start();
  console.log(el(), 'started');
  const load = new LoadGenerator({
    urls: net.manifest.peers.map((p) => p.gatewayUrl),
    chainId: net.manifest.chainId,
    admin: await net.admin(),
    ratePerSecond: 30,
  });
  await load.setup();
  load.start();
  await sleep(3000);
  const { leader } = await net.leader();
  console.log(el(), 'leader', leader, await net.heights());
  await net.peer(leader!).kill9();
  net.peer(leader!).start();
  for (let k = 0; k < 30; k++) {
    await sleep(1000);
    console.log(el(), await net.heights(), (await net.leader()).byPeer);
  }
  console.log(await load.stop());
  console.log(net.peer(leader!).logs(80).join('\n'));
} catch (e) {
  console.log(e);
} finally {
  await net.stop();
}
