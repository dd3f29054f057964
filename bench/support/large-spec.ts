/**
 * A large, valid OpenAPI 3.1 document shaped like real APIs: many resources, each with
 * list/create/read/update/delete operations, parameters, and component schemas with
 * nested objects, enums and references.
 */
export function largeSpec(resources: number): string {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < resources; i++) {
    const name = `Resource${i}`;
    schemas[name] = {
      type: 'object',
      required: ['id', 'name', 'status'],
      properties: {
        id: { type: 'string', format: 'uuid', description: `Identifier of ${name}` },
        name: { type: 'string', minLength: 1, maxLength: 200 },
        status: { type: 'string', enum: ['draft', 'active', 'archived'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 50 },
        owner: { $ref: `#/components/schemas/Owner` },
        metadata: { type: 'object', additionalProperties: { type: 'string' } },
        createdAt: { type: 'string', format: 'date-time' },
        related: { type: 'array', items: { $ref: `#/components/schemas/Resource${(i + 1) % resources}Summary` } },
      },
    };
    schemas[`${name}Summary`] = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } };
    const item = { $ref: `#/components/schemas/${name}` };
    const errors = { '400': { $ref: '#/components/responses/BadRequest' }, '404': { $ref: '#/components/responses/NotFound' } };
    paths[`/resources-${i}`] = {
      get: {
        operationId: `list${name}`,
        summary: `List ${name} objects`,
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
        ],
        responses: { '200': { description: 'A page', content: { 'application/json': { schema: { type: 'object', properties: { items: { type: 'array', items: item } } } } } }, ...errors },
      },
      post: { operationId: `create${name}`, requestBody: { required: true, content: { 'application/json': { schema: item } } }, responses: { '201': { description: 'Created', content: { 'application/json': { schema: item } } }, ...errors } },
    };
    paths[`/resources-${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `get${name}`, responses: { '200': { description: 'One', content: { 'application/json': { schema: item } } }, ...errors } },
      patch: { operationId: `update${name}`, requestBody: { content: { 'application/json': { schema: item } } }, responses: { '200': { description: 'Updated' }, ...errors } },
      delete: { operationId: `delete${name}`, responses: { '204': { description: 'Deleted' }, ...errors } },
    };
  }
  schemas.Owner = { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' } } };
  schemas.Error = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } };
  const error = (d: string) => ({ description: d, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Large benchmark API', version: '1.0.0' },
    paths,
    components: { schemas, responses: { BadRequest: error('Bad request'), NotFound: error('Not found') } },
  });
}
