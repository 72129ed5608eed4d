// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {CardNFT} from "./CardNFT.sol";
import {VRFV2PlusClient} from "./vrf/VRFV2PlusClient.sol";
import {IVRFCoordinatorV2Plus, IVRFConsumerV2Plus} from "./vrf/IVRFCoordinatorV2Plus.sol";

/// @title MysteryPool — mystery-pack purchases revealed by VRF, plus the TIER-model sell-back pool.
/// @notice Flow: buyer approves the stablecoin, calls {purchase}(tierId) → payment pulled, VRF
/// requested (PurchaseRequested carries the VRF request id) → coordinator calls
/// {rawFulfillRandomWords} → one item per tier slot is drawn by the slot's group weights and minted
/// to the buyer (PurchaseRevealed). Payments stay in the pool as the sell-back float.
/// Sell-back: the original recipient of a pool-minted item may sell it back within the buyback
/// window at oracle value × discount ({acceptCardBuyback}); batches are all-or-nothing.
/// Shortfall: the owner may mark a pending purchase short by n items ({setShortfall}); its reveal then
/// mints only the first slots − n items and pays price × n / slots back to the payer in the same call.
contract MysteryPool is Ownable, ReentrancyGuard, IVRFConsumerV2Plus {
    using SafeERC20 for IERC20;

    uint256 public constant MAX_BUYBACK_BATCH = 50;
    uint256 public constant VALUE_STEP = 10_000; // item values are whole cents (micros)

    struct Group {
        CardNFT.ItemType itemType;
        uint64 minValue; // USD micros
        uint64 maxValue; // USD micros
        bool exists;
        string name;
    }

    struct Slot {
        CardNFT.ItemType slotType;
        uint32[] groupIds;
        uint32[] weights;
    }

    struct Tier {
        string name;
        uint256 price; // stablecoin micros
        uint256 targetEv; // stablecoin micros (informational)
        bool active;
        bool exists;
        uint64 totalPurchases;
        Slot[] slots;
    }

    enum PurchaseStatus {
        NONE,
        REQUESTED,
        REVEALED,
        REFUNDED
    }

    struct Purchase {
        address buyer;
        address payer;
        uint32 tierId;
        PurchaseStatus status;
        uint64 requestedAt;
        uint256 price;
        uint256[] tokenIds;
    }

    struct TokenRecord {
        address originalRecipient;
        uint64 mintedAt;
        uint32 tierId;
        uint32 groupId;
        bool soldBack;
        uint256 requestId;
        uint256 oracleValue; // USD micros, 0 = unknown
    }

    IERC20 public immutable stablecoin;
    CardNFT public immutable cardNft;
    address public vrfCoordinator;
    bytes32 public keyHash;
    uint256 public subscriptionId;
    uint32 public callbackGasLimit = 2_500_000;
    uint16 public requestConfirmations = 3;
    bool public vrfNativePayment;

    uint64 public buybackWindow = 30 days;
    uint16 public buybackDiscountPermille = 850;

    mapping(address => bool) public isRelayer;
    mapping(uint256 groupId => Group) internal _groups;
    uint256[] internal _groupIds;
    mapping(uint256 tierId => Tier) internal _tiers;
    uint256[] internal _tierIds;
    mapping(uint256 requestId => Purchase) internal _purchases;
    mapping(uint256 tokenId => TokenRecord) internal _tokens;
    /// Items a pending purchase's reveal will not deliver ({setShortfall}).
    mapping(uint256 requestId => uint32) public shortfallOf;
    /// What the reveal paid back for them (0 until it lands).
    mapping(uint256 requestId => uint256) public shortfallRefundOf;

    event PurchaseRequested(uint256 indexed requestId, address indexed buyer, uint256 indexed tierId, uint256 price);
    event RelayedPurchase(uint256 indexed requestId, address indexed relayer, address indexed buyer);
    event ItemRevealed(
        uint256 indexed requestId,
        uint256 indexed tokenId,
        uint256 slotIndex,
        uint256 groupId,
        CardNFT.ItemType itemType,
        uint256 value
    );
    event PurchaseRevealed(uint256 indexed requestId, address indexed buyer, uint256[] tokenIds);
    event PurchaseRefunded(uint256 indexed requestId, address indexed payer, uint256 amount);
    event ShortfallSet(uint256 indexed requestId, uint32 items);
    event PurchaseShortfallRefunded(uint256 indexed requestId, address indexed payer, uint32 items, uint256 amount);
    event CardSellExecuted(address indexed seller, uint256[] tokenIds, uint256 total);
    event TierConfigured(uint256 indexed tierId, string name, uint256 price, bool active);
    event GroupConfigured(uint256 indexed groupId, string name, CardNFT.ItemType itemType, uint256 minValue, uint256 maxValue);
    event OracleValueSet(uint256 indexed tokenId, uint256 value);
    event RelayerSet(address indexed relayer, bool allowed);
    event BuybackParamsSet(uint64 window, uint16 discountPermille);

    error OnlyCoordinatorCanFulfill(address have, address want);
    error NotRelayer(address caller);
    error TierNotFound(uint256 tierId);
    error TierInactive(uint256 tierId);
    error PriceAboveMax(uint256 price, uint256 maxPrice);
    error GroupNotFound(uint256 groupId);
    error InvalidTierConfig(string reason);
    error InvalidGroupConfig(string reason);
    error UnknownRequest(uint256 requestId);
    error RequestNotPending(uint256 requestId);
    error EmptyBatch();
    error BatchTooLarge(uint256 size, uint256 max);
    error NoBuybackWindow(uint256 tokenId);
    error NotTokenHolder(uint256 tokenId, address caller);
    error NotOriginalRecipient(uint256 tokenId, address caller, address originalRecipient);
    error BuybackWindowExpired(uint256 tokenId, uint256 expiredAt);
    error ValueUnknown(uint256 tokenId);
    error PayoutBelowMinimum(uint256 total, uint256 minTotal);
    error InsufficientLiquidity(uint256 available, uint256 required);
    error LengthMismatch();

    constructor(
        address initialOwner,
        IERC20 stablecoin_,
        CardNFT cardNft_,
        address coordinator_,
        bytes32 keyHash_,
        uint256 subscriptionId_
    ) Ownable(initialOwner) {
        stablecoin = stablecoin_;
        cardNft = cardNft_;
        vrfCoordinator = coordinator_;
        keyHash = keyHash_;
        subscriptionId = subscriptionId_;
    }

    // ================================================================ admin

    function setVrfConfig(
        address coordinator_,
        bytes32 keyHash_,
        uint256 subscriptionId_,
        uint32 callbackGasLimit_,
        uint16 requestConfirmations_,
        bool nativePayment_
    ) external onlyOwner {
        vrfCoordinator = coordinator_;
        keyHash = keyHash_;
        subscriptionId = subscriptionId_;
        callbackGasLimit = callbackGasLimit_;
        requestConfirmations = requestConfirmations_;
        vrfNativePayment = nativePayment_;
    }

    function setRelayer(address relayer, bool allowed) external onlyOwner {
        isRelayer[relayer] = allowed;
        emit RelayerSet(relayer, allowed);
    }

    function setBuybackParams(uint64 window, uint16 discountPermille) external onlyOwner {
        if (discountPermille > 1000) revert InvalidTierConfig("discount > 1000");
        buybackWindow = window;
        buybackDiscountPermille = discountPermille;
        emit BuybackParamsSet(window, discountPermille);
    }

    function setGroup(
        uint32 groupId,
        string calldata name,
        CardNFT.ItemType itemType,
        uint64 minValue,
        uint64 maxValue
    ) public onlyOwner {
        if (groupId == 0) revert InvalidGroupConfig("groupId 0");
        if (minValue > maxValue) revert InvalidGroupConfig("min > max");
        Group storage g = _groups[groupId];
        if (!g.exists) _groupIds.push(groupId);
        g.exists = true;
        g.name = name;
        g.itemType = itemType;
        g.minValue = minValue;
        g.maxValue = maxValue;
        emit GroupConfigured(groupId, name, itemType, minValue, maxValue);
    }

    struct GroupInput {
        uint32 groupId;
        string name;
        CardNFT.ItemType itemType;
        uint64 minValue;
        uint64 maxValue;
    }

    function setGroups(GroupInput[] calldata groups) external onlyOwner {
        for (uint256 i = 0; i < groups.length; i++) {
            GroupInput calldata g = groups[i];
            setGroup(g.groupId, g.name, g.itemType, g.minValue, g.maxValue);
        }
    }

    /// @notice Create or replace a tier. Each slot yields one item, drawn among its groups by weight.
    function configureTier(
        uint32 tierId,
        string calldata name,
        uint256 price,
        uint256 targetEv,
        bool active,
        Slot[] calldata slots
    ) external onlyOwner {
        if (tierId == 0) revert InvalidTierConfig("tierId 0");
        if (price == 0) revert InvalidTierConfig("price 0");
        if (slots.length == 0 || slots.length > 10) revert InvalidTierConfig("slot count");
        Tier storage t = _tiers[tierId];
        if (!t.exists) _tierIds.push(tierId);
        t.exists = true;
        t.name = name;
        t.price = price;
        t.targetEv = targetEv;
        t.active = active;
        delete t.slots;
        for (uint256 i = 0; i < slots.length; i++) {
            Slot calldata s = slots[i];
            if (s.groupIds.length == 0 || s.groupIds.length != s.weights.length) revert InvalidTierConfig("slot groups");
            uint256 total;
            for (uint256 j = 0; j < s.groupIds.length; j++) {
                if (!_groups[s.groupIds[j]].exists) revert GroupNotFound(s.groupIds[j]);
                total += s.weights[j];
            }
            if (total == 0) revert InvalidTierConfig("zero weights");
            t.slots.push(s);
        }
        emit TierConfigured(tierId, name, price, active);
    }

    function setTierActive(uint32 tierId, bool active) external onlyOwner {
        Tier storage t = _tiers[tierId];
        if (!t.exists) revert TierNotFound(tierId);
        t.active = active;
        emit TierConfigured(tierId, t.name, t.price, active);
    }

    function setTierPrice(uint32 tierId, uint256 price) external onlyOwner {
        Tier storage t = _tiers[tierId];
        if (!t.exists) revert TierNotFound(tierId);
        if (price == 0) revert InvalidTierConfig("price 0");
        t.price = price;
        emit TierConfigured(tierId, t.name, price, t.active);
    }

    function setOracleValue(uint256 tokenId, uint256 value) public onlyOwner {
        _tokens[tokenId].oracleValue = value;
        emit OracleValueSet(tokenId, value);
    }

    function setOracleValues(uint256[] calldata tokenIds, uint256[] calldata values) external onlyOwner {
        if (tokenIds.length != values.length) revert LengthMismatch();
        for (uint256 i = 0; i < tokenIds.length; i++) {
            setOracleValue(tokenIds[i], values[i]);
        }
    }

    /// @notice Refund a purchase whose reveal never happened (e.g. the VRF callback failed).
    function refundPurchase(uint256 requestId) external onlyOwner nonReentrant {
        Purchase storage p = _purchases[requestId];
        if (p.status != PurchaseStatus.REQUESTED) revert RequestNotPending(requestId);
        p.status = PurchaseStatus.REFUNDED;
        stablecoin.safeTransfer(p.payer, p.price);
        emit PurchaseRefunded(requestId, p.payer, p.price);
    }

    /// @notice The reveal of a pending purchase will deliver all but its last `items` slots and pay
    /// their share of the price back to the payer. Setting it again replaces the count.
    function setShortfall(uint256 requestId, uint32 items) external onlyOwner {
        Purchase storage p = _purchases[requestId];
        if (p.status != PurchaseStatus.REQUESTED) revert RequestNotPending(requestId);
        if (items >= _tiers[p.tierId].slots.length) revert InvalidTierConfig("shortfall");
        shortfallOf[requestId] = items;
        emit ShortfallSet(requestId, items);
    }

    function withdraw(address to, uint256 amount) external onlyOwner {
        stablecoin.safeTransfer(to, amount);
    }

    function withdrawToken(uint256 tokenId, address to) external onlyOwner {
        cardNft.transferFrom(address(this), to, tokenId);
    }

    // ================================================================ purchase

    function purchase(uint32 tierId) external nonReentrant returns (uint256 requestId) {
        return _purchase(msg.sender, msg.sender, tierId, type(uint256).max);
    }

    /// @notice Purchase with a price cap (reverts with PriceAboveMax if the tier price was raised).
    function purchase(uint32 tierId, uint256 maxPrice) external nonReentrant returns (uint256 requestId) {
        return _purchase(msg.sender, msg.sender, tierId, maxPrice);
    }

    /// @notice Custodial purchase: an authorised relayer pays and the items go to `buyer`.
    function purchaseFor(address buyer, uint32 tierId) external nonReentrant returns (uint256 requestId) {
        return _purchaseFor(buyer, tierId, type(uint256).max);
    }

    function purchaseFor(address buyer, uint32 tierId, uint256 maxPrice) external nonReentrant returns (uint256 requestId) {
        return _purchaseFor(buyer, tierId, maxPrice);
    }

    function _purchaseFor(address buyer, uint32 tierId, uint256 maxPrice) internal returns (uint256 requestId) {
        if (!isRelayer[msg.sender]) revert NotRelayer(msg.sender);
        requestId = _purchase(msg.sender, buyer, tierId, maxPrice);
        emit RelayedPurchase(requestId, msg.sender, buyer);
    }

    function _purchase(address payer, address buyer, uint32 tierId, uint256 maxPrice) internal returns (uint256 requestId) {
        Tier storage t = _tiers[tierId];
        if (!t.exists) revert TierNotFound(tierId);
        if (!t.active) revert TierInactive(tierId);
        uint256 price = t.price;
        if (price > maxPrice) revert PriceAboveMax(price, maxPrice);
        stablecoin.safeTransferFrom(payer, address(this), price);

        requestId = IVRFCoordinatorV2Plus(vrfCoordinator).requestRandomWords(
            VRFV2PlusClient.RandomWordsRequest({
                keyHash: keyHash,
                subId: subscriptionId,
                requestConfirmations: requestConfirmations,
                callbackGasLimit: callbackGasLimit,
                numWords: uint32(t.slots.length),
                extraArgs: VRFV2PlusClient._argsToBytes(VRFV2PlusClient.ExtraArgsV1({nativePayment: vrfNativePayment}))
            })
        );
        Purchase storage p = _purchases[requestId];
        p.buyer = buyer;
        p.payer = payer;
        p.tierId = tierId;
        p.status = PurchaseStatus.REQUESTED;
        p.requestedAt = uint64(block.timestamp);
        p.price = price;
        t.totalPurchases++;
        emit PurchaseRequested(requestId, buyer, tierId, price);
    }

    // ================================================================ reveal

    function rawFulfillRandomWords(uint256 requestId, uint256[] calldata randomWords) external {
        if (msg.sender != vrfCoordinator) revert OnlyCoordinatorCanFulfill(msg.sender, vrfCoordinator);
        _reveal(requestId, randomWords);
    }

    function _reveal(uint256 requestId, uint256[] calldata randomWords) internal {
        Purchase storage p = _purchases[requestId];
        if (p.status == PurchaseStatus.NONE) revert UnknownRequest(requestId);
        if (p.status != PurchaseStatus.REQUESTED) revert RequestNotPending(requestId);
        Tier storage t = _tiers[p.tierId];
        uint256 n = t.slots.length - shortfallOf[requestId];
        uint256[] memory tokenIds = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            uint256 word = randomWords.length > 0 ? randomWords[i % randomWords.length] : 0;
            uint256 rnd = uint256(keccak256(abi.encode(word, i)));
            (uint32 groupId, Group storage g) = _pickGroup(t.slots[i], rnd);
            uint256 value = _pickValue(g, rnd >> 128);
            uint256 tokenId = cardNft.mint(p.buyer, g.itemType, "", value);
            _tokens[tokenId] = TokenRecord({
                originalRecipient: p.buyer,
                mintedAt: uint64(block.timestamp),
                tierId: p.tierId,
                groupId: groupId,
                soldBack: false,
                requestId: requestId,
                oracleValue: value
            });
            tokenIds[i] = tokenId;
            emit ItemRevealed(requestId, tokenId, i, groupId, g.itemType, value);
        }
        p.status = PurchaseStatus.REVEALED;
        p.tokenIds = tokenIds;
        emit PurchaseRevealed(requestId, p.buyer, tokenIds);
        _payShortfall(requestId, p, t.slots.length);
    }

    /// The undelivered slots' share of the price goes back to the payer with the reveal.
    function _payShortfall(uint256 requestId, Purchase storage p, uint256 slots) internal {
        uint32 short = shortfallOf[requestId];
        if (short == 0) return;
        uint256 refund = (p.price * short) / slots;
        shortfallRefundOf[requestId] = refund;
        stablecoin.safeTransfer(p.payer, refund);
        emit PurchaseShortfallRefunded(requestId, p.payer, short, refund);
    }

    function _pickGroup(Slot storage s, uint256 rnd) internal view returns (uint32, Group storage) {
        uint256 total;
        uint256 len = s.weights.length;
        for (uint256 j = 0; j < len; j++) total += s.weights[j];
        uint256 x = (rnd & type(uint128).max) % total;
        for (uint256 j = 0; j < len; j++) {
            uint256 w = s.weights[j];
            if (x < w) return (s.groupIds[j], _groups[s.groupIds[j]]);
            x -= w;
        }
        revert InvalidTierConfig("weights"); // unreachable
    }

    function _pickValue(Group storage g, uint256 rnd) internal view returns (uint256) {
        uint256 lo = (uint256(g.minValue) + VALUE_STEP - 1) / VALUE_STEP;
        uint256 hi = uint256(g.maxValue) / VALUE_STEP;
        if (hi <= lo) return uint256(g.minValue);
        return (lo + (rnd % (hi - lo + 1))) * VALUE_STEP;
    }

    // ================================================================ sell-back

    /// @notice Sell pool-minted items back at oracle value × discount. Caller must hold every token,
    /// be its original recipient and be inside its buyback window; any ineligible token reverts the
    /// whole batch. Requires `cardNft.setApprovalForAll(pool, true)`.
    function acceptCardBuyback(uint256[] calldata tokenIds, uint256 minTotal) external nonReentrant returns (uint256 total) {
        uint256 n = tokenIds.length;
        if (n == 0) revert EmptyBatch();
        if (n > MAX_BUYBACK_BATCH) revert BatchTooLarge(n, MAX_BUYBACK_BATCH);
        for (uint256 i = 0; i < n; i++) {
            uint256 tokenId = tokenIds[i];
            TokenRecord storage r = _tokens[tokenId];
            if (r.originalRecipient == address(0) || r.soldBack) revert NoBuybackWindow(tokenId);
            if (cardNft.ownerOf(tokenId) != msg.sender) revert NotTokenHolder(tokenId, msg.sender);
            if (r.originalRecipient != msg.sender) revert NotOriginalRecipient(tokenId, msg.sender, r.originalRecipient);
            uint256 expiresAt = uint256(r.mintedAt) + buybackWindow;
            if (block.timestamp > expiresAt) revert BuybackWindowExpired(tokenId, expiresAt);
            if (r.oracleValue == 0) revert ValueUnknown(tokenId);
            total += (r.oracleValue * buybackDiscountPermille) / 1000;
            r.soldBack = true;
            cardNft.transferFrom(msg.sender, address(this), tokenId);
        }
        if (total < minTotal) revert PayoutBelowMinimum(total, minTotal);
        uint256 available = stablecoin.balanceOf(address(this));
        if (available < total) revert InsufficientLiquidity(available, total);
        stablecoin.safeTransfer(msg.sender, total);
        emit CardSellExecuted(msg.sender, tokenIds, total);
    }

    // ================================================================ views

    function getTier(uint256 tierId) external view returns (Tier memory) {
        if (!_tiers[tierId].exists) revert TierNotFound(tierId);
        return _tiers[tierId];
    }

    function tierIds() external view returns (uint256[] memory) {
        return _tierIds;
    }

    function tierPrice(uint256 tierId) external view returns (uint256) {
        if (!_tiers[tierId].exists) revert TierNotFound(tierId);
        return _tiers[tierId].price;
    }

    function getGroup(uint256 groupId) external view returns (Group memory) {
        if (!_groups[groupId].exists) revert GroupNotFound(groupId);
        return _groups[groupId];
    }

    function groupIds() external view returns (uint256[] memory) {
        return _groupIds;
    }

    function getPurchase(uint256 requestId) external view returns (Purchase memory) {
        return _purchases[requestId];
    }

    function getTokenRecord(uint256 tokenId) external view returns (TokenRecord memory) {
        return _tokens[tokenId];
    }

    function originalRecipientOf(uint256 tokenId) external view returns (address) {
        return _tokens[tokenId].originalRecipient;
    }

    function mintedAtOf(uint256 tokenId) external view returns (uint256) {
        return _tokens[tokenId].mintedAt;
    }

    function oracleValueOf(uint256 tokenId) external view returns (uint256) {
        return _tokens[tokenId].oracleValue;
    }

    /// @notice Unix seconds after which the token can no longer be sold back (0 = not pool-minted).
    function buybackExpiresAt(uint256 tokenId) public view returns (uint256) {
        TokenRecord storage r = _tokens[tokenId];
        if (r.originalRecipient == address(0)) return 0;
        return uint256(r.mintedAt) + buybackWindow;
    }

    function buybackPayoutOf(uint256 tokenId) public view returns (uint256) {
        return (_tokens[tokenId].oracleValue * buybackDiscountPermille) / 1000;
    }

    function liquidity() external view returns (uint256) {
        return stablecoin.balanceOf(address(this));
    }
}
