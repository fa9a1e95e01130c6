import {
  Alert,
  Button,
  Card,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { linkBases, MSG_TEAMS, validateForm, ZChangeEmailRequest } from '@tlprt/contract';
import type { FormEvent } from 'react';
import { showPopup } from '../../api/popups';
import { FormError } from '../../components/FormError';
import { IconMail } from '../../components/icons';
import { useForm } from '../../components/useForm';
import { useSession } from '../session/SessionProvider';
import { useChangeEmail, useChangeEmailResend, useChangeEmailRevoke } from './mutations';

const FIELDS = ['email', 'password'] as const;

/** Change e-mail (spec §2, §4, §5): new e-mail + current password; statusChangeEmail 10 = pending. */
export function ChangeEmail({ locked, lockedReason }: { locked: boolean; lockedReason?: string }) {
  const { user, currentTeam } = useSession();
  const change = useChangeEmail(user.id);
  const resend = useChangeEmailResend(user.id);
  const revoke = useChangeEmailRevoke(user.id);
  const f = useForm({ email: '', password: '' });
  const pending = user.statusChangeEmail === 10;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const values = { email: f.values.email.trim(), password: f.values.password };
    const result = validateForm(ZChangeEmailRequest, {
      ...values,
      url: linkBases(window.location.origin).changeEmail,
    });
    if (!result.ok) return f.showValidation(result);
    f.setSubmitting(true);
    try {
      await change.mutateAsync({
        team_id: currentTeam?.id,
        email: result.data.email,
        password: values.password,
      });
      f.setField('email', '');
      f.setField('password', '');
      f.setSubmitting(false);
      showPopup({ kind: 'notice', title: MSG_TEAMS.linkSent });
    } catch (error) {
      f.setSubmitting(false);
      f.showApiError(error, FIELDS);
    }
  };

  return (
    <Card withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="email-title">
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg" id="email-title">
            Change e-mail
          </Title>
          <Text size="sm" c="dimmed">
            {lockedReason ??
              `Current e-mail: ${user.email}. We will send a confirmation link to the new address.`}
          </Text>
        </div>
        {pending ? (
          <Alert variant="light" color="blue" icon={<IconMail />} title="Change requested">
            <Stack gap="sm">
              <Text size="sm">
                Confirm the change with the link sent to <b>{user.newChangeEmail}</b>.
              </Text>
              <Group gap="sm">
                <Button
                  size="xs"
                  variant="default"
                  loading={resend.isPending}
                  onClick={() =>
                    resend.mutate(undefined, {
                      onSuccess: () => showPopup({ kind: 'notice', title: MSG_TEAMS.linkSent }),
                    })
                  }
                >
                  Resend
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  loading={revoke.isPending}
                  onClick={() => revoke.mutate()}
                >
                  Revoke
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <TextInput
                  label="New e-mail"
                  type="email"
                  autoComplete="email"
                  value={f.values.email}
                  onChange={(e) => f.setField('email', e.currentTarget.value)}
                  error={f.errors.email}
                  disabled={locked}
                />
                <PasswordInput
                  label="Current password"
                  autoComplete="current-password"
                  value={f.values.password}
                  onChange={(e) => f.setField('password', e.currentTarget.value)}
                  error={f.errors.password}
                  disabled={locked}
                  visibilityToggleButtonProps={{ 'aria-label': 'Toggle visibility' }}
                />
              </SimpleGrid>
              <FormError message={f.formError} />
              <Group justify="flex-end">
                <Button type="submit" loading={f.submitting} disabled={locked}>
                  Change e-mail
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}
