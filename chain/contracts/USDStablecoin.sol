// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {ERC3009} from "@openzeppelin/contracts/token/ERC20/extensions/draft-ERC3009.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title USDStablecoin — emulator stand-in for Circle's USDC (FiatTokenV2_2 surface that clients use).
/// @notice 6 decimals, EIP-712 domain {name: "USD Coin", version: "2"}, EIP-2612 permit and
/// EIP-3009 transfer/receive/cancel authorization (both the v,r,s and the bytes-signature overloads,
/// as called by the x402 "exact" EVM scheme). Minting is restricted to the owner and minters.
contract USDStablecoin is ERC20, EIP712, Nonces, ERC3009, Ownable, IERC20Permit {
    bytes32 public constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    mapping(address account => bool) public isMinter;

    error ERC2612ExpiredSignature(uint256 deadline);
    error ERC2612InvalidSigner(address signer, address owner);
    error NotMinter(address account);
    error LengthMismatch();

    event MinterConfigured(address indexed minter, bool allowed);

    constructor(address initialOwner) ERC20("USD Coin", "USDC") EIP712("USD Coin", "2") Ownable(initialOwner) {}

    modifier onlyMinter() {
        if (msg.sender != owner() && !isMinter[msg.sender]) revert NotMinter(msg.sender);
        _;
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice EIP-712 domain version, read by x402 facilitators for diagnostics.
    function version() external pure returns (string memory) {
        return "2";
    }

    function setMinter(address minter, bool allowed) external onlyOwner {
        isMinter[minter] = allowed;
        emit MinterConfigured(minter, allowed);
    }

    function mint(address to, uint256 amount) external onlyMinter {
        _mint(to, amount);
    }

    function mintBatch(address[] calldata to, uint256[] calldata amounts) external onlyMinter {
        if (to.length != amounts.length) revert LengthMismatch();
        for (uint256 i = 0; i < to.length; i++) {
            _mint(to[i], amounts[i]);
        }
    }

    // ---------------------------------------------------------------- EIP-2612

    function permit(
        address owner_,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) public virtual {
        if (block.timestamp > deadline) revert ERC2612ExpiredSignature(deadline);
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner_, spender, value, _useNonce(owner_), deadline));
        address signer = ECDSA.recover(_hashTypedDataV4(structHash), v, r, s);
        if (signer != owner_) revert ERC2612InvalidSigner(signer, owner_);
        _approve(owner_, spender, value);
    }

    function nonces(address owner_) public view virtual override(IERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner_);
    }

    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    // ------------------------------------------- EIP-3009 bytes-signature overloads

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) public virtual {
        _requireSigned(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
        _transferWithAuthorization(from, to, value, validAfter, validBefore, nonce);
    }

    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) public virtual {
        _requireSigned(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
        if (to != _msgSender()) revert ERC20InvalidReceiver(to);
        _transferWithAuthorization(from, to, value, validAfter, validBefore, nonce);
    }

    /// @dev One check for both authorizations: `from` signed this typed message (EOA or ERC-1271 wallet).
    function _requireSigned(
        bytes32 typehash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private view {
        bytes32 hash = _hashTypedDataV4(keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce)));
        if (!SignatureChecker.isValidSignatureNow(from, hash, signature)) revert ERC3009InvalidSignature();
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) public virtual {
        bytes32 hash = _hashTypedDataV4(keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)));
        if (!SignatureChecker.isValidSignatureNow(authorizer, hash, signature)) revert ERC3009InvalidSignature();
        _cancelAuthorization(authorizer, nonce);
    }
}
