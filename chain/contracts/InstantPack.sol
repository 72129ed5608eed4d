// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {CardNFT} from "./CardNFT.sol";
import {VRFV2PlusClient} from "./vrf/VRFV2PlusClient.sol";
import {IVRFCoordinatorV2Plus, IVRFConsumerV2Plus} from "./vrf/IVRFCoordinatorV2Plus.sol";

/// @title InstantPack — the emulator's instant-pack store (the live service's RipFunStore).
/// @notice A packet type is a booster product with a fixed stablecoin price and a finite stock of
/// pre-built bundles (packs ripped ahead of time). {purchaseInstantOpenFor} takes the price from
/// the caller, reserves one unit of stock and requests one VRF word; the coordinator's callback
/// draws one of the bundles not yet opened (a lazy Fisher–Yates over the bundle ids, so every
/// remaining bundle is equally likely and none is drawn twice) and mints its cards to the
/// recipient (InstantPackOpened names the bundle, so the draw is verifiable from the logs).
/// The owner may refund or fail an unopened purchase (stock and price go back).
contract InstantPack is Ownable, ReentrancyGuard, IVRFConsumerV2Plus {
    using SafeERC20 for IERC20;

    struct PacketType {
        uint256 price; // stablecoin micros
        uint32 stock; // bundles still for sale (reserved ones excluded)
        uint32 bundles; // bundles ever stocked
        uint32 opened; // bundles drawn
        uint8 cardsPerPack;
        bool exists;
    }

    enum OpeningStatus {
        NONE,
        REQUESTED,
        OPENED,
        REFUNDED,
        FAILED
    }

    struct Opening {
        address purchaser;
        address recipient;
        uint32 packetTypeId;
        OpeningStatus status;
        uint32 bundleId;
        uint256 price;
        uint256[] tokenIds;
    }

    IERC20 public immutable stablecoin;
    CardNFT public immutable cardNft;
    address public vrfCoordinator;
    bytes32 public keyHash;
    uint256 public subscriptionId;
    uint32 public callbackGasLimit = 2_500_000;
    uint16 public requestConfirmations = 3;

    mapping(uint256 packetTypeId => PacketType) internal _types;
    uint256[] internal _typeIds;
    /// Position → bundle id + 1 of the undrawn bundles (0 = the position's own index).
    mapping(uint256 packetTypeId => mapping(uint256 position => uint256)) internal _pool;
    mapping(uint256 requestId => Opening) internal _openings;

    event PacketTypeConfigured(uint256 indexed packetTypeId, uint256 price, uint32 stock, uint8 cardsPerPack);
    event InstantPurchaseRequested(
        uint256 indexed requestId,
        address indexed purchaser,
        uint256 indexed packetTypeId,
        address recipient,
        uint256 price
    );
    event InstantPackOpened(uint256 indexed requestId, address indexed recipient, uint256 indexed packetTypeId, uint256 bundleId, uint256[] tokenIds);
    event InstantPurchaseRefunded(uint256 indexed requestId, address indexed purchaser, uint256 amount, bool failed);

    error OnlyCoordinatorCanFulfill(address have, address want);
    error UnknownPacketType(uint256 packetTypeId);
    error SoldOut(uint256 packetTypeId);
    error PriceAboveMax(uint256 price, uint256 maxPrice);
    error ZeroRecipient();
    error UnknownRequest(uint256 requestId);
    error RequestNotPending(uint256 requestId);
    error InvalidConfig(string reason);

    constructor(address initialOwner, IERC20 stablecoin_, CardNFT cardNft_, address coordinator_, bytes32 keyHash_, uint256 subscriptionId_)
        Ownable(initialOwner)
    {
        stablecoin = stablecoin_;
        cardNft = cardNft_;
        vrfCoordinator = coordinator_;
        keyHash = keyHash_;
        subscriptionId = subscriptionId_;
    }

    // ================================================================ admin

    /// @notice Creates a packet type with `stock` bundles (ids 0..stock-1).
    function configurePacketType(uint32 packetTypeId, uint256 price, uint32 stock, uint8 cardsPerPack) external onlyOwner {
        if (packetTypeId == 0 || cardsPerPack == 0 || price == 0) revert InvalidConfig("id, price and cardsPerPack must be non-zero");
        PacketType storage t = _types[packetTypeId];
        if (t.exists) revert InvalidConfig("packet type exists");
        t.price = price;
        t.stock = stock;
        t.bundles = stock;
        t.cardsPerPack = cardsPerPack;
        t.exists = true;
        _typeIds.push(packetTypeId);
        emit PacketTypeConfigured(packetTypeId, price, stock, cardsPerPack);
    }

    function setPrice(uint32 packetTypeId, uint256 price) external onlyOwner {
        PacketType storage t = _known(packetTypeId);
        if (price == 0) revert InvalidConfig("price");
        t.price = price;
        emit PacketTypeConfigured(packetTypeId, price, t.stock, t.cardsPerPack);
    }

    /// @notice Adds `count` new bundles (the next ids) to the undrawn pool.
    function restock(uint32 packetTypeId, uint32 count) external onlyOwner {
        PacketType storage t = _known(packetTypeId);
        uint256 undrawn = uint256(t.bundles) - t.opened;
        for (uint256 i = 0; i < count; i++) _pool[packetTypeId][undrawn + i] = uint256(t.bundles) + i + 1;
        t.bundles += count;
        t.stock += count;
        emit PacketTypeConfigured(packetTypeId, t.price, t.stock, t.cardsPerPack);
    }

    /// @notice Pays an unopened purchase back (REFUNDED, or FAILED when `failed`); its stock returns.
    function refund(uint256 requestId, bool failed) external onlyOwner nonReentrant {
        Opening storage o = _openings[requestId];
        if (o.status == OpeningStatus.NONE) revert UnknownRequest(requestId);
        if (o.status != OpeningStatus.REQUESTED) revert RequestNotPending(requestId);
        o.status = failed ? OpeningStatus.FAILED : OpeningStatus.REFUNDED;
        _types[o.packetTypeId].stock += 1;
        stablecoin.safeTransfer(o.purchaser, o.price);
        emit InstantPurchaseRefunded(requestId, o.purchaser, o.price, failed);
    }

    function withdraw(address to, uint256 amount) external onlyOwner {
        stablecoin.safeTransfer(to, amount);
    }

    // ================================================================ purchase

    /// @notice Buys one pack of `packetTypeId` (price pulled from the caller) and opens it for `recipient`.
    function purchaseInstantOpenFor(uint32 packetTypeId, address recipient, uint256 maxPrice) external nonReentrant returns (uint256 requestId) {
        if (recipient == address(0)) revert ZeroRecipient();
        PacketType storage t = _known(packetTypeId);
        if (t.stock == 0) revert SoldOut(packetTypeId);
        uint256 price = t.price;
        if (price > maxPrice) revert PriceAboveMax(price, maxPrice);
        t.stock -= 1;
        stablecoin.safeTransferFrom(msg.sender, address(this), price);
        requestId = IVRFCoordinatorV2Plus(vrfCoordinator).requestRandomWords(
            VRFV2PlusClient.RandomWordsRequest({
                keyHash: keyHash,
                subId: subscriptionId,
                requestConfirmations: requestConfirmations,
                callbackGasLimit: callbackGasLimit,
                numWords: 1,
                extraArgs: VRFV2PlusClient._argsToBytes(VRFV2PlusClient.ExtraArgsV1({nativePayment: false}))
            })
        );
        Opening storage o = _openings[requestId];
        o.purchaser = msg.sender;
        o.recipient = recipient;
        o.packetTypeId = packetTypeId;
        o.status = OpeningStatus.REQUESTED;
        o.price = price;
        emit InstantPurchaseRequested(requestId, msg.sender, packetTypeId, recipient, price);
    }

    // ================================================================ open

    function rawFulfillRandomWords(uint256 requestId, uint256[] calldata randomWords) external {
        if (msg.sender != vrfCoordinator) revert OnlyCoordinatorCanFulfill(msg.sender, vrfCoordinator);
        Opening storage o = _openings[requestId];
        if (o.status == OpeningStatus.NONE) revert UnknownRequest(requestId);
        if (o.status != OpeningStatus.REQUESTED) revert RequestNotPending(requestId);
        PacketType storage t = _types[o.packetTypeId];
        uint256 word = randomWords.length > 0 ? randomWords[0] : 0;
        uint256 bundleId = _draw(o.packetTypeId, t, word);
        uint256 n = t.cardsPerPack;
        uint256[] memory tokenIds = new uint256[](n);
        for (uint256 i = 0; i < n; i++) tokenIds[i] = cardNft.mint(o.recipient, CardNFT.ItemType.CARD, "", 0);
        o.status = OpeningStatus.OPENED;
        o.bundleId = uint32(bundleId);
        o.tokenIds = tokenIds;
        emit InstantPackOpened(requestId, o.recipient, o.packetTypeId, bundleId, tokenIds);
    }

    /// One undrawn bundle, uniformly: position word % undrawn, replaced by the last undrawn one.
    function _draw(uint256 packetTypeId, PacketType storage t, uint256 word) internal returns (uint256 bundleId) {
        uint256 undrawn = uint256(t.bundles) - t.opened;
        if (undrawn == 0) revert SoldOut(packetTypeId); // unreachable: stock is reserved at purchase
        uint256 pos = word % undrawn;
        bundleId = _at(packetTypeId, pos);
        _pool[packetTypeId][pos] = _at(packetTypeId, undrawn - 1) + 1;
        t.opened += 1;
    }

    function _at(uint256 packetTypeId, uint256 pos) internal view returns (uint256) {
        uint256 v = _pool[packetTypeId][pos];
        return v == 0 ? pos : v - 1;
    }

    function _known(uint256 packetTypeId) internal view returns (PacketType storage t) {
        t = _types[packetTypeId];
        if (!t.exists) revert UnknownPacketType(packetTypeId);
    }

    // ================================================================ views

    function packetTypeIds() external view returns (uint256[] memory) {
        return _typeIds;
    }

    function getPacketType(uint256 packetTypeId) external view returns (PacketType memory) {
        return _types[packetTypeId];
    }

    function getOpening(uint256 requestId) external view returns (Opening memory) {
        return _openings[requestId];
    }
}
