import { OpenApiGeneratorV31, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { OpenAPIObject } from 'openapi3-ts/oas31';

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
export function buildOpenApiDocument(registry: OpenAPIRegistry, serverUrl: string): OpenAPIObject {
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Vellum API',
      version: '1.0.0',
      description: 'Self-hostable documentation platform; wire-compatible with the GitBook API.',
    },
    servers: [{ url: serverUrl }],
  }) as OpenAPIObject;
}
