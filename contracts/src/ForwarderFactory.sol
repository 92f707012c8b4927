// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Forwarder} from "./Forwarder.sol";

/// Makes payment forwarders at counterfactual CREATE2 addresses, a function of (this factory, payout, salt).
/// Permissionless: no owner, no upgrade, no admin function. Deployed from a fresh key at nonce 0 it has the same
/// address on every chain, and so has its implementation (the factory's first creation), and so every forwarder.
contract ForwarderFactory {
    /// The logic every forwarder delegates to.
    address public immutable implementation;

    /// One forwarder to flush in a batch: its payout and salt, and the tokens to send on.
    struct Sweep {
        address payout;
        bytes32 salt;
        address[] tokens;
    }

    event ForwarderDeployed(address indexed forwarder, address indexed payout, bytes32 salt);

    error ZeroPayout();

    constructor() {
        implementation = address(new Forwarder());
    }

    /// The forwarder's address, deployed or not. Funds may be sent there before it exists.
    function forwarderAddress(address payout, bytes32 salt) public view returns (address) {
        return Clones.predictDeterministicAddressWithImmutableArgs(implementation, abi.encodePacked(payout), salt);
    }

    /// Deploys the forwarder unless it exists (idempotent, so deploying first is harmless) and returns its address.
    function deploy(address payout, bytes32 salt) public returns (address forwarder) {
        if (payout == address(0)) revert ZeroPayout();
        forwarder = forwarderAddress(payout, salt);
        if (forwarder.code.length == 0) {
            Clones.cloneDeterministicWithImmutableArgs(implementation, abi.encodePacked(payout), salt);
            emit ForwarderDeployed(forwarder, payout, salt);
        }
    }

    /// Deploys when needed and flushes one forwarder.
    function flush(address payout, bytes32 salt, address[] calldata tokens) external {
        Forwarder(payable(deploy(payout, salt))).flush(tokens);
    }

    /// Deploys when needed and flushes many forwarders in one transaction.
    function flushMany(Sweep[] calldata sweeps) external {
        for (uint256 i = 0; i < sweeps.length; ++i) {
            Forwarder(payable(deploy(sweeps[i].payout, sweeps[i].salt))).flush(sweeps[i].tokens);
        }
    }
}
