// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

interface ICardBurnState {
    function ownerOf(uint256 tokenId) external view returns (address);
    function burnState(uint256 tokenId) external view returns (uint8 burnType, bool pending, bool burned);
}

/// @title ShippingPaymentProcessor — the holder pays a redemption's shipping on chain.
/// @notice The service's shipping signer signs an EIP-712 `ShippingQuote` for one redemption
/// (single use per `orderId`, bound to the payer, fixed amount, valid until `expirationTime`).
/// The holder approves the stablecoin to this contract and calls {payShipping} after flagging the
/// token for redemption: the token must have a pending burn of the quote's burn type, held by the
/// payer. The amount goes to the recipient (the service's treasury); `ShippingPaid` is what the
/// service waits for before the item ships.
contract ShippingPaymentProcessor is EIP712, Ownable {
    using SafeERC20 for IERC20;

    struct ShippingQuote {
        string orderId;
        address payer;
        uint256 tokenId;
        uint8 burnType;
        uint256 amount;
        uint256 expirationTime;
    }

    bytes32 public constant SHIPPING_QUOTE_TYPEHASH =
        keccak256("ShippingQuote(string orderId,address payer,uint256 tokenId,uint8 burnType,uint256 amount,uint256 expirationTime)");

    IERC20 public immutable token;
    ICardBurnState public immutable cardNft;
    address public signer;
    address public recipient;
    mapping(bytes32 orderKey => bool) private _paid;

    event ShippingPaid(bytes32 indexed orderKey, address indexed payer, uint256 indexed tokenId, string orderId, uint256 amount);
    event SignerSet(address signer);
    event RecipientSet(address recipient);

    error WrongPayer(address caller, address payer);
    error QuoteExpired(uint256 expirationTime, uint256 nowTs);
    error AlreadyPaid(string orderId);
    error InvalidQuoteSignature();
    error BurnNotPending(uint256 tokenId);
    error NotTokenHolder(uint256 tokenId, address payer);
    error ZeroAddress();

    constructor(address initialOwner, IERC20 token_, ICardBurnState cardNft_, address signer_, address recipient_)
        EIP712("ShippingPaymentProcessor", "1")
        Ownable(initialOwner)
    {
        token = token_;
        cardNft = cardNft_;
        _setSigner(signer_);
        _setRecipient(recipient_);
    }

    function setSigner(address signer_) external onlyOwner {
        _setSigner(signer_);
    }

    function setRecipient(address recipient_) external onlyOwner {
        _setRecipient(recipient_);
    }

    function _setSigner(address signer_) internal {
        if (signer_ == address(0)) revert ZeroAddress();
        signer = signer_;
        emit SignerSet(signer_);
    }

    function _setRecipient(address recipient_) internal {
        if (recipient_ == address(0)) revert ZeroAddress();
        recipient = recipient_;
        emit RecipientSet(recipient_);
    }

    function hashQuote(ShippingQuote calldata q) public view returns (bytes32) {
        return
            _hashTypedDataV4(
                keccak256(
                    abi.encode(SHIPPING_QUOTE_TYPEHASH, keccak256(bytes(q.orderId)), q.payer, q.tokenId, q.burnType, q.amount, q.expirationTime)
                )
            );
    }

    function orderKeyOf(string calldata orderId) public pure returns (bytes32) {
        return keccak256(bytes(orderId));
    }

    function isPaid(string calldata orderId) external view returns (bool) {
        return _paid[keccak256(bytes(orderId))];
    }

    /// @notice Pays the quoted shipping; must follow the holder's `initiateBurn` of the token.
    function payShipping(ShippingQuote calldata q, bytes calldata signature) external {
        if (msg.sender != q.payer) revert WrongPayer(msg.sender, q.payer);
        if (block.timestamp > q.expirationTime) revert QuoteExpired(q.expirationTime, block.timestamp);
        bytes32 key = keccak256(bytes(q.orderId));
        if (_paid[key]) revert AlreadyPaid(q.orderId);
        if (!SignatureChecker.isValidSignatureNow(signer, hashQuote(q), signature)) revert InvalidQuoteSignature();
        (uint8 burnType, bool pending, ) = cardNft.burnState(q.tokenId);
        if (!pending || burnType != q.burnType) revert BurnNotPending(q.tokenId);
        if (cardNft.ownerOf(q.tokenId) != q.payer) revert NotTokenHolder(q.tokenId, q.payer);
        _paid[key] = true;
        token.safeTransferFrom(q.payer, recipient, q.amount);
        emit ShippingPaid(key, q.payer, q.tokenId, q.orderId, q.amount);
    }
}
