import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { EntityManager } from '@mikro-orm/postgresql';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiDeps, AppContext } from '../../src/api/context.ts';
import { defineRoute, mountRoutes, type AnyRoute } from '../../src/api/http/route.ts';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { Team } from '../../src/domain/entities/team.entity.ts';
import { ConflictError } from '../../src/domain/shared/errors.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { indexSpaceJob } from '../../src/jobs/index-space.job.ts';
import { buildOrg, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let org: Organization;
let owner: Caller;

beforeAll(async () => {
  api = await startTestApi();
  ({ org, owner } = await buildOrg(api.em()));
});
afterAll(() => api.close());

/** Mounts one route on a stand-in router and calls it as Koa would; `enqueue` stands in for Redis. */
async function call(route: AnyRoute, enqueue: (entry: { id: string }) => Promise<void>) {
  let handler: ((ctx: AppContext) => Promise<void>) | undefined;
  const router = { post: (_name: string, _path: string, mw: (ctx: AppContext) => Promise<void>) => (handler = mw) };
  const deps = { producer: { enqueue } } as unknown as ApiDeps;
  mountRoutes(router as never, [route], deps, new OpenAPIRegistry());
  const ctx = {
    state: { em: api.em(), actor: { kind: 'user', user: owner.user }, log: pino({ level: 'silent' }) },
    params: {},
    query: {},
    request: { rawBody: undefined, body: undefined },
    set: () => undefined,
  } as unknown as AppContext;
  await handler!(ctx);
  return ctx;
}

const rowsFor = (em: EntityManager, marker: string) =>
  Promise.all([em.count(Team, { title: marker }), em.count(OutboxEntry, { payload: { spaceId: marker } })]);

/** A transactional route that writes a team named `marker` and records a job, then hands over to `then`. */
const writeRoute = (operationId: string, marker: string, then: () => Promise<{ status: 204 }>) =>
  defineRoute({
    method: 'post',
    path: '/t',
    operationId,
    summary: 't',
    tags: [],
    transactional: true,
    responses: { 204: { description: 'done' } },
    async handle({ em, outbox }) {
      em.create(Team, { organization: org, title: marker });
      outbox.add(em, indexSpaceJob, { spaceId: marker });
      // No flush here: the transactional route flushes what the handler left, with its jobs.
      return then();
    },
  });

describe('a transactional route', () => {
  it('keeps nothing of a handler that fails: neither its writes nor its jobs', async () => {
    const marker = newId();
    const enqueued: string[] = [];
    const route = writeRoute('failingWrite', marker, async () => {
      throw new ConflictError('changed my mind');
    });
    await expect(call(route, async (e) => void enqueued.push(e.id))).rejects.toBeInstanceOf(ConflictError);
    expect(await rowsFor(api.em(), marker)).toEqual([0, 0]);
    expect(enqueued).toEqual([]);
  });

  it('commits writes and jobs together, and enqueues only after the commit', async () => {
    const marker = newId();
    const seenAtEnqueue: Array<[number, number]> = [];
    const route = writeRoute('write', marker, async () => ({ status: 204 as const }));
    // Another connection sees the rows when the job is handed to the queue: the commit came first.
    const ctx = await call(route, async () => void seenAtEnqueue.push(await rowsFor(api.em(), marker)));
    expect(ctx.status).toBe(204);
    expect(seenAtEnqueue).toEqual([[1, 1]]);
  });
});
