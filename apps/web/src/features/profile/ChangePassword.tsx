import { Button, Card, Group, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MSG, validateForm, ZChangePasswordRequest } from '@tlprt/contract';
import type { FormEvent } from 'react';
import { FormError } from '../../components/FormError';
import { useForm } from '../../components/useForm';
import { useSession } from '../session/SessionProvider';
import { useChangePassword } from './mutations';
import { useDoneFlag } from './useDoneFlag';

const FIELDS = ['password', 'new_password', 'confirm'] as const;
const toggle = { 'aria-label': 'Toggle visibility' };

/** Change password (spec §2, §5): current, new (min 6), retyped (equal); "Incorrect password" from the server. */
export function ChangePassword({ locked, lockedReason }: { locked: boolean; lockedReason?: string }) {
  const { user, currentTeam } = useSession();
  const change = useChangePassword(user.id);
  const f = useForm({ password: '', new_password: '', confirm: '' });
  const [done, setDone] = useDoneFlag();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = validateForm(ZChangePasswordRequest, f.values, { requiredFields: [...FIELDS] });
    if (!result.ok) return f.showValidation(result);
    f.setSubmitting(true);
    try {
      await change.mutateAsync({ team_id: currentTeam?.id, ...f.values });
      f.setField('password', '');
      f.setField('new_password', '');
      f.setField('confirm', '');
      f.setFormError(null);
      f.setSubmitting(false);
      setDone(true);
    } catch (error) {
      f.setSubmitting(false);
      f.showApiError(error, FIELDS);
    }
  };
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
              value={f.values.password}
              onChange={(e) => f.setField('password', e.currentTarget.value)}
              error={f.errors.password}
              disabled={locked}
              visibilityToggleButtonProps={toggle}
            />
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              value={f.values.new_password}
              onChange={(e) => f.setField('new_password', e.currentTarget.value)}
              error={f.errors.new_password}
              disabled={locked}
              visibilityToggleButtonProps={toggle}
            />
            <PasswordInput
              label="Retype new password"
              autoComplete="new-password"
              value={f.values.confirm}
              onChange={(e) => f.setField('confirm', e.currentTarget.value)}
              error={f.errors.confirm}
              disabled={locked}
              visibilityToggleButtonProps={toggle}
            />
          </SimpleGrid>
          <FormError message={f.formError} />
          <Group justify="space-between">
            <Text size="sm" c="teal.9" role="status">
              {done ? MSG.passwordSet : ''}
            </Text>
            <Button type="submit" loading={f.submitting} disabled={locked}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
