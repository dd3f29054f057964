/**
 * How long a request waits for a database connection (a new one, or a free one from a
 * full pool) before it is told the database is unavailable. Without it, a database
 * that stops answering leaves requests hanging for as long as the client waits. Long
 * enough that a busy but healthy pool (jobs holding connections, a loaded machine)
 * does not read as an outage.
 */
export const DATABASE_CONNECT_TIMEOUT_MS = 10_000;

/** SQLSTATE class 08 codes, as the standard has a client report a lost connection. */
const UNABLE_TO_CONNECT = '08001';
const CONNECTION_FAILURE = '08006';

/**
 * The database could not be reached, or the connection broke under a query. `pg` reports
 * some of these as bare errors without a code ("Connection terminated unexpectedly",
 * pool timeouts); this gives every one of them a SQLSTATE connection code, so the API
 * can tell an outage from a bug by code rather than by message text.
 */
export class DatabaseConnectionError extends Error {
  readonly code: string;

  constructor(code: string, message: string, cause: unknown) {
    super(message, { cause });
    this.code = code;
  }
}

type Client = {
  query(...args: unknown[]): unknown;
  on(event: 'error' | 'end', listener: () => void): unknown;
  release(err?: Error): void;
};
type Pool = {
  connect(...args: unknown[]): unknown;
  on(event: 'connect', listener: (client: Client) => void): unknown;
};

/**
 * Given to the pool as it is created (MikroORM's `onPoolCreated`): a code-less failure
 * to get a connection (connect timeout, pool exhausted) or of a query on a connection
 * that broke ("Connection terminated unexpectedly", "not queryable") becomes a
 * DatabaseConnectionError, the original kept as `cause`. Everything else passes untouched.
 */
export function watchConnectivity(pool: Pool) {
  const connect = pool.connect.bind(pool);
  pool.connect = (...args: unknown[]) => {
    // pg-pool's own callback form (pool.query) is left alone; Kysely uses the promise form.
    if (args.length) return connect(...args);
    return (connect() as Promise<Client>).then(releaseWhenBroken, (err: unknown) => {
      throw hasCode(err) ? err : new DatabaseConnectionError(UNABLE_TO_CONNECT, 'Could not get a database connection', err);
    });
  };
  pool.on('connect', (client) => {
    let broken = false;
    const markBroken = () => {
      broken = true;
      brokenClients.add(client);
      checkedOut.get(client)?.();
    };
    // pg emits these before it fails the queries in flight (on the next tick).
    client.on('error', markBroken);
    client.on('end', markBroken);
    const query = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      const result = query(...args);
      if (!(result instanceof Promise)) return result;
      return result.catch((err: unknown) => {
        if (!broken || hasCode(err)) throw err;
        throw new DatabaseConnectionError(CONNECTION_FAILURE, 'The database connection was lost', err);
      });
    };
  });
}

/** Clients handed out and not yet given back, with what gives each back as broken. */
const checkedOut = new WeakMap<Client, () => void>();
const brokenClients = new WeakSet<Client>();

/**
 * Kysely's controlled transactions (MikroORM's `transactional`) give their connection
 * back only after a ROLLBACK or COMMIT that succeeded (kysely-org/kysely#1990): on a
 * connection that broke mid-transaction both fail, the client stays checked out for
 * good, and every such failure shrinks the pool by one until it is empty and
 * `pool.end()` never returns. So a client that breaks while checked out is given back
 * at once, as broken (the pool discards it), and the release its user makes later is
 * a no-op rather than pg-pool's "Release called on client which has already been released".
 */
function releaseWhenBroken(client: Client): Client {
  const release = client.release.bind(client);
  let released = false;
  const releaseOnce = (err?: Error) => {
    if (released) return;
    released = true;
    checkedOut.delete(client);
    release(err);
  };
  client.release = releaseOnce;
  checkedOut.set(client, () => releaseOnce(new Error('The database connection was lost')));
  if (brokenClients.has(client)) checkedOut.get(client)?.();
  return client;
}

/**
 * An error that already has a code (a socket's ECONNREFUSED, the server's 3D000 or
 * 57P03) keeps it untouched: it already says what happened, and MikroORM recognises
 * some of them itself.
 */
function hasCode(err: unknown): boolean {
  return typeof (err as { code?: unknown } | null)?.code === 'string';
}
