/**
 * Tests use their own database next to the configured one, so a developer's data is
 * never touched: DATABASE_URL's database name with `_test` appended.
 */
export function testDatabaseUrl(): string {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/vellum');
  const name = base.pathname.replace(/^\//, '') || 'vellum';
  base.pathname = `/${name.endsWith('_test') ? name : `${name}_test`}`;
  return base.toString();
}

export function testRedisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}
