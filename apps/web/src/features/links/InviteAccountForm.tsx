import { Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { type TInviteNewAccountRequest, validateForm, ZInviteNewAccountRequest } from '@tlprt/contract';
import type { FormEvent } from 'react';
import { FormError } from '../../components/FormError';
import { trimmed, useForm } from '../../components/useForm';
import { PasswordField } from '../auth/PasswordField';

const FIELDS = ['name', 'surname', 'password', 'confirm'] as const;

/**
 * The "Create account" form of a new-user invitation link (spec §2, §5): Name and Last name optional;
 * password "This field is required", min 6; confirm equal.
 */
export function InviteAccountForm({
  onSubmit,
}: {
  onSubmit: (body: TInviteNewAccountRequest) => Promise<void>;
}) {
  const f = useForm({ name: '', surname: '', password: '', confirm: '' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = trimmed(f.values, ['password', 'confirm']);
    const result = validateForm(ZInviteNewAccountRequest, values);
    if (!result.ok) return f.showValidation(result);
    f.setSubmitting(true);
    try {
      await onSubmit(result.data);
    } catch (error) {
      f.showApiError(error, FIELDS);
      f.setSubmitting(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="Name"
            autoComplete="given-name"
            size="md"
            maxLength={30}
            value={f.values.name}
            onChange={(e) => f.setField('name', e.currentTarget.value)}
            error={f.errors.name}
          />
          <TextInput
            label="Last name"
            autoComplete="family-name"
            size="md"
            maxLength={30}
            value={f.values.surname}
            onChange={(e) => f.setField('surname', e.currentTarget.value)}
            error={f.errors.surname}
          />
        </SimpleGrid>
        <PasswordField
          label="New password"
          autoComplete="new-password"
          value={f.values.password}
          onChange={(e) => f.setField('password', e.currentTarget.value)}
          error={f.errors.password}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          value={f.values.confirm}
          onChange={(e) => f.setField('confirm', e.currentTarget.value)}
          error={f.errors.confirm}
        />
        <FormError message={f.formError} />
        <Button type="submit" size="md" fullWidth loading={f.submitting}>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
