import type { Server, ServerResponse } from 'node:http';
import type { Logger } from '../core/log.js';

export interface GracefulStopOptions {
  server: Server;
  logger: Logger;
  /** Stops the background work; attempts still on the wire after `webhookGraceMs` are handed back. */
  stopService(opts: { webhookGraceMs: number }): Promise<void>;
  /** The whole stop, from the first signal to exit. @default 10000 */
  deadlineMs?: number;
  /** @default process.exit */
  exit?: (code: number) => void;
}

/** What is left of the deadline for the store work after the last request: recording attempts, closing pools. */
const STORE_RESERVE_MS = 1500;

/**
 * SIGTERM (and SIGINT) stop the service within `deadlineMs`: the server stops accepting and closes idle
 * connections; event streams are cut at once (the drop-in and dashboard reconnect, to another replica behind a
 * proxy); other requests in flight are finished, their connections closed as they end; then the watchers stop at a
 * checkpoint and webhook attempts in flight are recorded or handed back (server/service.ts), and the process exits
 * 0. A second signal exits at once (130 after SIGINT, 143 after SIGTERM), as does the deadline (1).
 */
export function stopOnSignals(o: GracefulStopOptions): void {
  const deadlineMs = o.deadlineMs ?? 10_000;
  const exit = o.exit ?? ((code: number) => process.exit(code));
  const active = new Set<ServerResponse>();
  const streams = new Set<ServerResponse>();
  let draining: (() => void) | null = null;

  o.server.on('request', (req, res) => {
    // EventSource asks for text/event-stream: such a response lasts until the client leaves, so it is not waited for.
    if (req.headers.accept?.includes('text/event-stream')) {
      streams.add(res);
      res.once('close', () => streams.delete(res));
      return;
    }
    active.add(res);
    res.once('close', () => {
      active.delete(res);
      if (draining) {
        o.server.closeIdleConnections();
        if (active.size === 0) draining();
      }
    });
  });

  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      o.logger.warn('second signal: exiting at once', { signal });
      exit(signal === 'SIGINT' ? 130 : 143);
      return;
    }
    stopping = true;
    const started = Date.now();
    o.logger.info('stopping', { signal, requests_in_flight: active.size });
    const hard = setTimeout(() => {
      o.logger.error('stop deadline passed: exiting', { deadline_ms: deadlineMs });
      exit(1);
    }, deadlineMs);
    void (async () => {
      o.server.close();
      o.server.closeIdleConnections();
      for (const res of streams) res.socket?.destroy();
      if (active.size > 0) {
        await new Promise<void>((resolve) => {
          draining = resolve;
          setTimeout(resolve, Math.max(0, deadlineMs - 2 * STORE_RESERVE_MS));
        });
      }
      o.server.closeAllConnections();
      const left = deadlineMs - (Date.now() - started) - STORE_RESERVE_MS;
      try {
        await o.stopService({ webhookGraceMs: Math.max(0, left) });
      } catch (e) {
        o.logger.error('stopping the service failed', { error: e instanceof Error ? e.message : String(e) });
      }
      clearTimeout(hard);
      o.logger.info('stopped', { ms: Date.now() - started });
      exit(0);
    })();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
