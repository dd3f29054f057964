// Processing of a large OpenAPI spec (over 1 MB) end to end — fetch through the guarded
// client, parse and validate in a worker thread, hash, store a version — beside the bare
// parse+validate of the same parser in the same run. Usage: bash scripts/bench.sh openapi-processing [runs]
import { validate } from '@scalar/openapi-parser';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { OpenApiSpec } from '../src/domain/entities/openapi-spec.entity.ts';
import { GuardedHttp, parseAllowlist } from '../src/domain/net/guarded-http.ts';
import { closeParsePool } from '../src/domain/openapi/parse-pool.ts';
import { processSpec } from '../src/domain/openapi/process-spec.ts';
import { newId } from '../src/domain/shared/ids.ts';
import { benchDatabaseUrl } from './bench-env.ts';
import { startBenchApi } from './support/bench-api.ts';
import { benchOrg } from './support/bench-org.ts';
import { largeSpec } from './support/large-spec.ts';
import { percentile, summary, timeRuns } from './support/stats.ts';

const RUNS = Number(process.argv[2] ?? 5);
let body = largeSpec(600);
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;

const api = await startBenchApi(await benchDatabaseUrl());
const { org } = await benchOrg(api.rt.orm.em.fork());
const http = new GuardedHttp({ allow: parseAllowlist('127.0.0.1'), timeoutMs: 60_000, maxBytes: 50 * 1024 * 1024, maxRedirects: 3, userAgent: 'bench' });

const bare = await timeRuns(RUNS, async () => {
  const result = await validate(JSON.parse(body));
  if (!result.valid) throw new Error(`invalid: ${JSON.stringify(result.errors?.slice(0, 3))}`);
});

const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
const full = await timeRuns(RUNS, async (i) => {
  // Each run changes the document a little, so every run parses, validates and stores a version.
  body = body.replace(/"version":"[^"]*"/, `"version":"1.0.${i}"`);
  const em = api.rt.orm.em.fork();
  const spec = em.create(OpenApiSpec, { organization: org.id, slug: `bench-${newId().toLowerCase()}`, sourceUrl: url });
  await em.flush();
  const outcome = await processSpec(api.rt.orm.em.fork(), http, spec.id, () => new Date());
  if (outcome !== 'new-version') throw new Error(`unexpected outcome ${outcome}`);
});
lag.disable();

console.log(`openapi processing: spec of ${(Buffer.byteLength(body) / 1024 / 1024).toFixed(2)} MB (600 resources, ${600 * 5} operations)`);
console.log(`  ${summary('bare parse + validate (@scalar/openapi-parser, main thread)', bare)}`);
console.log(`  ${summary('end to end (fetch, parse + validate in a worker thread, hash, store)', full)}`);
console.log(`  ratio end-to-end/bare (p50): ${(percentile(full, 50) / percentile(bare, 50)).toFixed(2)}x`);
console.log(`  event-loop delay while processing: p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`);
await closeParsePool();
server.close();
await api.close();
process.exit(0);
