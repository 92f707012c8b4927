import { type ChildProcess, spawn } from 'node:child_process';

const children = new Set<ChildProcess>();
// A test file that dies mid-run must not leave nodes behind.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface TestNodeOptions {
  command: string;
  args: string[];
  /** Names the node in errors ("litecoind did not answer within 60 s: ..."). */
  label: string;
  /**
   * Resolves once the node serves (an RPC call answers, or its output says it listens); a throw means "not yet".
   * It is given the node's recent output.
   */
  ready: (output: string) => Promise<unknown>;
  /** How often `ready` is asked. @default 200 */
  pollMs?: number;
  /** How long the node has to become ready. @default 60_000 */
  timeoutMs?: number;
}

/** A local node started by a test (anvil, litecoind, monerod, monero-wallet-rpc): launch, halt, launch again. */
export interface TestNode {
  /** The running process, or null while halted. */
  readonly child: ChildProcess | null;
  /** Spawns the node and waits until `ready` resolves; throws with the node's last output when it exits or times out. */
  launch(): Promise<void>;
  /** SIGTERM, then SIGKILL after 20 s; resolves once the process is gone. */
  halt(): Promise<void>;
}

/**
 * The one launcher of the test nodes: spawn, keep the last few KB of output (drained, so a chatty node never blocks on
 * a full pipe), poll `ready` until it answers, and kill every node still running when the test process exits.
 *
 * @example
 * const node = testNode({ command: LITECOIND, args, label: 'litecoind', ready: () => rpc.call('getblockchaininfo') });
 * await node.launch(); ... await node.halt();
 */
export function testNode(o: TestNodeOptions): TestNode {
  let child: ChildProcess | null = null;
  return {
    get child() {
      return child;
    },
    async launch() {
      const proc = spawn(o.command, o.args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      children.add(proc);
      let output = '';
      const collect = (d: Buffer) => {
        output = (output + d.toString()).slice(-3000);
      };
      proc.stdout?.on('data', collect);
      proc.stderr?.on('data', collect);
      proc.once('exit', () => children.delete(proc));
      const timeoutMs = o.timeoutMs ?? 60_000;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (proc.exitCode !== null || proc.signalCode !== null)
          throw new Error(`${o.label} exited with ${proc.exitCode ?? proc.signalCode}: ${output}`);
        try {
          await o.ready(output);
          return;
        } catch (e) {
          if (Date.now() > deadline) {
            proc.kill('SIGKILL');
            throw new Error(
              `${o.label} did not answer within ${timeoutMs / 1000} s: ${(e as Error).message} ${output}`,
            );
          }
          await new Promise((r) => setTimeout(r, o.pollMs ?? 200));
        }
      }
    },
    async halt() {
      const proc = child;
      child = null;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
