import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spaceResource } from '../../src/domain/content/load-content.ts';
import { spaceRules } from '../../src/domain/content/content.policy.ts';
import { Id } from '../../src/api/http/common.schema.ts';
import { defineRoute } from '../../src/api/http/route.ts';
import { z } from '../../src/api/http/zod.ts';
import { indexSpaceJob } from '../../src/jobs/index-space.job.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

type Operation = { operationId: string; description?: string; 'x-vellum-permission'?: { resource: string | null; actions: string[]; rules?: Record<string, string>; choice?: string } };

let api: TestApi;
let operations: Map<string, Operation>;

beforeAll(async () => {
  api = await startTestApi();
  const doc = (await api.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
  operations = new Map(Object.values(doc.paths).flatMap((methods) => Object.values(methods)).map((op) => [op.operationId, op]));
});
afterAll(() => api.close());

describe('the served OpenAPI document', () => {
  it('states the permission every operation needs', () => {
    expect(operations.size).toBeGreaterThan(50);
    for (const op of operations.values()) {
      expect(op['x-vellum-permission'], op.operationId).toEqual(expect.objectContaining({ actions: expect.any(Array) }));
      expect(op.description, op.operationId).toEqual(expect.any(String));
    }
  });

  it('names the resource, the actions and who passes them', () => {
    expect(operations.get('deleteSpaceById')!['x-vellum-permission']).toEqual({ resource: 'space', actions: ['delete'], rules: { delete: 'role admin or above' } });
    expect(operations.get('applyTemplateToSpace')!['x-vellum-permission']).toMatchObject({ resource: 'space', actions: ['edit'] });
    expect(operations.get('applyTemplateToSpace')!.description).toMatch(/Needs permission `edit` \(role edit or above, space not locked\) on the space/);
    expect(operations.get('updateSpaceById')!['x-vellum-permission']).toMatchObject({ resource: 'space', actions: ['update', 'admin'], choice: expect.stringMatching(/visibility/) });
    expect(operations.get('listMembersInOrganizationById')!['x-vellum-permission']).toMatchObject({ resource: 'organization', actions: ['listMembers'] });
    expect(operations.get('getMemberInOrganizationById')!['x-vellum-permission']).toMatchObject({ choice: expect.stringMatching(/own membership/) });
    expect(operations.get('updateTeamInOrganizationById')!['x-vellum-permission']).toMatchObject({ resource: 'team', actions: ['admin'] });
    expect(operations.get('downloadFile')!['x-vellum-permission']).toEqual({ resource: null, actions: [] });
  });
});

describe('route declarations (checked by tsc)', () => {
  it('give the outbox only to transactional routes, and take only actions the rules have', () => {
    const base = { method: 'post' as const, path: '/x/{spaceId}', operationId: 'x', summary: 'x', tags: [], responses: { 204: { description: 'done' } } };
    // A loader of spaces needs a route whose path has {spaceId}: the types check that too.
    const params = z.object({ spaceId: Id });
    const routes = [
      defineRoute({
        ...base,
        params,
        load: spaceResource,
        authorize: { rules: spaceRules, action: 'edit' },
        async handle({
          // @ts-expect-error a job recorded here would never be flushed with the change: no outbox outside a transactional route
          outbox,
        }) {
          return { status: 204, body: outbox };
        },
      }),
      defineRoute({
        ...base,
        params,
        load: spaceResource,
        authorize: { rules: spaceRules, action: 'edit' },
        transactional: true,
        async handle({ em, outbox, subject: { space } }) {
          outbox.add(em, indexSpaceJob, { spaceId: space.id });
          return { status: 204 };
        },
      }),
      defineRoute({
        ...base,
        params,
        load: spaceResource,
        // @ts-expect-error spaces have no such rule
        authorize: { rules: spaceRules, action: 'fly' },
        async handle() {
          return { status: 204 };
        },
      }),
    ];
    expect(routes).toHaveLength(3);
  });
});
