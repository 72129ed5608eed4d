// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title BuybackMarketplace — POOL-model buyback offers.
/// @notice The requester (the service's pool signer) signs an EIP-712 `OfferRequest` for one token.
/// The token holder accepts it ({acceptOffer}), or a relayer submits it on the holder's behalf with the
/// holder's own EIP-712 signature of the same `OfferRequest` ({acceptOfferFor}), as the live service's
/// accept/prepare hands the holder that typed data to sign. The NFT moves to the requester
/// (the marketplace must be approved by the holder); the requester's stablecoin allowance to the
/// marketplace pays `price - fee` to the holder and `fee` (= price × feeBps / 10 000) to the fee recipient.
contract BuybackMarketplace is EIP712, Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    struct OfferRequest {
        address tokenContractAddress;
        uint256 tokenId;
        uint256 price;
        address acceptedCurrency;
        uint256 deadline;
        address requester;
        uint256 chainId;
        uint256 minSellerAmount;
    }

    bytes32 public constant OFFER_REQUEST_TYPEHASH =
        keccak256(
            "OfferRequest(address tokenContractAddress,uint256 tokenId,uint256 price,address acceptedCurrency,uint256 deadline,address requester,uint256 chainId,uint256 minSellerAmount)"
        );
    uint16 public constant MAX_FEE_BPS = 1000;

    uint16 public feeBps;
    address public feeRecipient;
    mapping(bytes32 offerHash => bool) public offerUsed;

    event OfferAccepted(
        bytes32 indexed offerHash,
        uint256 indexed tokenId,
        address indexed seller,
        address requester,
        uint256 price,
        uint256 sellerAmount,
        uint256 fee
    );
    event OfferCancelled(bytes32 indexed offerHash, address indexed requester);
    event FeeSet(uint16 feeBps, address feeRecipient);

    error OfferExpired(uint256 deadline, uint256 nowTs);
    error WrongChain(uint256 offerChainId, uint256 chainId);
    error InvalidOfferSignature();
    error InvalidReceiverSignature();
    error OfferAlreadyUsed(bytes32 offerHash);
    error NotTokenHolder(uint256 tokenId, address caller, address holder);
    error SellerAmountTooLow(uint256 sellerAmount, uint256 minSellerAmount);
    error NotRequester(address caller);
    error FeeTooHigh(uint16 feeBps);
    error ZeroAddress();

    constructor(address initialOwner, address feeRecipient_, uint16 feeBps_)
        EIP712("BuybackMarketplace", "1")
        Ownable(initialOwner)
    {
        _setFee(feeBps_, feeRecipient_);
    }

    function setFee(uint16 feeBps_, address feeRecipient_) external onlyOwner {
        _setFee(feeBps_, feeRecipient_);
    }

    function _setFee(uint16 feeBps_, address feeRecipient_) internal {
        if (feeBps_ > MAX_FEE_BPS) revert FeeTooHigh(feeBps_);
        if (feeRecipient_ == address(0)) revert ZeroAddress();
        feeBps = feeBps_;
        feeRecipient = feeRecipient_;
        emit FeeSet(feeBps_, feeRecipient_);
    }

    function hashOffer(OfferRequest calldata offer) public view returns (bytes32) {
        return
            _hashTypedDataV4(
                keccak256(
                    abi.encode(
                        OFFER_REQUEST_TYPEHASH,
                        offer.tokenContractAddress,
                        offer.tokenId,
                        offer.price,
                        offer.acceptedCurrency,
                        offer.deadline,
                        offer.requester,
                        offer.chainId,
                        offer.minSellerAmount
                    )
                )
            );
    }

    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    function quote(uint256 price) public view returns (uint256 sellerAmount, uint256 fee) {
        fee = (price * feeBps) / 10_000;
        sellerAmount = price - fee;
    }

    /// @notice Accept an offer as the current token holder.
    function acceptOffer(OfferRequest calldata offer, bytes calldata signature) external nonReentrant returns (bytes32) {
        return _accept(offer, signature, msg.sender);
    }

    /// @notice Relayed accept: `receiver` (the current holder) signed the same OfferRequest typed data
    /// (digest = hashOffer(offer)); a signature by anyone else reverts InvalidReceiverSignature.
    function acceptOfferFor(
        OfferRequest calldata offer,
        bytes calldata signature,
        address receiver,
        bytes calldata receiverSignature
    ) external nonReentrant returns (bytes32) {
        bytes32 offerHash = hashOffer(offer);
        if (!SignatureChecker.isValidSignatureNow(receiver, offerHash, receiverSignature)) {
            revert InvalidReceiverSignature();
        }
        return _accept(offer, signature, receiver);
    }

    /// @notice The requester can void an offer it signed.
    function cancelOffer(OfferRequest calldata offer) external {
        if (msg.sender != offer.requester) revert NotRequester(msg.sender);
        bytes32 offerHash = hashOffer(offer);
        if (offerUsed[offerHash]) revert OfferAlreadyUsed(offerHash);
        offerUsed[offerHash] = true;
        emit OfferCancelled(offerHash, msg.sender);
    }

    function _accept(OfferRequest calldata offer, bytes calldata signature, address seller) internal returns (bytes32 offerHash) {
        if (block.timestamp > offer.deadline) revert OfferExpired(offer.deadline, block.timestamp);
        if (offer.chainId != block.chainid) revert WrongChain(offer.chainId, block.chainid);
        offerHash = hashOffer(offer);
        if (offerUsed[offerHash]) revert OfferAlreadyUsed(offerHash);
        if (!SignatureChecker.isValidSignatureNow(offer.requester, offerHash, signature)) revert InvalidOfferSignature();
        address holder = IERC721(offer.tokenContractAddress).ownerOf(offer.tokenId);
        if (holder != seller) revert NotTokenHolder(offer.tokenId, seller, holder);
        (uint256 sellerAmount, uint256 fee) = quote(offer.price);
        if (sellerAmount < offer.minSellerAmount) revert SellerAmountTooLow(sellerAmount, offer.minSellerAmount);
        offerUsed[offerHash] = true;

        // Frozen tokens (pending burn) revert inside the NFT with TokenFrozen(tokenId, burnType).
        IERC721(offer.tokenContractAddress).transferFrom(seller, offer.requester, offer.tokenId);
        IERC20 currency = IERC20(offer.acceptedCurrency);
        currency.safeTransferFrom(offer.requester, seller, sellerAmount);
        if (fee > 0) currency.safeTransferFrom(offer.requester, feeRecipient, fee);

        emit OfferAccepted(offerHash, offer.tokenId, seller, offer.requester, offer.price, sellerAmount, fee);
    }
}
