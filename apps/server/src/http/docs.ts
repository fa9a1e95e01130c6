import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { API_DOCS_PATH, PRODUCT_NAME } from '@tlprt/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI of the three APIs at /api/docs (JSON at /api/docs/json), generated from the contract's
 *  zod schemas. Must be registered before the routes it describes. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: `${PRODUCT_NAME} API`,
        version: '1.0.0',
        description: 'Auth (/auth), dashboard (/api) and statistics (/stats) APIs.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PATH });
}
