import type { Area } from "../area.ts";
import { buybackRoutes } from "./buyback/routes.ts";
import { shopRoutes, collectionRoutes, feedRoutes } from "./shop/routes.ts";
import { mysteryControl } from "./control.ts";
import { overviewControl } from "./control-overview.ts";
import { relayerControl } from "./control-relayer.ts";
import { purchaseControl } from "./purchases/control.ts";
import { purchaseRoutes } from "./purchases/routes.ts";
import { redemptionControl } from "./redemption/control.ts";
import { redemptionRoutes } from "./redemption/routes.ts";
import { revenueControl } from "./control-revenue.ts";
import { revenueRoutes } from "./revenue/routes.ts";
import { sellbackRoutes } from "./sellback/routes.ts";
import { balanceRoutes, walletLedgerRoutes, walletRoutes } from "./wallet/routes.ts";
import { startWorker } from "./worker.ts";
import { userWalletPort } from "./wallet/port.ts";
import { provideUserWallet } from "../../pipeline/user-wallet-port.ts";
import { provideRelayerSwitch } from "../../pipeline/relayer-port.ts";
import { relayerOn } from "./purchases/relay.ts";
import { startSteering, steerControl } from "./steer.ts";

// Mystery-pack commerce on the local chain (docs/reference/api-rules.md “Mystery commerce endpoints”;
// docs/reference/live-service.md “Mystery commerce”): purchases, redemption with burn on dispatch, buyback and
// pool forwarding, sell-back, prices, wallets and stats. See docs/mystery.md.
export const mysteryArea: Area = {
  name: "mystery",
  routes: [
    ...purchaseRoutes,
    ...balanceRoutes,
    ...shopRoutes,
    ...redemptionRoutes,
    ...buybackRoutes,
    ...walletRoutes,
    ...sellbackRoutes,
    ...feedRoutes,
    ...collectionRoutes,
    ...revenueRoutes,
    ...walletLedgerRoutes,
  ],
  control: [
    ...overviewControl,
    ...mysteryControl,
    ...revenueControl,
    ...redemptionControl,
    ...relayerControl,
    ...purchaseControl,
    ...steerControl,
  ],
  start: (s) => {
    // Other areas charge the custodial wallet through this port (the instant area's custodial purchases).
    const custody = userWalletPort(s);
    provideUserWallet(s, custody);
    // ... and read the relayer switch through this one (custodial instant purchases are relayed too).
    provideRelayerSwitch(s, () => relayerOn(s));
    const stopWorker = startWorker(s);
    const stopSteering = startSteering(s);
    return {
      custody,
      stop: () => {
        stopSteering();
        return stopWorker();
      },
    };
  },
};
