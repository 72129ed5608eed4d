// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title CardNFT — card / graded card / packet / sealed product items as ERC-721 tokens.
/// @notice Items are minted by the mystery pool on reveal. Physical redemption is "burn on
/// dispatch": the holder calls {initiateBurn} (transfers freeze), the operator calls
/// {finalizeBurn} when the item ships (token burned) or {cancelBurn} (transfers unfreeze).
/// Burn types: 0 = none, 1 = REDEEM_CARD, 2 = REDEEM_PRODUCT, 3 = GRADING; other non-zero values are accepted.
contract CardNFT is ERC721, AccessControl {
    enum ItemType {
        CARD,
        GRADED_CARD,
        PACKET,
        SEALED_PRODUCT
    }

    struct Item {
        ItemType itemType;
        uint64 mintedAt;
        uint256 value; // USD micros at mint
        string cardId;
    }

    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");

    uint8 public constant BURN_NONE = 0;
    uint8 public constant BURN_REDEEM_CARD = 1;
    uint8 public constant BURN_REDEEM_PRODUCT = 2;
    uint8 public constant BURN_GRADING = 3;

    uint256 public nextTokenId = 1;
    string private _baseTokenURI;

    mapping(uint256 tokenId => Item) private _items;
    mapping(uint256 tokenId => uint8) private _burnType;
    mapping(uint256 tokenId => bool) private _burnPending;
    mapping(uint256 tokenId => bool) private _burned;

    event ItemMinted(uint256 indexed tokenId, address indexed to, ItemType itemType, uint256 value, string cardId);
    event CardIdSet(uint256 indexed tokenId, string cardId);
    event BurnInitiated(uint256 indexed tokenId, address indexed holder, uint8 burnType);
    event BurnCancelled(uint256 indexed tokenId, uint8 burnType);
    event BurnFinalized(uint256 indexed tokenId, address indexed holder, uint8 burnType);

    error TokenFrozen(uint256 tokenId, uint8 burnType);
    error NotTokenHolder(uint256 tokenId, address caller);
    error InvalidBurnType(uint8 burnType);
    error BurnAlreadyPending(uint256 tokenId);
    error NoPendingBurn(uint256 tokenId);

    constructor(address admin) ERC721("Emulator Cards", "EMUC") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(OPERATOR_ROLE, admin);
    }

    // ---------------------------------------------------------------- minting & metadata

    function mint(address to, ItemType itemType, string calldata cardId, uint256 value)
        external
        onlyRole(MINTER_ROLE)
        returns (uint256 tokenId)
    {
        tokenId = nextTokenId++;
        _items[tokenId] = Item({itemType: itemType, mintedAt: uint64(block.timestamp), value: value, cardId: cardId});
        _mint(to, tokenId);
        emit ItemMinted(tokenId, to, itemType, value, cardId);
    }

    function setCardId(uint256 tokenId, string calldata cardId) external onlyRole(OPERATOR_ROLE) {
        _requireOwned(tokenId);
        _items[tokenId].cardId = cardId;
        emit CardIdSet(tokenId, cardId);
    }

    function setBaseURI(string calldata baseURI) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _baseTokenURI = baseURI;
    }

    function _baseURI() internal view override returns (string memory) {
        return _baseTokenURI;
    }

    /// @notice Item data; readable after the token was burned.
    function getItem(uint256 tokenId) external view returns (Item memory) {
        return _items[tokenId];
    }

    function getItemType(uint256 tokenId) external view returns (ItemType) {
        return _items[tokenId].itemType;
    }

    function exists(uint256 tokenId) external view returns (bool) {
        return _ownerOf(tokenId) != address(0);
    }

    // ---------------------------------------------------------------- burn on dispatch

    function initiateBurn(uint256 tokenId, uint8 burnType) external {
        address holder = _requireOwned(tokenId);
        if (holder != msg.sender) revert NotTokenHolder(tokenId, msg.sender);
        if (burnType == BURN_NONE) revert InvalidBurnType(burnType);
        if (_burnPending[tokenId]) revert BurnAlreadyPending(tokenId);
        _burnPending[tokenId] = true;
        _burnType[tokenId] = burnType;
        emit BurnInitiated(tokenId, holder, burnType);
    }

    function cancelBurn(uint256 tokenId) external onlyRole(OPERATOR_ROLE) {
        if (!_burnPending[tokenId]) revert NoPendingBurn(tokenId);
        uint8 burnType = _burnType[tokenId];
        _burnPending[tokenId] = false;
        _burnType[tokenId] = BURN_NONE;
        emit BurnCancelled(tokenId, burnType);
    }

    function finalizeBurn(uint256 tokenId) external onlyRole(OPERATOR_ROLE) {
        if (!_burnPending[tokenId]) revert NoPendingBurn(tokenId);
        address holder = _requireOwned(tokenId);
        _burnPending[tokenId] = false;
        _burned[tokenId] = true;
        _burn(tokenId);
        emit BurnFinalized(tokenId, holder, _burnType[tokenId]);
    }

    /// @notice Burn type of a pending or finalized burn (0 = none). Stays readable after the burn.
    function getItemBurnType(uint256 tokenId) external view returns (uint8) {
        return _burnType[tokenId];
    }

    function isTransferFrozen(uint256 tokenId) public view returns (bool) {
        return _burnPending[tokenId];
    }

    function isBurned(uint256 tokenId) external view returns (bool) {
        return _burned[tokenId];
    }

    function burnState(uint256 tokenId) external view returns (uint8 burnType, bool pending, bool burned) {
        return (_burnType[tokenId], _burnPending[tokenId], _burned[tokenId]);
    }

    // ---------------------------------------------------------------- hooks

    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        // Frozen tokens can only move to address(0), i.e. be burned by finalizeBurn.
        if (_burnPending[tokenId] && to != address(0)) revert TokenFrozen(tokenId, _burnType[tokenId]);
        return super._update(to, tokenId, auth);
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC721, AccessControl) returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
