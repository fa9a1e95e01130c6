import { Button, Card, Group, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { validateForm, ZCreateTeamRequest } from '@tlprt/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { isApiError } from '../../api/errors';
import { AppModal } from '../../components/AppModal';
import { IconPlus } from '../../components/icons';
import { useSession } from '../session/SessionProvider';
import { setStoredTeamId } from '../session/storage';
import { setSettingsTab } from '../settings/settingsTab';
import { useCreateTeam } from '../teams/mutations';

/** Create own team (spec §2): the creator becomes Admin. Hidden for user status 30/40 (caller decides). */
export function CreateTeam() {
  const { selectTeam } = useSession();
  const create = useCreateTeam();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) {
      setName('');
      setError(null);
    }
  }, [open]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateForm(ZCreateTeamRequest, { name });
    if (!result.ok) return setError(result.fieldErrors.name ?? result.formError ?? null);
    create.mutate(result.data, {
      onSuccess: (r) => {
        setOpen(false);
        setStoredTeamId(r.data.id);
        selectTeam(r.data.id);
        setSettingsTab(1);
      },
      onError: (err) => {
        if (isApiError(err) && err.status === 400) setError(err.fieldErrors.name ?? err.body.message);
      },
    });
  };

  return (
    <Card withBorder p={{ base: 'md', sm: 'xl' }} component="section">
      <Group justify="space-between" wrap="wrap" gap="md">
        <Group gap="md" wrap="nowrap" align="flex-start" style={{ flex: '1 1 320px' }}>
          <ThemeIcon variant="light" size={40} radius="xl">
            <IconPlus size={20} />
          </ThemeIcon>
          <div>
            <Title order={2} fz="lg">
              Create own team
            </Title>
            <Text size="sm" c="dimmed">
              You become the Admin of the new team: invite members, delegate roles and use all features.
            </Text>
          </div>
        </Group>
        <Button variant="light" onClick={() => setOpen(true)}>
          Create team
        </Button>
      </Group>
      <AppModal opened={open} onClose={() => setOpen(false)} title="Create new team">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label="Team name"
              value={name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setError(null);
              }}
              error={error}
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create team
              </Button>
            </Group>
          </Stack>
        </form>
      </AppModal>
    </Card>
  );
}
