import { loadConfig } from '../../config/env.ts';
import { startServer } from '../../src/api/server.ts';
import { closeRuntime, openRuntime } from '../../src/runtime.ts';

/** The real API on a loopback port, against the benchmark database. */
export async function startBenchApi(databaseUrl: string) {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', PORT: '0', QUEUE_PREFIX: 'vellum-bench' });
  const rt = await openRuntime('bench', config);
  const http = await startServer(rt, { port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${http.port}`;
  return {
    rt,
    base,
    async get(path: string, token: string) {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<unknown>;
    },
    async close() {
      await http.close();
      await closeRuntime(rt);
    },
  };
}
