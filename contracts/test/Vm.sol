// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The few forge cheatcodes these tests use (forge-std is not on npm in a current version). forge answers calls to
/// this address itself.
interface Vm {
    function deal(address account, uint256 newBalance) external;
    function prank(address msgSender) external;
    function expectRevert(bytes4 revertData) external;
    function expectRevert() external;
    function assume(bool condition) external pure;
    function assertEq(uint256 left, uint256 right, string calldata err) external pure;
    function assertEq(address left, address right, string calldata err) external pure;
    function assertTrue(bool condition, string calldata err) external pure;
    function assertFalse(bool condition, string calldata err) external pure;
}

/// The base of every forge test here: `vm`, and forge-std's `bound` (a pure helper, not a cheatcode).
abstract contract Test {
    Vm internal constant vm = Vm(0x7109709ECfa91a80626fF3989D68f67F5b1DD12D);

    /// Maps any fuzzed `x` into [min, max] (like forge-std's bound, without its logging).
    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        require(min <= max, "bound: min > max");
        if (x >= min && x <= max) return x;
        uint256 size = max - min + 1;
        if (size == 0) return x; // the whole uint256 range
        return min + (x % size);
    }
}
