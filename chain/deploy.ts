import type { Hex, TransactionReceipt } from "viem";
import {
  buybackMarketplaceAbi,
  buybackMarketplaceBytecode,
  cardNftAbi,
  cardNftBytecode,
  instantPackAbi,
  instantPackBytecode,
  multicall3DeployedBytecode,
  mysteryPoolAbi,
  mysteryPoolBytecode,
  shippingPaymentProcessorAbi,
  shippingPaymentProcessorBytecode,
  usdStablecoinAbi,
  usdStablecoinBytecode,
  vrfCoordinatorMockAbi,
  vrfCoordinatorMockBytecode,
} from "./generated/contracts.ts";
import { END_USERS, OPERATOR, POOL_SIGNER, RELAYER, TREASURY, type FixtureAccount } from "./accounts.ts";
import { FUNDING, MARKETPLACE_FEE_BPS, MULTICALL3_ADDRESS, VRF_KEY_HASH } from "./constants.ts";
import type { PacketTypeConfig } from "./instant.ts";
import type { ChainAddresses } from "./state.ts";
import { viem } from "./viem-late.ts";
import { ItemType, tierExpectedValue, type GroupConfig, type TierConfig } from "./tiers.ts";

// The deployment: every contract, its configuration and the fixture accounts' funding, in a fixed
// order so that the addresses are the same on every fresh network.

/** What the deployment needs of the chain: send-and-wait as the operator (or another role) and raw JSON-RPC. */
export interface Deployer {
  deploy(label: string, abi: readonly unknown[], bytecode: Hex, args: readonly unknown[]): Promise<`0x${string}`>;
  write(
    from: FixtureAccount,
    label: string,
    to: `0x${string}`,
    abi: readonly unknown[],
    functionName: string,
    args: readonly unknown[],
  ): Promise<TransactionReceipt>;
  raw(method: string, params?: unknown[]): Promise<unknown>;
}

export interface DeployConfig {
  groups: readonly GroupConfig[];
  tiers: readonly TierConfig[];
  packetTypes: readonly PacketTypeConfig[];
}

export interface Deployment {
  addresses: ChainAddresses;
  vrf: { subscriptionId: bigint; keyHash: Hex };
}

