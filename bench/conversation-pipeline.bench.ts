// Issue 9's pipeline figures, end to end through the real API and workers: conversations
// posted in batches by concurrent clients with an installation token (accepted/s), the time
// until every conversation is extracted and every issue sits in a cluster (incremental
// placement plus the re-clusterings the growth rule requests), then one full re-clustering
// of all issues through the function the re-clustering job runs, and the process's peak RSS.
// Texts: customer questions from BANKING77 + HWU64 (../shared/data/clustering or the
// folder given), so the clusters are real topics; skipped when the folder is absent.
// Usage: bash scripts/bench.sh conversation-pipeline [data folder] [conversations] [batch] [clients]
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reclusterOrganization } from '../src/domain/conversations/recluster.ts';
import { conversationBench, conversationWorkers, postConversations, supportConversation } from './support/post-conversations.ts';
import { scaleCorpus } from './support/scale-corpus.ts';


const project = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(process.argv[2] ?? resolve(project, '../shared/data/clustering'));
const TOTAL = Number(process.argv[3] ?? 100_000);
const BATCH = Number(process.argv[4] ?? 100);
const CLIENTS = Number(process.argv[5] ?? 8);

const corpus = scaleCorpus(root, TOTAL);
if (!corpus) {
  console.log(`conversation-pipeline: skipped, no labelled data at ${root} (give the folder as the first argument)`);
  process.exit(0);
}
const conversation = (i: number) =>
  supportConversation(`pipeline-${i}`, i, [
    { role: 'user', body: corpus.texts[i]! },
    { role: 'team-member', body: 'Thanks for reaching out, we are looking into it.' },
  ]);

const { api, org, token } = await conversationBench();
// Workers run from the start, as in production: extraction and clustering overlap ingestion.
const workers = conversationWorkers(api, 2, 120_000);

const count = async (sql: string) => Number((await api.rt.orm.em.fork().execute<Array<{ n: string }>>(sql, [org.id]))[0]!.n);
const started = performance.now();
const ingestMs = await postConversations({ base: api.base, orgId: org.id, token, total: TOTAL, batch: BATCH, clients: CLIENTS, conversation });
const accepted = Math.round((TOTAL / ingestMs) * 1000);
console.log(`conversation-pipeline: ${TOTAL} conversations (${corpus.classes} intents), batches of ${BATCH}, ${CLIENTS} clients, 2 worker slots`);
console.log(`  accepted              ${accepted} conversations/s (${(ingestMs / 1000).toFixed(1)} s)   reference: >= 2,000/s`);

// Done: nothing left to extract, no re-clustering requested or running, no issue without a cluster.
const settled = async () =>
  (await count('select count(*) as n from conversations where organization_id = ? and processed_at is null')) === 0 &&
  (await count('select count(*) as n from conversation_clusterings where organization_id = ? and (requested_at is not null or started_at is not null)')) === 0;
while (!(await settled())) await new Promise((r) => setTimeout(r, 500));
const settledMs = performance.now() - started;
const issues = await count('select count(*) as n from conversation_issues where organization_id = ?');
const unplaced = await count('select count(*) as n from conversation_issues where organization_id = ? and cluster_id is null');
console.log(`  extracted + clustered ${((settledMs - ingestMs) / 1000).toFixed(1)} s after the last batch (${(settledMs / 1000).toFixed(1)} s from the first): ${issues} issues, ${issues - unplaced} in a cluster, ${unplaced} waiting for the next re-clustering (below the placement threshold)`);

const full = await reclusterOrganization(api.rt.orm.em.fork(), org.id, { now: () => new Date() });
console.log(`  full re-clustering    ${(full.durationMs / 1000).toFixed(1)} s for ${full.issues} issues -> ${full.clusters} clusters (${full.kept} kept, ${full.created} new, ${full.removed} removed)   reference: < 60 s`);
console.log(`  memory peak           ${Math.round(process.resourceUsage().maxRSS / 1024)} MB RSS (API, workers and the clustering thread in this one process)`);
console.log('  incremental placement: see bench/cluster-worker.bench.ts (median and p99 per issue)');
await workers.close();
await api.close();
