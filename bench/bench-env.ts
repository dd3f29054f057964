import { migrateDatabase } from '../src/domain/migrate.ts';

/** Benchmarks use their own database next to the configured one (`_bench`), built by the migrations. */
export async function benchDatabaseUrl(): Promise<string> {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/vellum');
  url.pathname = `/${url.pathname.replace(/^\//, '') || 'vellum'}_bench`;
  await migrateDatabase(url.toString());
  return url.toString();
}

export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function rate(count: number, ms: number): string {
  return `${Math.round((count / ms) * 1000)} jobs/s`;
}
