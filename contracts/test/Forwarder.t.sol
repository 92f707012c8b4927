// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Forwarder} from "../src/Forwarder.sol";
import {ForwarderFactory} from "../src/ForwarderFactory.sol";
import {NoBoolToken} from "./TestTokens.sol";
import {Test} from "./Vm.sol";

/// A USDC-like token: 6 decimals, returns bool.
contract SixDecimalToken is ERC20 {
    constructor() ERC20("USD Coin", "USDC") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}

/// A payout that refuses the native coin (a contract with no receive).
contract RefusesEth {}

/// A payout whose receive burns every bit of gas it is given.
contract BurnsGas {
    uint256 public spins;

    receive() external payable {
        while (true) {
            ++spins;
        }
    }
}

/// A payout whose receive needs more than the 2,300 stipend (a first storage write, as contract wallets may do).
contract HungryPayout {
    uint256 public received;

    receive() external payable {
        received += msg.value;
    }
}

contract ForwarderTest is Test {
    ForwarderFactory factory;
    SixDecimalToken usdc;
    NoBoolToken usdt;
    address payout = address(uint160(uint256(keccak256("payout"))));
    bytes32 constant SALT = keccak256("pay_1");

    function setUp() public {
        factory = new ForwarderFactory();
        usdc = new SixDecimalToken();
        usdt = new NoBoolToken("Tether USD", "USDT", type(uint128).max);
        vm.deal(address(this), type(uint128).max);
    }

    // --- helpers ---

    function tokens() internal view returns (address[] memory list) {
        list = new address[](2);
        list[0] = address(usdc);
        list[1] = address(usdt);
    }

    function pay(address to, uint256 eth, uint256 usdcAmount, uint256 usdtAmount) internal {
        if (eth != 0) {
            (bool ok,) = to.call{value: eth}("");
            require(ok, "ETH payment failed");
        }
        if (usdcAmount != 0) usdc.mint(to, usdcAmount);
        if (usdtAmount != 0) usdt.transfer(to, usdtAmount);
    }

    function assertBalances(address who, uint256 eth, uint256 usdcAmount, uint256 usdtAmount, string memory what)
        internal
        view
    {
        vm.assertEq(who.balance, eth, string.concat(what, ": ETH"));
        vm.assertEq(usdc.balanceOf(who), usdcAmount, string.concat(what, ": USDC"));
        vm.assertEq(usdt.balanceOf(who), usdtAmount, string.concat(what, ": USDT"));
    }

    function sweep(address to, bytes32 salt) internal pure returns (ForwarderFactory.Sweep memory s) {
        s.payout = to;
        s.salt = salt;
    }

    // --- tests ---

    function test_NoBoolTokenTransferReturnsNothing() public {
        (bool ok, bytes memory ret) = address(usdt).call(abi.encodeCall(NoBoolToken.transfer, (payout, 1)));
        vm.assertTrue(ok, "transfer succeeds");
        vm.assertEq(ret.length, 0, "transfer returns no data (USDT-like)");
        vm.assertEq(usdt.decimals(), 6, "6 decimals");
    }

    function test_PredictedAddressIsTheDeployedOne() public {
        address predicted = factory.forwarderAddress(payout, SALT);
        vm.assertEq(predicted.code.length, 0, "nothing deployed yet");
        address deployed = factory.deploy(payout, SALT);
        vm.assertEq(deployed, predicted, "deploy returns the predicted address");
        vm.assertTrue(predicted.code.length > 0, "code at the predicted address");
        vm.assertEq(Forwarder(payable(predicted)).payout(), payout, "the forwarder's payout");
        vm.assertEq(factory.forwarderAddress(payout, SALT), predicted, "prediction unchanged after deployment");
    }

    function test_SweepsEthAndTokensSentBeforeDeploymentExactly() public {
        address fwd = factory.forwarderAddress(payout, SALT);
        pay(fwd, 1.5 ether, 250_000_000, 99_990_001);
        factory.flush(payout, SALT, tokens());
        assertBalances(payout, 1.5 ether, 250_000_000, 99_990_001, "payout");
        assertBalances(fwd, 0, 0, 0, "forwarder");
    }

    function test_LaterDepositsAreSweptAgain() public {
        address fwd = factory.forwarderAddress(payout, SALT);
        pay(fwd, 1 ether, 10, 20);
        factory.flush(payout, SALT, tokens());
        pay(fwd, 2 ether, 30, 40); // the forwarder exists now: its receive takes the ETH
        factory.flush(payout, SALT, tokens());
        assertBalances(payout, 3 ether, 40, 60, "payout");
        pay(fwd, 0, 0, 7);
        Forwarder(payable(fwd)).flush(tokens()); // anyone may flush the forwarder directly, too
        assertBalances(payout, 3 ether, 40, 67, "payout after a direct flush");
        assertBalances(fwd, 0, 0, 0, "forwarder");
    }

    function test_AnotherPayoutIsAnotherAddress() public {
        address other = address(uint160(uint256(keccak256("someone else"))));
        address fwd = factory.forwarderAddress(payout, SALT);
        address otherFwd = factory.forwarderAddress(other, SALT);
        vm.assertTrue(fwd != otherFwd, "same salt, another payout: another address");
        vm.assertTrue(factory.forwarderAddress(payout, keccak256("pay_2")) != fwd, "another salt: another address");
        pay(fwd, 1 ether, 5, 6);
        factory.flush(other, SALT, tokens()); // deploys and flushes the other, empty forwarder
        assertBalances(other, 0, 0, 0, "the other payout");
        assertBalances(fwd, 1 ether, 5, 6, "the payment stays for its own payout");
        factory.flush(payout, SALT, tokens());
        assertBalances(payout, 1 ether, 5, 6, "payout");
    }

    function test_DeployingFirstChangesNothing() public {
        address fwd = factory.forwarderAddress(payout, SALT);
        pay(fwd, 1 ether, 11, 12);
        vm.prank(address(0xD00D)); // a stranger
        vm.assertEq(factory.deploy(payout, SALT), fwd, "first deploy");
        vm.assertEq(factory.deploy(payout, SALT), fwd, "deploying again is harmless");
        assertBalances(fwd, 1 ether, 11, 12, "the forwarder after deployment");
        assertBalances(payout, 0, 0, 0, "payout before the flush");
        factory.flush(payout, SALT, tokens());
        assertBalances(payout, 1 ether, 11, 12, "payout");
    }

    function test_TheImplementationRefusesToFlush() public {
        Forwarder impl = Forwarder(payable(factory.implementation()));
        vm.assertTrue(address(impl).code.length > 0, "the implementation exists");
        usdc.mint(address(impl), 5);
        vm.expectRevert(Forwarder.NotAForwarder.selector);
        impl.flush(tokens());
        vm.expectRevert(Forwarder.NotAForwarder.selector);
        impl.payout();
        Forwarder bare = new Forwarder();
        vm.expectRevert(Forwarder.NotAForwarder.selector);
        bare.flush(tokens());
    }

    function test_APayoutRefusingEthStillGetsItsTokens() public {
        address refuser = address(new RefusesEth());
        address fwd = factory.forwarderAddress(refuser, SALT);
        pay(fwd, 1 ether, 100, 200);
        factory.flush(refuser, SALT, tokens());
        assertBalances(refuser, 0, 100, 200, "the refusing payout gets its tokens");
        assertBalances(fwd, 1 ether, 0, 0, "the ETH stays in the forwarder");
    }

    function test_AGasBurningPayoutDoesNotBreakABatch() public {
        address burner = address(new BurnsGas());
        ForwarderFactory.Sweep[] memory batch = new ForwarderFactory.Sweep[](3);
        batch[0] = sweep(payout, keccak256("a"));
        batch[1] = sweep(burner, keccak256("b"));
        batch[2] = sweep(payout, keccak256("c"));
        for (uint256 i = 0; i < 3; ++i) {
            batch[i].tokens = tokens();
            pay(factory.forwarderAddress(batch[i].payout, batch[i].salt), 1 ether, 1000, 2000);
        }
        // A bounded gas limit, as a relayer sets: the burner may take its 100k, not the batch's gas.
        factory.flushMany{gas: 1_500_000}(batch);
        assertBalances(payout, 2 ether, 2000, 4000, "the other forwarders of the batch are swept");
        assertBalances(burner, 0, 1000, 2000, "the burner gets its tokens");
        assertBalances(factory.forwarderAddress(burner, keccak256("b")), 1 ether, 0, 0, "the burner's ETH stays");
    }

    function test_AZeroPayoutIsRefused() public {
        vm.expectRevert(ForwarderFactory.ZeroPayout.selector);
        factory.deploy(address(0), SALT);
        vm.expectRevert(ForwarderFactory.ZeroPayout.selector);
        factory.flush(address(0), SALT, tokens());
        ForwarderFactory.Sweep[] memory batch = new ForwarderFactory.Sweep[](2);
        batch[0] = sweep(payout, SALT);
        batch[1] = sweep(address(0), SALT);
        vm.expectRevert(ForwarderFactory.ZeroPayout.selector);
        factory.flushMany(batch);
    }

    function test_FlushManyOverSeveralForwardersOfSeveralPayouts() public {
        address[3] memory payouts = [payout, address(0xA11CE), address(0xB0B)];
        ForwarderFactory.Sweep[] memory batch = new ForwarderFactory.Sweep[](9);
        uint256[3] memory eth;
        uint256[3] memory usdcTotals;
        uint256[3] memory usdtTotals;
        for (uint256 i = 0; i < 9; ++i) {
            uint256 p = i % 3;
            batch[i] = sweep(payouts[p], keccak256(abi.encode("pay", i)));
            batch[i].tokens = tokens();
            address fwd = factory.forwarderAddress(payouts[p], batch[i].salt);
            // some forwarders hold only ETH, some only one token, one is already deployed
            uint256 e = i % 2 == 0 ? (i + 1) * 0.1 ether : 0;
            uint256 c = i % 3 == 1 ? 0 : (i + 1) * 1_000_000;
            uint256 t = (i + 1) * 333;
            if (i == 4) factory.deploy(payouts[p], batch[i].salt);
            pay(fwd, e, c, t);
            eth[p] += e;
            usdcTotals[p] += c;
            usdtTotals[p] += t;
        }
        factory.flushMany(batch);
        for (uint256 p = 0; p < 3; ++p) assertBalances(payouts[p], eth[p], usdcTotals[p], usdtTotals[p], "payout");
        for (uint256 i = 0; i < 9; ++i) {
            assertBalances(factory.forwarderAddress(batch[i].payout, batch[i].salt), 0, 0, 0, "forwarder");
        }
    }

    function testFuzz_SweepsExactAmounts(uint256 seed, bytes32 salt, uint256 eth, uint256 usdcAmount, uint256 usdtAmount)
        public
    {
        address to = address(uint160(uint256(keccak256(abi.encode("payout", seed)))));
        eth = bound(eth, 0, 1e30);
        usdcAmount = bound(usdcAmount, 0, 1e30);
        usdtAmount = bound(usdtAmount, 0, 1e30);
        address fwd = factory.forwarderAddress(to, salt);
        pay(fwd, eth, usdcAmount, usdtAmount);
        factory.flush(to, salt, tokens());
        assertBalances(to, eth, usdcAmount, usdtAmount, "payout");
        assertBalances(fwd, 0, 0, 0, "forwarder");
    }

    function testFuzz_LaterDepositsSweptExactly(bytes32 salt, uint256 first, uint256 second, uint256 eth) public {
        first = bound(first, 0, 1e24);
        second = bound(second, 1, 1e24);
        eth = bound(eth, 0, 1e24);
        address fwd = factory.forwarderAddress(payout, salt);
        pay(fwd, eth, 0, first);
        factory.deploy(payout, salt);
        factory.flush(payout, salt, tokens());
        pay(fwd, eth, second, second);
        factory.flush(payout, salt, tokens());
        assertBalances(payout, 2 * eth, second, first + second, "payout");
        assertBalances(fwd, 0, 0, 0, "forwarder");
    }

    /// A gas estimate is the least gas that does not revert: under any limit where the flush succeeds, the payout
    /// must really have had its NATIVE_SEND_GAS, or a wallet's estimate would "sweep" and leave the ETH behind.
    function testFuzz_AFlushThatSucceedsDeliversTheEthToAContractPayout(uint256 gasLimit, bool batch) public {
        gasLimit = bound(gasLimit, 30_000, 400_000);
        address hungry = address(new HungryPayout());
        address fwd = factory.forwarderAddress(hungry, SALT);
        pay(fwd, 1 ether, 0, 0);
        ForwarderFactory.Sweep[] memory sweeps = new ForwarderFactory.Sweep[](1);
        sweeps[0] = sweep(hungry, SALT);
        bytes memory data = batch
            ? abi.encodeCall(ForwarderFactory.flushMany, (sweeps))
            : abi.encodeCall(ForwarderFactory.flush, (hungry, SALT, new address[](0)));
        (bool ok,) = address(factory).call{gas: gasLimit}(data);
        if (ok) {
            vm.assertEq(hungry.balance, 1 ether, "a successful flush delivered the ETH");
            vm.assertEq(fwd.balance, 0, "nothing left behind");
        } else {
            vm.assertEq(fwd.balance, 1 ether, "a failed flush left everything in place");
        }
    }
}
