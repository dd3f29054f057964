/**
 * Tells "a dependency is unreachable" (PostgreSQL or Redis down, restarting, out of
 * connections) from every other failure, by error code only: node's socket codes, and
 * PostgreSQL SQLSTATEs (class 08 connection exceptions, which DatabaseConnectionError
 * also carries for pg's code-less connection errors; 57P01–57P03 shutdown and start-up;
 * 53300 too many connections). MikroORM's DriverException copies the driver's `code`,
 * and wrapped errors are followed through `cause`.
 */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Seconds a client is asked to wait before retrying while a dependency is down. */
export const RETRY_AFTER_SECONDS = 5;

export function isDependencyUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current = err;
  // Bounded: cause chains are short, and a cycle must not hang the error path.
  while (current && typeof current === 'object' && !seen.has(current) && seen.size < 8) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    // Node reports a refused dual-stack connect as an AggregateError of per-address errors.
    if (current instanceof AggregateError && current.errors.some(isDependencyUnavailable)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
