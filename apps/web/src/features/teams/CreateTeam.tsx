import { Button, Card, Group, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { ZCreateTeamRequest } from '@tlprt/contract';
import { isApiError } from '../../platform/api/errors';
import { useContractForm } from '../../platform/form';
import { useSession } from '../../platform/session/SessionProvider';
import { setStoredTeamId } from '../../platform/session/storage';
import { useSettingsTab } from '../../platform/settings/settingsTab';
import { openAppModal } from '../../platform/ui/AppModals';
import { IconPlus } from '../../platform/ui/icons';
import { useCreateTeam } from './mutations';

/** Create own team (spec §2): the creator becomes Admin. Hidden for user status 30/40 (caller decides). */
export function CreateTeam() {
  const { selectTeam } = useSession();
  const [, setSettingsTab] = useSettingsTab();
  const open = () =>
    openAppModal({
      title: 'Create new team',
      render: (close) => (
        <CreateTeamForm
          onClose={close}
          onCreated={(id) => {
            close();
            setStoredTeamId(id);
            selectTeam(id);
            setSettingsTab(1);
          }}
        />
      ),
    });

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
        <Button variant="light" onClick={open}>
          Create team
        </Button>
      </Group>
    </Card>
  );
}

function CreateTeamForm({ onClose, onCreated }: { onClose: () => void; onCreated: (id: number) => void }) {
  const create = useCreateTeam();
  const form = useContractForm(ZCreateTeamRequest, { initialValues: { name: '' } });
  // The promise, not mutate's callbacks: the team becomes current even when a server event has closed
  // the modal meanwhile.
  const submit = form.onSubmit((body) =>
    create.mutateAsync(body).then(
      (r) => onCreated(r.data.id),
      (err: unknown) => {
        if (isApiError(err) && err.status === 400)
          form.setFieldError('name', err.fieldErrors.name ?? err.body.message);
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Team name" {...form.getInputProps('name')} data-autofocus />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create team
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
