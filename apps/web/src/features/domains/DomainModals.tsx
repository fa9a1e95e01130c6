import { Alert, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { DomainStatus, MSG_DOMAINS, type TDomain, type TKey, VerificationMethod } from '@tlprt/contract';
import { useEffect, useState } from 'react';
import { AppModal } from '../../components/AppModal';
import { ConfirmModal } from '../../components/ConfirmModal';
import { IconAlert } from '../../components/icons';
import { useDeleteKey, useSuspendKey, useToggleKey } from '../keys/mutations';
import { useDeleteDomain, useSuspendDomain, useToggleDomain, useVerifyDomain } from './mutations';
import { KeySettingsModal, SupervisorSettingsModal } from './SettingsModals';

/** Every confirmation of My domains (spec §2 "Modals"), one open at a time. */
export type Pending =
  | { kind: 'toggleDomain'; domain: TDomain }
  | { kind: 'deleteDomain'; domain: TDomain }
  | { kind: 'suspendDomain'; domain: TDomain }
  | { kind: 'bypass'; domain: TDomain }
  | { kind: 'deactivateKey'; domain: TDomain; key: TKey }
  | { kind: 'deleteKey'; domain: TDomain; key: TKey }
  | { kind: 'suspendKey'; domain: TDomain; key: TKey }
  | { kind: 'keySettings'; domain: TDomain; key: TKey }
  | { kind: 'supervisorSettings'; domain: TDomain; key: TKey }
  | null;

export function DomainModals({
  teamId,
  pending,
  onClose,
}: {
  teamId: number;
  pending: Pending;
  onClose: () => void;
}) {
  const toggleDomain = useToggleDomain(teamId);
  const deleteDomain = useDeleteDomain(teamId);
  const suspendDomain = useSuspendDomain(teamId);
  const verify = useVerifyDomain(teamId);
  const toggleKey = useToggleKey(teamId);
  const suspendKey = useSuspendKey(teamId);
  const done = { onSettled: onClose };
  const kind = pending?.kind;
  const domain = pending?.domain;
  const key = pending && 'key' in pending ? pending.key : null;
  const domainActive = domain?.status.id === DomainStatus.Active;
  const domainSuspended = domain?.suspended === 1;
  const keySuspended = key?.suspended === 1;

  return (
    <>
      <ConfirmModal
        opened={kind === 'toggleDomain'}
        onClose={onClose}
        title={domainActive ? 'Deactivate domain' : 'Activate domain'}
        danger={domainActive}
        loading={toggleDomain.isPending}
        onConfirm={() => domain && toggleDomain.mutate(domain.id, done)}
      >
        <Text>
          {domainActive
            ? `${domain?.url ?? ''} and all its keys will stop serving traffic until you activate it again.`
            : `${domain?.url ?? ''} moves back to the active domains and its keys work again.`}
        </Text>
      </ConfirmModal>

      <ConfirmModal
        opened={kind === 'deleteDomain'}
        onClose={onClose}
        title="Delete domain"
        danger
        loading={deleteDomain.isPending}
        onConfirm={() => domain && deleteDomain.mutate(domain.id, done)}
      >
        <Text>
          Delete <b>{domain?.url}</b>? This cannot be undone: its keys stop working and the domain must be
          verified again to get it back.
        </Text>
      </ConfirmModal>

      <ConfirmModal
        opened={kind === 'suspendDomain'}
        onClose={onClose}
        title={domainSuspended ? 'Unsuspend domain' : 'Suspend domain'}
        danger={!domainSuspended}
        loading={suspendDomain.isPending}
        onConfirm={() => domain && suspendDomain.mutate(domain.id, done)}
      >
        <Text>
          {domainSuspended
            ? `${domain?.url ?? ''} is unsuspended and each of its keys gets back its previous state.`
            : `${domain?.url ?? ''} is suspended: all its keys are deactivated and cannot be changed until it is unsuspended.`}
        </Text>
      </ConfirmModal>

      <ConfirmModal
        opened={kind === 'bypass'}
        onClose={onClose}
        title={MSG_DOMAINS.verifyManually}
        loading={verify.isPending}
        onConfirm={() =>
          domain &&
          verify.mutate({ id: domain.id, method: VerificationMethod.SupervisorBypass, inx: 0 }, done)
        }
      >
        <Text>{MSG_DOMAINS.bypassConfirm}</Text>
      </ConfirmModal>

      <ConfirmModal
        opened={kind === 'deactivateKey'}
        onClose={onClose}
        title="Deactivate key"
        danger
        loading={toggleKey.isPending}
        onConfirm={() => key && toggleKey.mutate(key.id, done)}
      >
        <Text>
          The key <Code>{key?.keyHash}</Code> stops working for {domain?.url} until you activate it again.
        </Text>
      </ConfirmModal>

      <ConfirmModal
        opened={kind === 'suspendKey'}
        onClose={onClose}
        title={keySuspended ? 'Unsuspend key' : 'Suspend key'}
        danger={!keySuspended}
        loading={suspendKey.isPending}
        onConfirm={() => key && suspendKey.mutate(key.id, done)}
      >
        <Text>
          {keySuspended
            ? 'The key gets back the status it had before it was suspended.'
            : 'The key is suspended: it stops working and its owners cannot change it.'}{' '}
          <Code>{key?.keyHash}</Code>
        </Text>
      </ConfirmModal>

      <DeleteKeyModal teamId={teamId} k={kind === 'deleteKey' ? key : null} onClose={onClose} />
      <KeySettingsModal
        teamId={teamId}
        domain={domain ?? null}
        k={kind === 'keySettings' ? key : null}
        onClose={onClose}
      />
      <SupervisorSettingsModal
        teamId={teamId}
        domain={domain ?? null}
        k={kind === 'supervisorSettings' ? key : null}
        onClose={onClose}
      />
    </>
  );
}

/** Spec §5: the user types the exact key text; Confirm stays disabled until it matches. */
function DeleteKeyModal({ teamId, k, onClose }: { teamId: number; k: TKey | null; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const remove = useDeleteKey(teamId);
  const opened = k !== null;
  useEffect(() => {
    if (!opened) setTyped('');
  }, [opened]);
  const matches = k !== null && typed.trim() === k.keyHash;
  return (
    <AppModal opened={opened} onClose={onClose} title="Delete key" size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (matches && k) remove.mutate(k.id, { onSettled: onClose });
        }}
      >
        <Stack gap="md">
          <Alert color="red" variant="light" icon={<IconAlert />}>
            Players using this key stop getting P2P delivery. This cannot be undone.
          </Alert>
          <Text size="sm">Type the key to confirm:</Text>
          <Code block className="code-block">
            {k?.keyHash}
          </Code>
          <TextInput
            label="Key"
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
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
    </AppModal>
  );
}