export async function deployAll(
  d: Deployer,
  config: DeployConfig,
  progress: (step: string) => void,
): Promise<Deployment> {
  progress("deploying USDStablecoin");
  const stablecoin = await d.deploy("USDStablecoin", usdStablecoinAbi, usdStablecoinBytecode, [OPERATOR.address]);
  progress("deploying CardNFT");
  const cardNft = await d.deploy("CardNFT", cardNftAbi, cardNftBytecode, [OPERATOR.address]);
  progress("deploying VRFCoordinatorV2_5Mock");
  const vrfCoordinator = await d.deploy("VRFCoordinatorV2_5Mock", vrfCoordinatorMockAbi, vrfCoordinatorMockBytecode, [
    10n ** 17n, // base fee: 0.1 LINK
    10n ** 9n, // gas price: 1 gwei
    4n * 10n ** 15n, // wei per unit LINK
  ]);
  progress("creating VRF subscription");
  const subReceipt = await d.write(
    OPERATOR,
    "createSubscription",
    vrfCoordinator,
    vrfCoordinatorMockAbi,
    "createSubscription",
    [],
  );
  const created = viem().parseEventLogs({
    abi: vrfCoordinatorMockAbi,
    eventName: "SubscriptionCreated",
    logs: subReceipt.logs,
  });
  const subscriptionId = created[0]!.args.subId;
  await d.write(OPERATOR, "fundSubscription", vrfCoordinator, vrfCoordinatorMockAbi, "fundSubscription", [
    subscriptionId,
    FUNDING.vrfSubscriptionLink,
  ]);
  progress("deploying MysteryPool");
  const mysteryPool = await d.deploy("MysteryPool", mysteryPoolAbi, mysteryPoolBytecode, [
    OPERATOR.address,
    stablecoin,
    cardNft,
    vrfCoordinator,
    VRF_KEY_HASH,
    subscriptionId,
  ]);
  progress("configuring MysteryPool");
  await d.write(OPERATOR, "addConsumer", vrfCoordinator, vrfCoordinatorMockAbi, "addConsumer", [
    subscriptionId,
    mysteryPool,
  ]);
  const minterRole = viem().keccak256(viem().toHex("MINTER_ROLE"));
  await d.write(OPERATOR, "grant MINTER_ROLE", cardNft, cardNftAbi, "grantRole", [minterRole, mysteryPool]);
  await d.write(OPERATOR, "setRelayer", mysteryPool, mysteryPoolAbi, "setRelayer", [RELAYER.address, true]);
  await d.write(OPERATOR, "setGroups", mysteryPool, mysteryPoolAbi, "setGroups", [
    config.groups.map((g) => ({
      groupId: g.groupId,
      name: g.name,
      itemType: ItemType[g.itemType],
      minValue: g.minValue,
      maxValue: g.maxValue,
    })),
  ]);
  for (const t of config.tiers) {
    await d.write(OPERATOR, `configureTier ${t.tierId}`, mysteryPool, mysteryPoolAbi, "configureTier", [
      t.tierId,
      t.name,
      t.price,
      tierExpectedValue(t, config.groups),
      t.active,
      t.slots.map((s) => ({
        slotType: ItemType[s.slotType],
        groupIds: s.groups.map((g) => g.groupId),
        weights: s.groups.map((g) => g.weight),
      })),
    ]);
  }
  progress("deploying BuybackMarketplace");
  const marketplace = await d.deploy("BuybackMarketplace", buybackMarketplaceAbi, buybackMarketplaceBytecode, [
    OPERATOR.address,
    TREASURY.address,
    MARKETPLACE_FEE_BPS,
  ]);
  progress("deploying ShippingPaymentProcessor");
  // Shipping quotes are signed by the operator key (the service's shipping signer); payments go to the treasury.
  const shippingProcessor = await d.deploy(
    "ShippingPaymentProcessor",
    shippingPaymentProcessorAbi,
    shippingPaymentProcessorBytecode,
    [OPERATOR.address, stablecoin, cardNft, OPERATOR.address, TREASURY.address],
  );
  progress("deploying Multicall3");
  const existing = await d.raw("eth_getCode", [MULTICALL3_ADDRESS, "latest"]);
  if (!existing || existing === "0x") {
    try {
      await d.raw("hardhat_setCode", [MULTICALL3_ADDRESS, multicall3DeployedBytecode]);
    } catch {
      await d.raw("anvil_setCode", [MULTICALL3_ADDRESS, multicall3DeployedBytecode]);
    }
  }
  progress("funding accounts");
  const recipients = [mysteryPool, RELAYER.address, POOL_SIGNER.address, ...END_USERS.map((u) => u.address)];
  const amounts = [
    FUNDING.mysteryPoolLiquidityUsdc,
    FUNDING.relayerUsdc,
    FUNDING.poolSignerUsdc,
    ...END_USERS.map(() => FUNDING.endUserUsdc),
  ];
  await d.write(OPERATOR, "mintBatch", stablecoin, usdStablecoinAbi, "mintBatch", [recipients, amounts]);
  await d.write(POOL_SIGNER, "approve marketplace", stablecoin, usdStablecoinAbi, "approve", [
    marketplace,
    viem().maxUint256,
  ]);
  await d.write(RELAYER, "approve pool", stablecoin, usdStablecoinAbi, "approve", [mysteryPool, viem().maxUint256]);

  // Last, so the addresses of everything deployed before it do not move.
  progress("deploying InstantPack");
  const instantPack = await d.deploy("InstantPack", instantPackAbi, instantPackBytecode, [
    OPERATOR.address,
    stablecoin,
    cardNft,
    vrfCoordinator,
    VRF_KEY_HASH,
    subscriptionId,
  ]);
  await d.write(OPERATOR, "addConsumer instant", vrfCoordinator, vrfCoordinatorMockAbi, "addConsumer", [
    subscriptionId,
    instantPack,
  ]);
  await d.write(OPERATOR, "grant MINTER_ROLE instant", cardNft, cardNftAbi, "grantRole", [minterRole, instantPack]);
  for (const t of config.packetTypes) {
    await d.write(
      OPERATOR,
      `configurePacketType ${t.packetTypeId}`,
      instantPack,
      instantPackAbi,
      "configurePacketType",
      [t.packetTypeId, t.price, t.stock, t.cardsPerPack],
    );
  }

  const addresses: ChainAddresses = {
    stablecoin,
    cardNft,
    mysteryPool,
    vrfCoordinator,
    marketplace,
    multicall3: MULTICALL3_ADDRESS,
    shippingProcessor,
    instantPack,
  };
  return { addresses, vrf: { subscriptionId, keyHash: VRF_KEY_HASH } };
}
