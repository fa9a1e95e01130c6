import type { FieldErrors } from '@tlprt/contract';
import { useCallback, useState } from 'react';
import { isApiError } from '../api/errors';

/**
 * Form state shared by the public forms: values, field errors and a form error. Editing a field clears
 * its error and the form error (spec §5: "errors clear on edit").
 */
export function useForm<V extends Record<string, string | boolean>>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const setField = useCallback(<K extends keyof V>(name: K, value: V[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      if (!(name in e)) return e;
      const { [name as string]: _removed, ...rest } = e;
      return rest;
    });
    setFormError(null);
  }, []);

  const showValidation = useCallback((result: { fieldErrors: FieldErrors; formError?: string }) => {
    setErrors(result.fieldErrors);
    setFormError(result.formError ?? null);
  }, []);

  /** Guest-call failure back onto the form: field errors under fields, the message as form error. */
  const showApiError = useCallback((error: unknown, fieldNames: readonly string[]) => {
    if (!isApiError(error)) throw error;
    // status 0 / 5xx already opened the server-error popup
    if (error.status === 0 || error.status >= 500) return;
    const fields: FieldErrors = {};
    for (const [k, v] of Object.entries(error.fieldErrors)) if (fieldNames.includes(k)) fields[k] = v;
    setErrors(fields);
    const onlyFieldErrors =
      Object.keys(fields).length > 0 && Object.keys(fields).length === Object.keys(error.fieldErrors).length;
    setFormError(onlyFieldErrors ? null : error.body.message);
  }, []);

  return {
    values,
    setField,
    errors,
    formError,
    setFormError,
    submitting,
    setSubmitting,
    showValidation,
    showApiError,
  };
}

/** Trims every string value except the listed ones, e.g. passwords (spec §5: inputs are trimmed). */
export function trimmed<V extends Record<string, string | boolean>>(
  values: V,
  except: readonly (keyof V)[] = [],
): V {
  const out: Record<string, string | boolean> = {};
  for (const [k, v] of Object.entries(values))
    out[k] = typeof v === 'string' && !except.includes(k) ? v.trim() : v;
  return out as V;
}
