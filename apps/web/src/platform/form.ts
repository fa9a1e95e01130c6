import { type FormErrors, type UseFormReturnType, useForm } from '@mantine/form';
import { MSG } from '@tlprt/contract';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import { isApiError } from './api/errors';

/** Key of the form-level line in `form.errors` ("All fields are required", a server message). */
export const FORM_ERROR = '_form';

type Values = Record<string, unknown>;

export type ContractForm<V extends Values, S extends z.ZodType> = UseFormReturnType<
  V,
  (values: V) => z.output<S>
>;

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Every form of the app: Mantine's form, validated on submit by the contract schema the server checks
 * the request with, so the messages are the server's word for word. `toInput` turns the typed values
 * into what the schema reads (trimmed text, fields the user does not type such as link bases); the
 * submit handler gets the schema's output. Editing a field clears its error and the form-level line
 * (spec §5 "errors clear on edit").
 */
export function useContractForm<V extends Values, S extends z.ZodType>(
  schema: S,
  options: {
    initialValues: V;
    toInput?: (values: V) => Values;
    /** All of them empty → `allEmptyMessage` as the form-level line instead of one error per field. */
    requiredFields?: readonly (keyof V & string)[];
    allEmptyMessage?: string;
    /** A form's own wording of a contract message (e.g. "invalid email" on the sign-up forms). */
    rewrite?: (errors: FormErrors) => FormErrors;
  },
): ContractForm<V, S> {
  const { initialValues, requiredFields, allEmptyMessage = MSG.allRequired, rewrite = (e) => e } = options;
  const toInput = options.toInput ?? ((v: V) => v);
  // errorPriority "first": the first failing rule of a field speaks, as on the server.
  const resolve = zod4Resolver(schema, { errorPriority: 'first' });
  const formRef = useRef<ContractForm<V, S> | null>(null);
  const form = useForm<V, (values: V) => z.output<S>>({
    initialValues,
    validate: (values) => {
      const input = toInput(values);
      if (requiredFields && requiredFields.length > 0 && requiredFields.every((f) => isEmpty(input[f])))
        return { [FORM_ERROR]: allEmptyMessage };
      return rewrite(resolve(input));
    },
    transformValues: (values) => schema.parse(toInput(values)),
    onValuesChange: () => formRef.current?.clearFieldError(FORM_ERROR),
  });
  useEffect(() => {
    formRef.current = form;
  });
  return form;
}

/** The form-level line: the validation's or the server's message. */
export const formError = (form: { errors: FormErrors }): string | null => {
  const e = form.errors[FORM_ERROR];
  return typeof e === 'string' ? e : null;
};

/**
 * A failed call back onto its form: the server's field errors under the listed fields, otherwise its
 * message as the form-level line. Network failures and 5xx already opened the server-error popup.
 */
export function showApiError(
  form: { setErrors: (errors: FormErrors) => void },
  error: unknown,
  fieldNames: readonly string[],
): void {
  if (!isApiError(error) || error.status === 0 || error.status >= 500) return;
  const fields: FormErrors = {};
  for (const [k, v] of Object.entries(error.fieldErrors)) if (fieldNames.includes(k)) fields[k] = v;
  const onlyFieldErrors =
    Object.keys(fields).length > 0 && Object.keys(fields).length === Object.keys(error.fieldErrors).length;
  form.setErrors(onlyFieldErrors ? fields : { ...fields, [FORM_ERROR]: error.body.message });
}

/** Trims every string value except the listed ones, e.g. passwords (spec §5: inputs are trimmed). */
export function trimmed<V extends Values>(values: V, except: readonly (keyof V)[] = []): V {
  const out: Values = {};
  for (const [k, v] of Object.entries(values))
    out[k] = typeof v === 'string' && !except.includes(k) ? v.trim() : v;
  return out as V;
}
