import { Button, Card, Group, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MSG, ZChangePasswordRequest } from '@tlprt/contract';
import { formError, showApiError, useContractForm } from '../../platform/form';
import { useSession } from '../../platform/session/SessionProvider';
import { FormError } from '../../platform/ui/FormError';
import { useChangePassword } from './mutations';
import { useDoneFlag } from './useDoneFlag';

const FIELDS = ['password', 'new_password', 'confirm'] as const;
const toggle = { 'aria-label': 'Toggle visibility' };

/** Change password (spec §2, §5): current, new (min 6), retyped (equal); "Incorrect password" from the server. */
export function ChangePassword({ locked, lockedReason }: { locked: boolean; lockedReason?: string }) {
  const { user, currentTeam } = useSession();
  const change = useChangePassword(user.id);
  const form = useContractForm(ZChangePasswordRequest, {
    initialValues: { password: '', new_password: '', confirm: '' },
    requiredFields: FIELDS,
  });
  const [done, setDone] = useDoneFlag();
  const submit = form.onSubmit((values) =>
    change.mutate(
      { ...values, team_id: currentTeam?.id },
      {
        onSuccess: () => {
          form.reset();
          setDone(true);
        },
        onError: (error) => showApiError(form, error, FIELDS),
      },
    ),
  );
  return (
    <Card withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="pw-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={2} fz="lg" id="pw-title">
              Change password
            </Title>
            <Text size="sm" c="dimmed">
              {lockedReason ?? 'Other signed-in devices will be signed out.'}
            </Text>
          </div>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              {...form.getInputProps('password')}
              disabled={locked}
              visibilityToggleButtonProps={toggle}
            />
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              {...form.getInputProps('new_password')}
              disabled={locked}
              visibilityToggleButtonProps={toggle}
            />
            <PasswordInput
              label="Retype new password"
              autoComplete="new-password"
              {...form.getInputProps('confirm')}
              disabled={locked}
              visibilityToggleButtonProps={toggle}
            />
          </SimpleGrid>
          <FormError message={formError(form)} />
          <Group justify="space-between">
            <Text size="sm" c="teal" role="status">
              {done ? MSG.passwordSet : ''}
            </Text>
            <Button type="submit" loading={change.isPending} disabled={locked}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
