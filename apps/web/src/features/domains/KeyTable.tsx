import { ActionIcon, Badge, Box, Group, Switch, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useField } from '@mantine/form';
import { KeyStatus, LIMITS, MSG_DOMAINS, type TDomain, type TKey } from '@tlprt/contract';
import { type KeyboardEvent, useEffect } from 'react';
import { refusalToShow } from '../../platform/api/popups';
import { formatDate } from '../../platform/dates';
import { useSession } from '../../platform/session/SessionProvider';
import { CopyIcon } from '../../platform/ui/CopyBlock';
import { IconAlert, IconBan, IconKey, IconShield, IconSliders, IconTrash } from '../../platform/ui/icons';
import type { Pending } from './DomainModals';
import { KEY_STATUS_COLOR, statusName } from './format';
import { useRenameKey, useToggleKey } from './keys/mutations';
import type { DomainPermissions } from './permissions';
import { useDictionaries } from './queries';

/** The key table of one domain (spec §2): Service key, Name, Created, Status, then the actions. */
export function KeyTable({
  domain,
  keys,
  perms,
  onAsk,
}: {
  domain: TDomain;
  keys: TKey[];
  perms: DomainPermissions;
  onAsk: (p: Pending) => void;
}) {
  if (keys.length === 0) {
    return (
      <Group gap="xs" c="dimmed" py="xs">
        <IconKey size={16} />
        <Text size="sm">{MSG_DOMAINS.noKeys}</Text>
      </Group>
    );
  }
  return (
    <Table
      className="stack-table"
      verticalSpacing="sm"
      horizontalSpacing="sm"
      aria-label={`Keys of ${domain.url}`}
      layout="fixed"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="31%">Service key</Table.Th>
          <Table.Th w="21%">Name</Table.Th>
          <Table.Th w="15%">Created</Table.Th>
          <Table.Th w="14%">Status</Table.Th>
          <Table.Th w="19%">
            <Box
              component="span"
              style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
            >
              Actions
            </Box>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((k) => (
          <KeyRow key={k.id} domain={domain} k={k} perms={perms} onAsk={onAsk} />
        ))}
      </Table.Tbody>
    </Table>
  );
}

function KeyRow({
  domain,
  k,
  perms,
  onAsk,
}: {
  domain: TDomain;
  k: TKey;
  perms: DomainPermissions;
  onAsk: (p: Pending) => void;
}) {
  const { currentTeam } = useSession();
  const teamId = currentTeam?.id ?? 0;
  const dict = useDictionaries();
  const toggle = useToggleKey(teamId);
  const restricted = k.status === KeyStatus.Restricted;
  const blocked = domain.suspended === 1;
  const editable = perms.manageKeys && !restricted && !blocked;
  const active = k.status === KeyStatus.Active;

  const onPower = () => {
    // Spec §4: activating is immediate, deactivating asks confirmation.
    if (active) onAsk({ kind: 'deactivateKey', domain, key: k });
    else toggle.mutate(k.id);
  };

  return (
    <Table.Tr>
      <Table.Td data-label="Service key">
        <Group gap={4} wrap="nowrap">
          <Text ff="monospace" size="sm" truncate="end" title={k.keyHash} style={{ minWidth: 0 }}>
            {k.keyHash}
          </Text>
          <CopyIcon value={k.keyHash} label={`Copy key ${k.keyHash}`} />
        </Group>
        {restricted && (
          <Group gap={4} mt={4} c="red" wrap="nowrap">
            <IconAlert size={14} />
            <Text size="xs" c="red">
              {MSG_DOMAINS.keySuspendedWarning}
            </Text>
          </Group>
        )}
      </Table.Td>
      <Table.Td data-label="Name">
        <KeyNameInput teamId={teamId} k={k} disabled={!editable} />
      </Table.Td>
      <Table.Td data-label="Created">
        <Text size="sm">{formatDate(k.createdAt)}</Text>
      </Table.Td>
      <Table.Td data-label="Status">
        <Badge color={KEY_STATUS_COLOR[k.status] ?? 'gray'} variant="light" radius="sm">
          {statusName(dict.data, 'key_statuses', k.status)}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip label={active ? 'Deactivate key' : 'Activate key'}>
            <Switch
              aria-label={`Active ${k.keyHash}`}
              checked={active}
              disabled={!editable || toggle.isPending}
              onChange={onPower}
              color="green"
              mr={4}
            />
          </Tooltip>
          <Tooltip label="Key settings">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Key settings ${k.keyHash}`}
              onClick={() => onAsk({ kind: 'keySettings', domain, key: k })}
              disabled={perms.frozen}
            >
              <IconSliders />
            </ActionIcon>
          </Tooltip>
          {perms.supervisor && (
            <>
              <Tooltip label="Supervisor settings">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Supervisor settings ${k.keyHash}`}
                  onClick={() => onAsk({ kind: 'supervisorSettings', domain, key: k })}
                >
                  <IconShield />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={k.suspended === 1 ? 'Unsuspend key' : 'Suspend key'}>
                <ActionIcon
                  variant="subtle"
                  color={k.suspended === 1 ? 'teal' : 'orange'}
                  aria-label={`${k.suspended === 1 ? 'Unsuspend' : 'Suspend'} key ${k.keyHash}`}
                  disabled={blocked}
                  onClick={() => onAsk({ kind: 'suspendKey', domain, key: k })}
                >
                  <IconBan />
                </ActionIcon>
              </Tooltip>
            </>
          )}
          <Tooltip label="Delete key">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete key ${k.keyHash}`}
              disabled={!perms.manageKeys || blocked}
              onClick={() => onAsk({ kind: 'deleteKey', domain, key: k })}
            >
              <IconTrash />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** Spec §5: the key name is edited inline, saved on blur or Enter; disabled for status 40. */
function KeyNameInput({ teamId, k, disabled }: { teamId: number; k: TKey; disabled: boolean }) {
  const name = useField({ initialValue: k.name });
  const rename = useRenameKey(teamId);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new saved name replaces what is typed
  useEffect(() => name.setValue(k.name), [k.name]);

  const save = () => {
    const next = name.getValue().trim();
    if (next === k.name) {
      name.setValue(k.name);
      return;
    }
    rename.mutate(
      { id: k.id, name: next },
      {
        onError: (e) => {
          if (refusalToShow(e)) name.setError(e.fieldErrors.name ?? e.body.message);
          else name.setValue(k.name);
        },
      },
    );
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      e.currentTarget.blur();
    } else if (e.key === 'Escape') {
      name.setValue(k.name);
    }
  };
  return (
    <TextInput
      aria-label={`Key name ${k.keyHash}`}
      placeholder={MSG_DOMAINS.nameKeyPlaceholder}
      {...name.getInputProps()}
      maxLength={LIMITS.nameMax}
      disabled={disabled}
      size="xs"
      variant={disabled ? 'filled' : 'default'}
      onBlur={save}
      onKeyDown={onKeyDown}
    />
  );
}
