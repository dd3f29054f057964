// Ingestion throughput of support conversations through the real API (batches posted by
// concurrent clients with an installation token), then the time until a worker has
// extracted the issues of all of them.
// Usage: bash scripts/bench.sh conversation-ingest [conversations] [batch] [clients]
import { Conversation } from '../src/domain/entities/conversation.entity.ts';
import { ConversationIssue } from '../src/domain/entities/conversation-issue.entity.ts';
import { conversationBench, conversationWorkers, postConversations, supportConversation } from './support/post-conversations.ts';

const TOTAL = Number(process.argv[2] ?? 20_000);
const BATCH = Number(process.argv[3] ?? 100);
const CLIENTS = Number(process.argv[4] ?? 8);

const TOPICS = ['reset my password', 'connect a custom domain', 'export a space to PDF', 'invite my team', 'sync with GitHub', 'use variables in templates'];
const conversation = (i: number) =>
  supportConversation(`bench-${i}`, i, [
    { role: 'user', body: `Hi, how do I ${TOPICS[i % TOPICS.length]}? I tried the settings page but nothing happened (ticket ${i}).` },
    { role: 'team-member', body: 'Thanks for reaching out. Open Settings, then follow the guide.' },
    { role: 'user', body: 'Thanks, bye!' },
  ]);

const { api, org, token } = await conversationBench();
const ingestMs = await postConversations({ base: api.base, orgId: org.id, token, total: TOTAL, batch: BATCH, clients: CLIENTS, conversation });
console.log(`ingest: ${TOTAL} conversations in batches of ${BATCH}, ${CLIENTS} clients: ${(ingestMs / 1000).toFixed(2)} s, ${Math.round((TOTAL / ingestMs) * 1000)} conversations/s accepted`);

const workers = conversationWorkers(api, 4, 30_000);
const extractStart = performance.now();
for (;;) {
  const pending = await api.rt.orm.em.fork().count(Conversation, { organization: org.id, processedAt: null });
  if (pending === 0) break;
  await new Promise((r) => setTimeout(r, 100));
}
const extractMs = performance.now() - extractStart;
const issues = await api.rt.orm.em.fork().count(ConversationIssue, { organization: org.id });
console.log(`extraction: ${issues} issues from ${TOTAL} conversations in ${(extractMs / 1000).toFixed(2)} s after the last batch (${Math.round((TOTAL / ((ingestMs + extractMs) / 1000)))} conversations/s end to end)`);
await workers.close();
await api.close();
