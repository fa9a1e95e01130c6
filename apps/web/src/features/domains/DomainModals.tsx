import { Alert, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DomainStatus, MSG_DOMAINS, type TDomain, type TKey, VerificationMethod } from '@tlprt/contract';
import { openAppModal, openConfirm } from '../../platform/ui/AppModals';
import { IconAlert } from '../../platform/ui/icons';
import { useDeleteKey, useSuspendKey, useToggleKey } from './keys/mutations';
import {
  useDeleteDomain,
  useSetPlainHttp,
  useSuspendDomain,
  useToggleDomain,
  useVerifyDomain,
} from './mutations';
import { KeySettingsModal, SupervisorSettingsModal } from './SettingsModals';

/** Every confirmation of My domains (spec §2 "Modals"). */
export type Pending =
  | { kind: 'toggleDomain'; domain: TDomain }
  | { kind: 'deleteDomain'; domain: TDomain }
  | { kind: 'suspendDomain'; domain: TDomain }
  | { kind: 'bypass'; domain: TDomain }
  | { kind: 'plainHttpOff'; domain: TDomain }
  | { kind: 'deactivateKey'; domain: TDomain; key: TKey }
  | { kind: 'deleteKey'; domain: TDomain; key: TKey }
  | { kind: 'suspendKey'; domain: TDomain; key: TKey }
  | { kind: 'keySettings'; domain: TDomain; key: TKey }
  | { kind: 'supervisorSettings'; domain: TDomain; key: TKey };

/** Opens the modal a control of My domains asks for. */
export function useDomainModals(teamId: number): (pending: Pending) => void {
  const toggleDomain = useToggleDomain(teamId);
  const deleteDomain = useDeleteDomain(teamId);
  const suspendDomain = useSuspendDomain(teamId);
  const verify = useVerifyDomain(teamId);
  const setPlainHttp = useSetPlainHttp(teamId);
  const toggleKey = useToggleKey(teamId);
  const suspendKey = useSuspendKey(teamId);

  return (pending) => {
    const { domain } = pending;
    switch (pending.kind) {
      case 'toggleDomain': {
        const active = domain.status.id === DomainStatus.Active;
        return openConfirm({
          title: active ? 'Deactivate domain' : 'Activate domain',
          danger: active,
          onConfirm: () => toggleDomain.mutateAsync(domain.id),
          children: (
            <Text>
              {active
                ? `${domain.url} and all its keys will stop serving traffic until you activate it again.`
                : `${domain.url} moves back to the active domains and its keys work again.`}
            </Text>
          ),
        });
      }
      case 'deleteDomain':
        return openConfirm({
          title: 'Delete domain',
          danger: true,
          onConfirm: () => deleteDomain.mutateAsync(domain.id),
          children: (
            <Text>
              Delete <b>{domain.url}</b>? This cannot be undone: its keys stop working and the domain must be
              verified again to get it back.
            </Text>
          ),
        });
      case 'suspendDomain': {
        const suspended = domain.suspended === 1;
        return openConfirm({
          title: suspended ? 'Unsuspend domain' : 'Suspend domain',
          danger: !suspended,
          onConfirm: () => suspendDomain.mutateAsync(domain.id),
          children: (
            <Text>
              {suspended
                ? `${domain.url} is unsuspended and each of its keys gets back its previous state.`
                : `${domain.url} is suspended: all its keys are deactivated and cannot be changed until it is unsuspended.`}
            </Text>
          ),
        });
      }
      case 'bypass':
        return openConfirm({
          title: MSG_DOMAINS.verifyManually,
          onConfirm: () =>
            verify.mutateAsync({ id: domain.id, method: VerificationMethod.SupervisorBypass, inx: 0 }),
          children: <Text>{MSG_DOMAINS.bypassConfirm}</Text>,
        });
      case 'plainHttpOff':
        return openConfirm({
          title: MSG_DOMAINS.plainHttpOffTitle,
          danger: true,
          onConfirm: () => setPlainHttp.mutateAsync({ id: domain.id, plainHttp: false }),
          children: <Text>{MSG_DOMAINS.plainHttpOffConfirm(domain.url)}</Text>,
        });
      case 'deactivateKey':
        return openConfirm({
          title: 'Deactivate key',
          danger: true,
          onConfirm: () => toggleKey.mutateAsync(pending.key.id),
          children: (
            <Text>
              The key <Code>{pending.key.keyHash}</Code> stops working for {domain.url} until you activate it
              again.
            </Text>
          ),
        });
      case 'suspendKey': {
        const suspended = pending.key.suspended === 1;
        return openConfirm({
          title: suspended ? 'Unsuspend key' : 'Suspend key',
          danger: !suspended,
          onConfirm: () => suspendKey.mutateAsync(pending.key.id),
          children: (
            <Text>
              {suspended
                ? 'The key gets back the status it had before it was suspended.'
                : 'The key is suspended: it stops working and its owners cannot change it.'}{' '}
              <Code>{pending.key.keyHash}</Code>
            </Text>
          ),
        });
      }
      case 'deleteKey':
      case 'keySettings':
      case 'supervisorSettings':
        return openKeyModal(teamId, pending);
    }
  };
}

/** The key's own modals (forms, not confirmations). */
function openKeyModal(
  teamId: number,
  pending: Extract<Pending, { kind: 'deleteKey' | 'keySettings' | 'supervisorSettings' }>,
) {
  const { domain } = pending;
  switch (pending.kind) {
    case 'deleteKey':
      return openAppModal({
        title: 'Delete key',
        size: 'lg',
        render: (close) => <DeleteKeyForm teamId={teamId} k={pending.key} onClose={close} />,
      });
    case 'keySettings':
      return openAppModal({
        title: 'Key settings',
        size: 'lg',
        render: (close) => (
          <KeySettingsModal teamId={teamId} domain={domain} k={pending.key} onClose={close} />
        ),
      });
    case 'supervisorSettings':
      return openAppModal({
        title: 'Supervisor settings',
        size: 'min(1100px, 96vw)',
        render: (close) => (
          <SupervisorSettingsModal teamId={teamId} domain={domain} k={pending.key} onClose={close} />
        ),
      });
  }
}

/** Spec §5: the user types the exact key text; Confirm stays disabled until it matches. */
function DeleteKeyForm({ teamId, k, onClose }: { teamId: number; k: TKey; onClose: () => void }) {
  const remove = useDeleteKey(teamId);
  const form = useForm({ initialValues: { key: '' } });
  const matches = form.values.key.trim() === k.keyHash;
  return (
    <form
      onSubmit={form.onSubmit(() => {
        // closes whatever the outcome: failures have their popups
        if (matches) remove.mutateAsync(k.id).then(onClose, onClose);
      })}
    >
      <Stack gap="md">
        <Alert color="red" variant="light" icon={<IconAlert />}>
          Players using this key stop getting P2P delivery. This cannot be undone.
        </Alert>
        <Text size="sm">Type the key to confirm:</Text>
        <Code block className="code-block">
          {k.keyHash}
        </Code>
        <TextInput
          label="Key"
          {...form.getInputProps('key')}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" color="red" disabled={!matches} loading={remove.isPending}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
