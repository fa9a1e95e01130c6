import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Card,
  Checkbox,
  Group,
  Stack,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { MSG_STATS, type TDomain } from '@tlprt/contract';
import { useEffect, useState } from 'react';
import { openConfirm } from '../../platform/ui/AppModals';
import { IconLock, IconPencil, IconTrash } from '../../platform/ui/icons';
import { type DomainGroups, keyColor, keyLabel, keyTitle, tabLabel } from './lists';

const RENAME_UNLOCK_MS = 10_000;

function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      width={14}
      height={14}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden="true"
      style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }}
    >
      <path d="M9 6l6 6-6 6" />
    </svg>
  );
}

function DomainRow({
  domain,
  selected,
  locked,
  onToggle,
  defaultOpen,
}: {
  domain: TDomain;
  selected: ReadonlySet<string>;
  locked: boolean;
  onToggle: (hash: string, on: boolean) => void;
  defaultOpen: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const count = domain.keys.filter((k) => selected.has(k.keyHash)).length;
  return (
    <Box>
      <UnstyledButton
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        w="100%"
        py={6}
        px={4}
        style={{ borderRadius: 6 }}
      >
        <Group gap={6} wrap="nowrap">
          <Chevron open={open} />
          <Text size="sm" fw={500} truncate style={{ flex: 1 }}>
            {domain.name || domain.url}
          </Text>
          {count > 0 && (
            <Badge size="xs" variant="light" aria-label={`${count} selected`}>
              {count}
            </Badge>
          )}
        </Group>
      </UnstyledButton>
      {open && (
        <Stack gap={6} pl={26} pb={6} pt={2}>
          {domain.keys.length === 0 ? (
            <Text size="sm" c="dimmed">
              {MSG_STATS.noKeyInDomain}
            </Text>
          ) : (
            domain.keys.map((k) => (
              <Checkbox
                key={k.id}
                size="xs"
                checked={selected.has(k.keyHash)}
                disabled={locked}
                onChange={(e) => onToggle(k.keyHash, e.currentTarget.checked)}
                label={
                  // Long names wrap (anywhere, a name may be one long word); the whole name or hash
                  // is the title.
                  <Text
                    size="sm"
                    c={keyColor(k)}
                    span
                    title={keyTitle(k)}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {keyLabel(k)}
                  </Text>
                }
                aria-label={keyTitle(k)}
                styles={{ label: { cursor: locked ? 'default' : 'pointer' } }}
              />
            ))
          )}
        </Stack>
      )}
    </Box>
  );
}

function Group3({
  title,
  domains,
  selected,
  locked,
  onToggle,
  defaultOpen,
}: {
  title: string;
  domains: TDomain[];
  selected: ReadonlySet<string>;
  locked: boolean;
  onToggle: (hash: string, on: boolean) => void;
  defaultOpen: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <Box>
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} w="100%" py={4}>
        <Group gap={6} wrap="nowrap">
          <Chevron open={open} />
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: 0.5, flex: 1 }}>
            {title}
          </Text>
          <Text size="xs" c="dimmed">
            {domains.length}
          </Text>
        </Group>
      </UnstyledButton>
      {open &&
        (domains.length === 0 ? (
          <Text size="sm" c="dimmed" pl={26} py={4}>
            No domains
          </Text>
        ) : (
          <Stack gap={0} pl={8}>
            {domains.map((d) => (
              <DomainRow
                key={d.id}
                domain={d}
                selected={selected}
                locked={locked}
                onToggle={onToggle}
                defaultOpen={defaultOpen}
              />
            ))}
          </Stack>
        ))}
    </Box>
  );
}

/** The list selector (spec §2): list name (rename unlocks 10 s), delete, and domain groups of keys. */
export function ListPanel({
  index,
  name,
  keys,
  groups,
  onRename,
  onKeys,
  onDelete,
}: {
  index: number;
  name: string;
  keys: readonly string[];
  groups: DomainGroups;
  onRename: (name: string) => void;
  onKeys: (keys: string[]) => void;
  onDelete: () => void;
}) {
  const locked = index === 0;
  const [unlocked, setUnlocked] = useState(false);
  const [unlockAt, setUnlockAt] = useState(0);
  const selected = new Set(keys);

  // The panel is keyed by list, so switching lists locks the name again; each click restarts the 10 s.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `unlockAt` restarts the timer
  useEffect(() => {
    if (!unlocked) return;
    const t = setTimeout(() => setUnlocked(false), RENAME_UNLOCK_MS);
    return () => clearTimeout(t);
  }, [unlocked, unlockAt]);

  const toggle = (hash: string, on: boolean) => {
    if (locked) return;
    onKeys(on ? [...keys.filter((k) => k !== hash), hash] : keys.filter((k) => k !== hash));
  };
  const shown = tabLabel(name);

  return (
    // The panel of the selected list's tab (ListTabButtons): its name says which list it edits.
    <Card withBorder p="md" radius="md" role="tabpanel" aria-label={locked ? MSG_STATS.activeTraffic : shown}>
      <Stack gap="sm">
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" gap={6} mih={28}>
            <Text component="label" htmlFor={`stats-list-name-${index}`} size="sm" fw={500}>
              List name
            </Text>
            {!locked && (
              <Group gap={6} wrap="nowrap">
                <Tooltip label={unlocked ? 'Editable for 10 seconds' : 'Rename'}>
                  <ActionIcon
                    variant={unlocked ? 'filled' : 'default'}
                    size={28}
                    aria-label={`Rename ${shown}`}
                    onClick={() => {
                      setUnlocked(true);
                      setUnlockAt(Date.now());
                    }}
                  >
                    <IconPencil size={15} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Delete list">
                  <ActionIcon
                    variant="default"
                    color="red"
                    size={28}
                    aria-label={`Delete ${shown}`}
                    onClick={() =>
                      openConfirm({
                        title: MSG_STATS.deleteSheet,
                        danger: true,
                        confirmLabel: 'Delete',
                        onConfirm: onDelete,
                        children: (
                          <Text size="sm">The list "{shown}" will be removed for you in this team.</Text>
                        ),
                      })
                    }
                  >
                    <IconTrash size={15} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            )}
          </Group>
          <TextInput
            id={`stats-list-name-${index}`}
            value={locked ? MSG_STATS.activeTraffic : name}
            placeholder={MSG_STATS.noName}
            readOnly={locked || !unlocked}
            disabled={locked}
            maxLength={30}
            onChange={(e) => onRename(e.currentTarget.value)}
            leftSection={locked ? <IconLock size={14} /> : undefined}
            description={!locked && unlocked ? 'You can rename this list for 10 seconds' : undefined}
            inputWrapperOrder={['input', 'description']}
            styles={{ input: { fontWeight: 600 } }}
          />
        </Stack>
        {locked && (
          <Alert variant="light" color="blue" p="xs">
            <Text size="xs">{MSG_STATS.activeTrafficNote}</Text>
          </Alert>
        )}
        <Stack gap={4}>
          <Group3
            title="Active"
            domains={groups.active}
            selected={selected}
            locked={locked}
            onToggle={toggle}
            defaultOpen
          />
          <Group3
            title="Inactive"
            domains={groups.inactive}
            selected={selected}
            locked={locked}
            onToggle={toggle}
            defaultOpen={false}
          />
          <Group3
            title="Deleted"
            domains={groups.deleted}
            selected={selected}
            locked={locked}
            onToggle={toggle}
            defaultOpen={false}
          />
        </Stack>
      </Stack>
    </Card>
  );
}
