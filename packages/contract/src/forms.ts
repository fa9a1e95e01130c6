import type { z } from 'zod';
import { MSG } from './messages.js';

export type FieldErrors = Record<string, string>;

/**
 * Validates a form with its contract schema. Returns the first message per field, or, when every
 * listed field is empty, the spec's "All fields are required" as the form error.
 */
export function validateForm<S extends z.ZodTypeAny>(
  schema: S,
  values: Record<string, unknown>,
  options: { requiredFields?: string[]; allEmptyMessage?: string } = {},
): { ok: true; data: z.output<S> } | { ok: false; fieldErrors: FieldErrors; formError?: string } {
  const req = options.requiredFields ?? [];
  if (
    req.length > 1 &&
    req.every((f) => {
      const v = values[f];
      return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    })
  ) {
    return { ok: false, fieldErrors: {}, formError: options.allEmptyMessage ?? MSG.allRequired };
  }
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, fieldErrors: issuesToFieldErrors(parsed.error.issues) };
}

/** First message per field path ("" for the whole object is stored under "_"). */
export function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
