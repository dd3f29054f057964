import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Served = { body: string | Buffer; type?: string; delayMs?: number; redirect?: string };

/** Serves specification files on loopback, with ETags (and 304s), and records what was asked. */
export class SpecServer {
  readonly files = new Map<string, Served>();
  readonly requests: Array<{ path: string; ifNoneMatch?: string; status: number }> = [];
  private server!: Server;
  base = '';

  async start() {
    this.server = createServer((req, res) => {
      const path = req.url!.split('?')[0]!;
      const file = this.files.get(path);
      const record = (status: number) => this.requests.push({ path, ...(req.headers['if-none-match'] ? { ifNoneMatch: String(req.headers['if-none-match']) } : {}), status });
      if (!file) return record(404), res.writeHead(404).end();
      if (file.redirect) return record(302), res.writeHead(302, { location: file.redirect }).end();
      const etag = `"${createHash('sha1').update(file.body).digest('hex')}"`;
      if (req.headers['if-none-match'] === etag) return record(304), res.writeHead(304, { etag }).end();
      const send = () => {
        record(200);
        res.writeHead(200, { 'content-type': file.type ?? 'application/yaml', etag }).end(file.body);
      };
      if (file.delayMs) setTimeout(send, file.delayMs);
      else send();
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  url(path: string) {
    return `${this.base}${path}`;
  }

  close() {
    this.server.closeAllConnections();
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

export const PETSTORE_30 = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: Pets
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Pet'
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: { type: integer }
        name: { type: string }
`;

export const PETSTORE_31 = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Petstore', version: '2.0.0' },
  paths: { '/pets/{id}': { get: { operationId: 'getPet', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'A pet' } } } } },
});

export const SWAGGER_20 = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Legacy', version: '1.0' },
  paths: { '/things': { get: { responses: { '200': { description: 'Things' } } } } },
});

export const MULTI_ENTRY = `openapi: 3.0.3
info: { title: Multi, version: 1.0.0 }
paths:
  /pets:
    get:
      responses:
        '200':
          description: A pet
          content:
            application/json:
              schema:
                $ref: './schemas/pet.yaml'
`;
export const MULTI_PET = `type: object
properties:
  name: { type: string }
  category:
    $ref: './category.yaml'
`;
export const MULTI_CATEGORY = `type: object
properties:
  label: { type: string }
`;
