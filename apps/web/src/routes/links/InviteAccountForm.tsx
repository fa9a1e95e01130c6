import { Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type TInviteNewAccountRequest, ZInviteNewAccountRequest } from '@tlprt/contract';
import { PasswordField } from '../../features/auth/PasswordField';
import { formError, showApiError, trimmed, useContractForm } from '../../platform/form';
import { FormError } from '../../platform/ui/FormError';

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
  const form = useContractForm(ZInviteNewAccountRequest, {
    initialValues: { name: '', surname: '', password: '', confirm: '' },
    toInput: (v) => trimmed(v, ['password', 'confirm']),
  });
  const create = useMutation({
    mutationFn: onSubmit,
    onError: (error) => showApiError(form, error, FIELDS),
  });
  return (
    <form onSubmit={form.onSubmit((body) => create.mutate(body))} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="Name"
            autoComplete="given-name"
            size="md"
            maxLength={30}
            {...form.getInputProps('name')}
          />
          <TextInput
            label="Last name"
            autoComplete="family-name"
            size="md"
            maxLength={30}
            {...form.getInputProps('surname')}
          />
        </SimpleGrid>
        <PasswordField label="New password" autoComplete="new-password" {...form.getInputProps('password')} />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          {...form.getInputProps('confirm')}
        />
        <FormError message={formError(form)} />
        <Button type="submit" size="md" fullWidth loading={create.isPending}>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
