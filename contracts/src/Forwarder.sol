// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// One payment's deposit address. Deployed by ForwarderFactory as an EIP-1167 clone whose immutable args are the
/// merchant's payout address (20 bytes), so the payout is part of the address itself: nobody, the service included,
/// can make these funds go anywhere else. Anyone may call `flush`; no function takes a recipient.
contract Forwarder {
    using SafeERC20 for IERC20;

    /// The implementation's own address, so the implementation (which has no args) refuses to act as a forwarder.
    address private immutable _self = address(this);

    /// Gas given to the payout with the native coin: enough for a Safe or any wallet contract's receive, never the
    /// whole batch's gas, so a payout that burns gas cannot make the other forwarders of a batch fail.
    uint256 private constant NATIVE_SEND_GAS = 100_000;

    /// `token` is the zero address for the native coin.
    event Flushed(address indexed token, uint256 amount);

    error NotAForwarder();

    receive() external payable {}

    /// Where every flush sends the funds: the clone's immutable args.
    function payout() public view returns (address) {
        if (address(this) == _self) revert NotAForwarder();
        return address(bytes20(Clones.fetchCloneArgs(address(this))));
    }

    /// Sends each token's whole balance (SafeERC20: tokens that return no bool, like USDT, work), then the whole native
    /// balance. A payout that refuses the native coin keeps it here and does not block the tokens.
    function flush(address[] calldata tokens) external {
        address to = payout();
        for (uint256 i = 0; i < tokens.length; ++i) {
            IERC20 token = IERC20(tokens[i]);
            uint256 amount = token.balanceOf(address(this));
            if (amount != 0) {
                token.safeTransfer(to, amount);
                emit Flushed(address(token), amount);
            }
        }
        uint256 value = address(this).balance;
        if (value != 0) {
            // Too little gas left to give the payout its NATIVE_SEND_GAS (63/64 rule, plus the call's own cost, up to
            // 25,000 for a new account): revert. Otherwise the send would fail silently under a low limit, and a gas
            // estimate (the least gas that does not revert) would settle there: the flush "succeeds", the ETH stays.
            if (gasleft() < NATIVE_SEND_GAS + NATIVE_SEND_GAS / 63 + 40_000) revert();
            bool ok;
            // No return data is copied: a payout cannot make this call expensive by answering with a large one.
            assembly ("memory-safe") {
                ok := call(NATIVE_SEND_GAS, to, value, 0, 0, 0, 0)
            }
            if (ok) emit Flushed(address(0), value);
        }
    }
}
