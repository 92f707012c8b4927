// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The ERC-20 tokens of our tests and benchmarks, both with 6 decimals like USDT and USDC: the whole supply goes to the
/// deployer (constructor args [name, symbol, supply]) and transfers emit the standard Transfer event the watcher reads.
/// Standalone (no imports), so anvil tests can deploy their bytecode from solc-js; forge builds them too.
abstract contract TestTokenBase {
    string public name;
    string public symbol;
    uint8 public constant decimals = 6;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function _approve(address spender, uint256 value) internal {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function _transferFrom(address from, address to, uint256 value) internal {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// A standard token: `transfer`, `transferFrom` and `approve` return true.
contract TestToken is TestTokenBase {
    constructor(string memory name_, string memory symbol_, uint256 supply) TestTokenBase(name_, symbol_, supply) {}

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _transferFrom(from, to, value);
        return true;
    }
}

/// A USDT-like token: `transfer`, `transferFrom` and `approve` return nothing (a caller expecting a bool fails to
/// decode; SafeERC20 copes).
contract NoBoolToken is TestTokenBase {
    constructor(string memory name_, string memory symbol_, uint256 supply) TestTokenBase(name_, symbol_, supply) {}

    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    function approve(address spender, uint256 value) external {
        _approve(spender, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        _transferFrom(from, to, value);
    }
}
