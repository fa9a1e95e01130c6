import { Loader, TextInput, type TextInputProps } from '@mantine/core';
import { useField } from '@mantine/form';
import type { UseMutationResult } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { refusalToShow } from '../api/popups';
import { IconCheck } from './icons';

type Props<R, V> = Omit<TextInputProps, 'value' | 'onChange' | 'onBlur' | 'error' | 'rightSection'> & {
  field: string;
  saved: string;
  editable: boolean;
  /** The contract schema of the update call: the trimmed value is checked with it before sending. */
  schema: z.ZodType;
  mutation: UseMutationResult<R, Error, V>;
};

/**
 * A text field saved when it loses focus (or on Enter), as the profile and team details are (spec §2):
 * unchanged values are not sent, errors show under the field and clear on edit, a tick confirms the save.
 */
export function SaveOnBlurInput<R, V>({ field, saved, editable, schema, mutation, ...input }: Props<R, V>) {
  const value = useField({ initialValue: saved });
  const [justSaved, setJustSaved] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new saved value replaces what is typed
  useEffect(() => value.setValue(saved), [saved]);
  useEffect(() => {
    if (!justSaved) return;
    const t = setTimeout(() => setJustSaved(false), 2000);
    return () => clearTimeout(t);
  }, [justSaved]);

  const save = () => {
    const next = value.getValue().trim();
    if (next === saved) {
      value.setValue(saved);
      return;
    }
    const error = zod4Resolver(schema, { errorPriority: 'first' })({ [field]: next })[field];
    if (error) {
      value.setError(error);
      return;
    }
    // The body is exactly what the schema just accepted for this field.
    mutation.mutate({ [field]: next } as V, {
      onSuccess: () => setJustSaved(true),
      onError: (e) => {
        // What has no popup belongs under the field.
        if (refusalToShow(e)) value.setError(e.fieldErrors[field] ?? e.body.message);
      },
    });
  };

  return (
    <TextInput
      {...input}
      {...value.getInputProps()}
      readOnly={!editable}
      variant={editable ? 'default' : 'filled'}
      onBlur={editable ? save : undefined}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
      }}
      rightSection={
        mutation.isPending ? (
          <Loader size={14} />
        ) : justSaved ? (
          <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-label="Saved" />
        ) : null
      }
    />
  );
}
