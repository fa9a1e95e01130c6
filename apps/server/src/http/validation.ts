import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { RequestValidationError } from './errors.js';

/**
 * Validates requests with the contract's zod schemas. Unlike the type provider's own compiler it keeps
 * zod's issues intact, so the error handler can answer with the contract's field messages
 * (issuesToFieldErrors) exactly as the web forms show them.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success
      ? { value: result.data }
      : { error: new RequestValidationError(result.error.issues) };
  };
