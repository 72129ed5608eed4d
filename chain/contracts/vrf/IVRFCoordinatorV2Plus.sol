// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {VRFV2PlusClient} from "./VRFV2PlusClient.sol";

/// @notice Subset of Chainlink's IVRFCoordinatorV2Plus used by consumers.
interface IVRFCoordinatorV2Plus {
    function requestRandomWords(VRFV2PlusClient.RandomWordsRequest calldata req) external returns (uint256 requestId);
}

/// @notice Callback entry point of VRF v2.5 consumers (Chainlink's VRFConsumerBaseV2Plus).
interface IVRFConsumerV2Plus {
    function rawFulfillRandomWords(uint256 requestId, uint256[] calldata randomWords) external;
}
