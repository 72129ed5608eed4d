import { FIXTURE_ACCOUNTS, type RpcGuard } from "../../chain/index.ts";
import { isWebhookDelivery, type ListenerPolicy } from "./listener-policy.ts";

// The chain's JSON-RPC under the listener policy. The node unlocks every fixture account, the role
// accounts included (the relayer holds the custodial float), and its methods reach beyond the chain's
// data (evm_revert, hardhat_reset, hardhat_setBalance …): a web page must never use them. So
// - a request refused by the policy (foreign Host, a page of another origin) is refused whole;
// - a webhook delivery never reaches it (docs/decisions.md "What a web page can do");
// - a page the policy accepts (a dapp on localhost) may read and send signed transactions, and sign or
//   send only as the fixture end users (their keys are public: `GET /_emulator/chain` lists them);
// - callers that are not browsers (viem in Node, the harness, curl) keep the whole node, as before.

/** Signing and sending as an unlocked account: the account is the parameter named here. */
const SIGNER_AT: Readonly<Record<string, (params: readonly unknown[]) => unknown>> = {
  eth_sendTransaction: (p) => (p[0] as { from?: unknown } | undefined)?.from,
  eth_signTransaction: (p) => (p[0] as { from?: unknown } | undefined)?.from,
  eth_sign: (p) => p[0],
  eth_signTypedData: (p) => p[0],
  eth_signTypedData_v1: (p) => p[0],
  eth_signTypedData_v3: (p) => p[0],
  eth_signTypedData_v4: (p) => p[0],
  personal_sign: (p) => p[1],
};

/** Namespaces that drive the node itself (time, snapshots, balances, impersonation, reset). */
const NODE_CONTROL = /^(evm|hardhat|personal)_/;

export function rpcGuard(policy: ListenerPolicy): RpcGuard {
  const endUsers = new Set(
    FIXTURE_ACCOUNTS.filter((a) => /^endUser\d+$/.test(a.label)).map((a) => a.address.toLowerCase()),
  );
  return {
    request(headers) {
      if (isWebhookDelivery(headers))
        return {
          status: 403,
          reason: "webhook_delivery",
          message: "A webhook delivery may not call the chain's JSON-RPC (register your own receiver's URL).",
        };
      const refused = policy.check(headers);
      return refused ? { status: refused.status, reason: refused.code, message: refused.message } : null;
    },
    call(method, params, headers) {
      if (!policy.fromBrowser(headers)) return null;
      const signer = SIGNER_AT[method];
      if (signer) {
        const from = signer(Array.isArray(params) ? params : []);
        if (typeof from === "string" && endUsers.has(from.toLowerCase())) return null;
        return {
          reason: "account_not_allowed",
          message:
            `${method} from a web page may use only the fixture end-user accounts (endUser1–10), not ${String(from)}: ` +
            `the role accounts (operator, relayer, pool signer, treasury, VRF node) are the emulator's own. Sign in the page and use eth_sendRawTransaction.`,
        };
      }
      if (NODE_CONTROL.test(method))
        return {
          reason: "method_not_allowed",
          message: `${method} drives the node itself and is not open to web pages; call it from a script (no Origin) or use the control plane.`,
        };
      return null;
    },
    responseHeaders: (headers) => policy.corsHeaders(headers),
  };
}
