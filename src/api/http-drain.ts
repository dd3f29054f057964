import type { IncomingMessage, Server, ServerResponse } from 'node:http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export type Drain = {
  /** The request listener to give the server: `handler`, made to close connections once draining. */
  listener: Handler;
  /**
   * Stops taking requests on every connection: the listener closes, idle connections
   * close now, busy ones answer with `Connection: close` and close as soon as they are
   * idle. Resolves when every connection is gone, or after `deadlineMs`, when what is
   * left is cut so the rest of shutdown (queues, ORM) still fits in its budget.
   */
  drain(deadlineMs: number): Promise<void>;
};

/**
 * Graceful HTTP shutdown with keep-alive clients. `server.close()` alone stops accepting
 * connections but lets a busy keep-alive connection take new requests for as long as its
 * client keeps sending them, so a loaded server never drains before the forced exit.
 */
export function drainable(server: Server, handler: Handler): Drain {
  let draining = false;
  const inFlight = new Set<ServerResponse>();

  const listener: Handler = (req, res) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // The connection is idle once node has finished this response; close it then.
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
    if (draining) res.setHeader('Connection', 'close');
    handler(req, res);
  };

  return {
    listener,
    drain: (deadlineMs) =>
      new Promise<void>((resolve) => {
        draining = true;
        const timer = setTimeout(() => server.closeAllConnections(), deadlineMs);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        server.closeIdleConnections();
      }),
  };
}
