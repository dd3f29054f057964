import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/harness.ts';

/**
 * Every operation of the served document that answers a JSON success body is checked against
 * the published GitBook document by some test, or is listed here with the reason it is not.
 * "Checked" means a test file outside the checker's own tests calls
 * `expectPublishedShape(res, '<METHOD>', '<path template>')` naming that operation; the call
 * is found by reading the test sources, since parallel test files share no memory.
 */
// `GET /v1/openapi.json` (the served document itself) is not one of its own operations, and a
// file download answers bytes: neither appears in the list this test walks.
const NOT_CHECKED: Record<string, string> = {
  // GitBook publishes start and cancel for an import run but no way to read one back; the
  // document has no `GET /org/{organizationId}/imports/{importRunId}` to check against.
  getImportRun: 'not in the published GitBook document',
  // A translation's run history is Vellum's own (GitBook shows only the latest stats).
  listTranslationRuns: 'not in the published GitBook document',
  // GitBook's run answers 204 with no body; the 200 is the dry run (`?dryRun=true`), beyond GitBook.
  runTranslation: 'its JSON answer (a dry run) is beyond the published document',
  // Page edits on a change request are beyond GitBook (which edits in its app). They answer
  // a page as getPageById does; test/change-requests/page-edits.test.ts checks each answer
  // against that operation's published RevisionPage.
  createPageInChangeRequest: 'not in the published GitBook document (answers a RevisionPage, checked as getPageById)',
  updatePageInChangeRequest: 'not in the published GitBook document (answers a RevisionPage, checked as getPageById)',
  movePageInChangeRequest: 'not in the published GitBook document (answers a RevisionPage, checked as getPageById)',
  // The merge dry run is Vellum's own (GitBook has no mergeability operation).
  getChangeRequestMergeability: 'not in the published GitBook document',
};

/** The checker's own tests feed it made-up bodies: they prove the checker, not an operation. */
const SELF_TESTS = new Set(['test/api/published-schema.test.ts', 'test/api/published-coverage.test.ts']);
const TEST_ROOT = new URL('..', import.meta.url).pathname;
// expectPublishedShape(<response>, 'GET', '/orgs/{organizationId}', ...): method and template as
// literals. The response argument may hold commas (`{ status: 200, data }`) but not end a statement.
const CALL = /expectPublishedShape\([^;]*?,\s*'([A-Z]+)',\s*'([^']+)'/g;

/** `METHOD /path` of each check in a test file's source. */
function checksIn(source: string): string[] {
  return [...source.matchAll(CALL)].map(([, method, path]) => `${method} ${path}`);
}

type Operation = { operationId: string; key: string };

let api: TestApi;
let jsonOperations: Operation[] = [];
let servedKeys = new Set<string>();

beforeAll(async () => {
  api = await startTestApi();
  type Responses = Record<string, { content?: Record<string, unknown> }>;
  const doc = (await api.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; responses: Responses }>> };
  const all = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ op, operationId: op.operationId, key: `${method.toUpperCase()} ${path}` })),
  );
  servedKeys = new Set(all.map((o) => o.key));
  jsonOperations = all
    .filter(({ op }) => Object.entries(op.responses).some(([status, r]) => /^2\d\d$/.test(status) && r.content?.['application/json']))
    .map(({ operationId, key }) => ({ operationId, key }));
});
afterAll(() => api.close());

/** `METHOD /path` → the test files that check it. */
function checkedInTests(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const files = readdirSync(TEST_ROOT, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
  for (const file of files) {
    const name = relative(join(TEST_ROOT, '..'), join(TEST_ROOT, file));
    if (SELF_TESTS.has(name)) continue;
    for (const key of checksIn(readFileSync(join(TEST_ROOT, file), 'utf8'))) {
      found.set(key, [...(found.get(key) ?? []), name]);
    }
  }
  return found;
}

describe('published-schema coverage', () => {
  it('finds operations with JSON success bodies in the served document (the scan itself works)', () => {
    expect(jsonOperations.map((o) => o.operationId)).toEqual(expect.arrayContaining(['getOrganizationById', 'getApiInformation', 'getImportRun']));
    // A download answers bytes, not JSON: it has nothing to check.
    expect(jsonOperations.map((o) => o.operationId)).not.toContain('downloadFile');
    const source = `
      expectPublishedShape(res, 'GET', '/orgs/{organizationId}');
      expectPublishedShape({ status: 200, data }, 'GET', '/orgs/{organizationId}/members');
      expectPublishedShape(
        await api.request('GET', specs(\`/\${s}\`), { token }),
        'GET',
        '/orgs/{organizationId}/openapi/{specSlug}',
      );
      expectPublishedShape(res, method, path);
      expectPublishedShape(other, 'PATCH', '/orgs/{organizationId}', [{ at: /x/, because: 'seed' }]);`;
    expect(checksIn(source)).toEqual([
      'GET /orgs/{organizationId}',
      'GET /orgs/{organizationId}/members',
      'GET /orgs/{organizationId}/openapi/{specSlug}',
      'PATCH /orgs/{organizationId}',
    ]);
  });

  it('checks every such operation against the published document, or says why not', () => {
    const checked = checkedInTests();
    const missing = jsonOperations.filter((o) => !checked.has(o.key) && !(o.operationId in NOT_CHECKED)).map((o) => `${o.operationId} (${o.key})`);
    expect(missing, 'add expectPublishedShape(res, METHOD, path) to the operation’s success test, or a reason to NOT_CHECKED').toEqual([]);
  });

  it('has no stale entries: every exception is a served JSON operation that no test checks', () => {
    const checked = checkedInTests();
    const byId = new Map(jsonOperations.map((o) => [o.operationId, o]));
    expect(Object.keys(NOT_CHECKED).filter((id) => !byId.has(id) || checked.has(byId.get(id)!.key))).toEqual([]);
    // A check naming an operation Vellum does not serve (a typo in the template) checks nothing.
    expect([...checked.keys()].filter((key) => !servedKeys.has(key))).toEqual([]);
  });
});
