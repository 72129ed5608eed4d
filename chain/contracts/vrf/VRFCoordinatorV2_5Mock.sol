// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {VRFV2PlusClient} from "./VRFV2PlusClient.sol";
import {IVRFConsumerV2Plus} from "./IVRFCoordinatorV2Plus.sol";

/// @title VRFCoordinatorV2_5Mock — behaviour-compatible re-implementation of Chainlink's mock.
/// @notice Subscriptions must exist, be funded and list the consumer. Fulfilment is manual
/// ({fulfillRandomWords} / {fulfillRandomWordsWithOverride}); like Chainlink's mock a reverting
/// consumer callback does not revert the fulfilment, it emits RandomWordsFulfilled(success=false).
/// Payments are charged in mock "LINK" units (or native) from the subscription balance.
contract VRFCoordinatorV2_5Mock {
    uint96 public immutable i_base_fee;
    uint96 public immutable i_gas_price;
    int256 public immutable i_wei_per_unit_link;

    uint16 public constant MAX_REQUEST_CONFIRMATIONS = 200;
    uint32 public constant MAX_NUM_WORDS = 500;
    uint256 private constant GAS_FOR_CALL_EXACT_CHECK = 5_000;

    struct Subscription {
        address owner;
        uint96 balance;
        uint96 nativeBalance;
        uint64 reqCount;
    }

    struct Request {
        uint256 subId;
        uint32 callbackGasLimit;
        uint32 numWords;
        bool nativePayment;
        address sender;
    }

    uint256 public s_currentSubNonce;
    uint256 public s_nextRequestId = 1;
    uint256 public s_nextPreSeed = 100;

    mapping(uint256 subId => Subscription) internal s_subscriptions;
    mapping(uint256 subId => address[]) internal s_consumers;
    mapping(uint256 subId => mapping(address consumer => bool)) internal s_isConsumer;
    mapping(uint256 requestId => Request) internal s_requests;

    uint256[] internal s_pending;
    mapping(uint256 requestId => uint256 indexPlusOne) internal s_pendingIndex;

    event SubscriptionCreated(uint256 indexed subId, address owner);
    event SubscriptionFunded(uint256 indexed subId, uint256 oldBalance, uint256 newBalance);
    event SubscriptionFundedWithNative(uint256 indexed subId, uint256 oldNativeBalance, uint256 newNativeBalance);
    event SubscriptionCanceled(uint256 indexed subId, address to, uint256 amountLink, uint256 amountNative);
    event SubscriptionConsumerAdded(uint256 indexed subId, address consumer);
    event SubscriptionConsumerRemoved(uint256 indexed subId, address consumer);
    event RandomWordsRequested(
        bytes32 indexed keyHash,
        uint256 requestId,
        uint256 preSeed,
        uint256 indexed subId,
        uint16 minimumRequestConfirmations,
        uint32 callbackGasLimit,
        uint32 numWords,
        bytes extraArgs,
        address indexed sender
    );
    event RandomWordsFulfilled(
        uint256 indexed requestId,
        uint256 outputSeed,
        uint256 indexed subId,
        uint96 payment,
        bool nativePayment,
        bool success,
        bool onlyPremium
    );

    error InvalidSubscription();
    error MustBeSubOwner(address owner);
    error InvalidConsumer(uint256 subId, address consumer);
    error InvalidRequestConfirmations(uint16 have, uint16 min, uint16 max);
    error NumWordsTooBig(uint32 have, uint32 want);
    error InvalidExtraArgsTag();
    error InvalidRequest();
    error InvalidRandomWords();
    error InsufficientBalance();
    error InsufficientGasForConsumer(uint256 have, uint256 want);

    constructor(uint96 _baseFee, uint96 _gasPrice, int256 _weiPerUnitLink) {
        i_base_fee = _baseFee;
        i_gas_price = _gasPrice;
        i_wei_per_unit_link = _weiPerUnitLink;
    }

    // ---------------------------------------------------------------- subscriptions

    function createSubscription() external returns (uint256 subId) {
        subId = ++s_currentSubNonce;
        s_subscriptions[subId].owner = msg.sender;
        emit SubscriptionCreated(subId, msg.sender);
    }

    function fundSubscription(uint256 _subId, uint256 _amount) external {
        Subscription storage sub = _sub(_subId);
        uint256 oldBalance = sub.balance;
        sub.balance += uint96(_amount);
        emit SubscriptionFunded(_subId, oldBalance, sub.balance);
    }

    function fundSubscriptionWithNative(uint256 _subId) external payable {
        Subscription storage sub = _sub(_subId);
        uint256 oldBalance = sub.nativeBalance;
        sub.nativeBalance += uint96(msg.value);
        emit SubscriptionFundedWithNative(_subId, oldBalance, sub.nativeBalance);
    }

    function addConsumer(uint256 _subId, address _consumer) external {
        Subscription storage sub = _sub(_subId);
        if (sub.owner != msg.sender) revert MustBeSubOwner(sub.owner);
        if (s_isConsumer[_subId][_consumer]) return; // idempotent, like the real coordinator
        s_isConsumer[_subId][_consumer] = true;
        s_consumers[_subId].push(_consumer);
        emit SubscriptionConsumerAdded(_subId, _consumer);
    }

    function removeConsumer(uint256 _subId, address _consumer) external {
        Subscription storage sub = _sub(_subId);
        if (sub.owner != msg.sender) revert MustBeSubOwner(sub.owner);
        if (!s_isConsumer[_subId][_consumer]) revert InvalidConsumer(_subId, _consumer);
        s_isConsumer[_subId][_consumer] = false;
        address[] storage consumers = s_consumers[_subId];
        for (uint256 i = 0; i < consumers.length; i++) {
            if (consumers[i] == _consumer) {
                consumers[i] = consumers[consumers.length - 1];
                consumers.pop();
                break;
            }
        }
        emit SubscriptionConsumerRemoved(_subId, _consumer);
    }

    function cancelSubscription(uint256 _subId, address _to) external {
        Subscription storage sub = _sub(_subId);
        if (sub.owner != msg.sender) revert MustBeSubOwner(sub.owner);
        uint256 link = sub.balance;
        uint256 native = sub.nativeBalance;
        address[] storage consumers = s_consumers[_subId];
        for (uint256 i = 0; i < consumers.length; i++) {
            s_isConsumer[_subId][consumers[i]] = false;
        }
        delete s_consumers[_subId];
        delete s_subscriptions[_subId];
        if (native > 0) {
            (bool ok, ) = _to.call{value: native}("");
            require(ok, "native transfer failed");
        }
        emit SubscriptionCanceled(_subId, _to, link, native);
    }

    function getSubscription(uint256 _subId)
        external
        view
        returns (uint96 balance, uint96 nativeBalance, uint64 reqCount, address subOwner, address[] memory consumers)
    {
        Subscription storage sub = _sub(_subId);
        return (sub.balance, sub.nativeBalance, sub.reqCount, sub.owner, s_consumers[_subId]);
    }

    function consumerIsAdded(uint256 _subId, address _consumer) external view returns (bool) {
        return s_isConsumer[_subId][_consumer];
    }

    // ---------------------------------------------------------------- requests

    function requestRandomWords(VRFV2PlusClient.RandomWordsRequest calldata _req) external returns (uint256 requestId) {
        _sub(_req.subId);
        if (!s_isConsumer[_req.subId][msg.sender]) revert InvalidConsumer(_req.subId, msg.sender);
        if (_req.requestConfirmations > MAX_REQUEST_CONFIRMATIONS) {
            revert InvalidRequestConfirmations(_req.requestConfirmations, 0, MAX_REQUEST_CONFIRMATIONS);
        }
        if (_req.numWords > MAX_NUM_WORDS) revert NumWordsTooBig(_req.numWords, MAX_NUM_WORDS);
        bool nativePayment = _nativePayment(_req.extraArgs);

        requestId = s_nextRequestId++;
        uint256 preSeed = s_nextPreSeed++;
        s_requests[requestId] = Request({
            subId: _req.subId,
            callbackGasLimit: _req.callbackGasLimit,
            numWords: _req.numWords,
            nativePayment: nativePayment,
            sender: msg.sender
        });
        s_pending.push(requestId);
        s_pendingIndex[requestId] = s_pending.length;
        s_subscriptions[_req.subId].reqCount++;

        emit RandomWordsRequested(
            _req.keyHash,
            requestId,
            preSeed,
            _req.subId,
            _req.requestConfirmations,
            _req.callbackGasLimit,
            _req.numWords,
            _req.extraArgs,
            msg.sender
        );
    }

    function getRequest(uint256 _requestId)
        external
        view
        returns (uint256 subId, uint32 callbackGasLimit, uint32 numWords, bool nativePayment, address sender)
    {
        Request storage r = s_requests[_requestId];
        return (r.subId, r.callbackGasLimit, r.numWords, r.nativePayment, r.sender);
    }

    /// @notice Requests not fulfilled yet (unordered). Emulator extension, not in Chainlink's mock.
    function pendingRequestIds() external view returns (uint256[] memory) {
        return s_pending;
    }

    // ---------------------------------------------------------------- fulfilment

    function fulfillRandomWords(uint256 _requestId, address _consumer) external {
        fulfillRandomWordsWithOverride(_requestId, _consumer, new uint256[](0));
    }

    function fulfillRandomWordsWithOverride(uint256 _requestId, address _consumer, uint256[] memory _words) public {
        uint256 startGas = gasleft();
        Request memory req = s_requests[_requestId];
        if (req.subId == 0) revert InvalidRequest();

        if (_words.length == 0) {
            _words = new uint256[](req.numWords);
            for (uint256 i = 0; i < req.numWords; i++) {
                _words[i] = uint256(keccak256(abi.encode(_requestId, i)));
            }
        } else if (_words.length != req.numWords) {
            revert InvalidRandomWords();
        }

        delete s_requests[_requestId];
        _removePending(_requestId);

        bytes memory callReq = abi.encodeCall(IVRFConsumerV2Plus.rawFulfillRandomWords, (_requestId, _words));
        // Call with exact gas: make sure the consumer really gets callbackGasLimit (EIP-150 keeps 1/64),
        // so an under-funded transaction reverts instead of reporting a spurious callback failure.
        uint256 want = uint256(req.callbackGasLimit) + GAS_FOR_CALL_EXACT_CHECK;
        uint256 have = gasleft();
        if (have - have / 64 < want) revert InsufficientGasForConsumer(have, want);
        (bool success, ) = _consumer.call{gas: req.callbackGasLimit}(callReq);

        uint96 payment = uint96(i_base_fee + (startGas - gasleft()) * i_gas_price);
        Subscription storage sub = s_subscriptions[req.subId];
        if (req.nativePayment) {
            if (sub.nativeBalance < payment) revert InsufficientBalance();
            sub.nativeBalance -= payment;
        } else {
            if (sub.balance < payment) revert InsufficientBalance();
            sub.balance -= payment;
        }

        emit RandomWordsFulfilled(_requestId, _requestId, req.subId, payment, req.nativePayment, success, false);
    }

    // ---------------------------------------------------------------- internals

    function _sub(uint256 _subId) internal view returns (Subscription storage sub) {
        sub = s_subscriptions[_subId];
        if (sub.owner == address(0)) revert InvalidSubscription();
    }

    function _nativePayment(bytes calldata extraArgs) internal pure returns (bool) {
        if (extraArgs.length == 0) return false;
        if (bytes4(extraArgs) != VRFV2PlusClient.EXTRA_ARGS_V1_TAG) revert InvalidExtraArgsTag();
        return abi.decode(extraArgs[4:], (VRFV2PlusClient.ExtraArgsV1)).nativePayment;
    }

    function _removePending(uint256 _requestId) internal {
        uint256 idx = s_pendingIndex[_requestId];
        if (idx == 0) return;
        uint256 last = s_pending[s_pending.length - 1];
        s_pending[idx - 1] = last;
        s_pendingIndex[last] = idx;
        s_pending.pop();
        delete s_pendingIndex[_requestId];
    }
}
