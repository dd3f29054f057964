import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type TcpProxy = {
  port: number;
  /**
   * The outage: new connections are refused and open ones are reset (`reset`, as when
   * the host goes away) or closed (`close`, as when a server process is killed).
   */
  cut(how?: 'reset' | 'close'): Promise<void>;
  /**
   * The outage at a chosen point of a request: the `nth` client message holding `marker`
   * (a table name in a query) is never delivered, and the cut happens then.
   */
  cutWhenSent(marker: string, nth?: number, how?: 'reset' | 'close'): Promise<void>;
  /** The dependency is back on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A loopback TCP proxy in front of a shared service (PostgreSQL), so a test can make an
 * outage of its own without stopping the service other tests use.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let trigger: { marker: string; left: number; how: 'reset' | 'close'; fired: () => void } | undefined;

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = createConnection(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.on('data', (chunk: Buffer) => {
          if (trigger && chunk.includes(trigger.marker) && --trigger.left === 0) {
            const { fired, how } = trigger;
            trigger = undefined;
            void stop(how).then(fired);
            return;
          }
          upstream.write(chunk);
        });
        upstream.pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        const address = s.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });

  const stop = async (how: 'reset' | 'close' = 'reset') => {
    const s = server;
    server = undefined;
    for (const socket of sockets) {
      if (how === 'reset') socket.resetAndDestroy();
      else socket.destroy();
    }
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  const port = await listen(0);
  return {
    port,
    cut: stop,
    cutWhenSent: (marker, nth = 1, how = 'reset') =>
      new Promise<void>((resolve) => {
        trigger = { marker, left: nth, how, fired: resolve };
      }),
    restore: async () => {
      await listen(port);
    },
    close: () => stop('reset'),
  };
}

/** `url` with its host and port pointed at the proxy. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}
