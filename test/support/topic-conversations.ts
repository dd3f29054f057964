import type { EntityManager } from '@mikro-orm/postgresql';
import { buildInstallation, buildOrg, type Caller } from './factories.ts';
import type { TestApi } from './harness.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';

/** Three topics a reader tells apart at a glance, eight questions each. */
export const THREE_TOPICS = {
  card: [
    'My card payment was declined at the shop',
    'Card declined when paying online',
    'Why was my card payment declined today',
    'Payment with my card keeps getting declined',
    'The card was declined for a payment abroad',
    'Declined card payment at the supermarket',
    'My card payment failed and was declined',
    'Card payment declined twice this morning',
  ],
  password: [
    'I forgot my password and cannot log in',
    'How do I reset my password',
    'Password reset email never arrived',
    'Cannot log in after changing my password',
    'Reset password link is not working',
    'Forgot password, need to reset it to log in',
    'My password reset does not work',
    'Log in fails, I think I forgot the password',
  ],
  export: [
    'How can I export my data to a CSV file',
    'Export to CSV is missing columns',
    'The CSV export of my data is empty',
    'Exporting data as CSV file fails',
    'Where is the export data button for CSV',
    'CSV file export takes forever for my data',
    'Need to export all data into a CSV file',
    'Data export CSV download does not start',
  ],
};

/** Five topics to draw many varied questions from (`topicQuestions`). */
const TOPICS: Record<string, { things: string[]; problems: string[] }> = {
  card: { things: ['card payment', 'contactless card payment', 'online card payment', 'debit card', 'credit card charge'], problems: ['was declined', 'keeps getting declined', 'was rejected at the checkout', 'got declined by the shop'] },
  password: { things: ['password reset link', 'password reset email', 'new password', 'login password', 'forgotten password'], problems: ['does not let me log in', 'never arrived in my inbox', 'expired before I could log in', 'is refused at login'] },
  export: { things: ['CSV export', 'data export to CSV', 'CSV file of my data', 'exported CSV spreadsheet', 'export of all records to CSV'], problems: ['is empty', 'misses several columns', 'never finishes downloading', 'has broken CSV rows'] },
  domain: { things: ['custom domain', 'DNS CNAME record', 'domain SSL certificate', 'domain verification', 'subdomain DNS setup'], problems: ['stays unverified', 'shows a DNS error', 'does not resolve to my site', 'is pending for days'] },
  invite: { things: ['team invitation', 'invite link for my colleague', 'member invitation email', 'team member invite', 'invitation to join the team'], problems: ['expired immediately', 'goes to the wrong team', 'cannot be accepted by my colleague', 'was never received by the new member'] },
};
export const TOPIC_NAMES = Object.keys(TOPICS);

/** `n` questions, drawn in turn from each topic with a seeded choice of wording: [topic, text]. */
export function topicQuestions(n: number, seed: number): Array<[string, string]> {
  let state = seed >>> 0 || 1;
  const next = (k: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % k;
  };
  return Array.from({ length: n }, (_, i) => {
    const name = TOPIC_NAMES[i % TOPIC_NAMES.length]!;
    const { things, problems } = TOPICS[name]!;
    return [name, `Why my ${things[next(things.length)]} ${problems[next(problems.length)]}, what should I do`];
  });
}

export type TopicOrg = { org: Organization; token: string; post(questions: Array<{ id: string; text: string; createdAt?: string }>): Promise<void> };

/** An organization with an installation that posts customer questions as conversations (one question each). */
export async function topicOrg(api: TestApi, em: EntityManager, owner?: Caller): Promise<TopicOrg> {
  const { org } = await buildOrg(em, owner ? { owner } : {});
  const { token } = await buildInstallation(em, org);
  return {
    org,
    token,
    async post(questions) {
      const body = questions.map((q) => ({
        id: q.id,
        ...(q.createdAt ? { metadata: { createdAt: q.createdAt } } : {}),
        parts: [
          { type: 'message', role: 'user', body: `${q.text}?` },
          { type: 'message', role: 'assistant', body: 'Thanks for reaching out, we are looking into it.' },
        ],
      }));
      for (let i = 0; i < body.length; i += 1000) {
        const res = await api.request('POST', `/v1/orgs/${org.id}/conversations`, { token, body: body.slice(i, i + 1000) });
        if (res.status !== 204) throw new Error(`ingest: ${res.status} ${JSON.stringify(res.body)}`);
      }
    },
  };
}
