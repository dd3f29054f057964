import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Once, before any schema is built: adds `.openapi()` used by routes and components.
extendZodWithOpenApi(z);

export { z };
