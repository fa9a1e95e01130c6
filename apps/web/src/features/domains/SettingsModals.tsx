import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import {
  KEY_SETTING_HELP,
  KEY_SETTING_RANGES,
  MSG_DOMAINS,
  MSG_TEAMS,
  PLAYER_HELP,
  type TDomain,
  type TKey,
  type TSupervisorSettingRow,
} from '@tlprt/contract';
import { useEffect, useState } from 'react';
import { AppModal } from '../../components/AppModal';
import { IconAlert, IconCheck } from '../../components/icons';
import type { SupervisorLayer, SupervisorSettingInput } from '../keys/api';
import { useSetSupervisorSettings } from '../keys/mutations';
import { useKeySettings, useSupervisorSettings } from '../keys/queries';
import { fromSettingValue, toSettingValue } from './format';

const settingName = (id: number, fallback?: string) =>
  KEY_SETTING_RANGES[id]?.name ?? fallback ?? `Setting ${id}`;

/** Key settings (spec §2, §5, §9): each setting with its help text and unit, the current and default
 *  values (a supervisor's value for the key wins and says so); the controls say "Soon...". */
export function KeySettingsModal({
  teamId,
  domain,
  k,
  onClose,
}: {
  teamId: number;
  domain: TDomain | null;
  k: TKey | null;
  onClose: () => void;
}) {
  const opened = k !== null;
  const settings = useKeySettings(teamId, domain?.id ?? 0, k?.id ?? 0, opened);
  return (
    <AppModal opened={opened} onClose={onClose} title="Key settings" size="lg">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Player settings of <Code>{k?.keyHash}</Code>
        </Text>
        {settings.isPending ? (
          <Stack gap="xs" aria-busy="true">
            <Skeleton h={36} />
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        ) : (
          <Table className="stack-table" verticalSpacing="sm" aria-label="Key settings">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Setting</Table.Th>
                <Table.Th>Current</Table.Th>
                <Table.Th>Default</Table.Th>
                <Table.Th>Change</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(settings.data ?? []).map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td data-label="Setting">
                    <Text size="sm" fw={500}>
                      {settingName(s.id)}
                    </Text>
                    {KEY_SETTING_HELP[s.id] && (
                      <Text size="xs" c="dimmed" maw={320}>
                        {KEY_SETTING_HELP[s.id]}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label="Current">
                    {s.supervisorValue !== null ? (
                      <Stack gap={2} align="flex-start">
                        <Text size="sm">{s.supervisorValue}</Text>
                        <Badge variant="light" color="orange" radius="sm" tt="none">
                          {MSG_TEAMS.setBySupervisor}
                        </Badge>
                      </Stack>
                    ) : (
                      (s.currentValue ?? '—')
                    )}
                  </Table.Td>
                  <Table.Td data-label="Default">{s.defaultValue}</Table.Td>
                  <Table.Td data-label="Change">
                    <Badge variant="light" color="gray" radius="sm">
                      {MSG_DOMAINS.soon}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            {PLAYER_HELP.segmentDuration}
          </Text>
          <Text size="xs" c="dimmed">
            {PLAYER_HELP.downloadUpload}
          </Text>
        </Stack>
        <Group justify="flex-end">
          <Button onClick={onClose} miw={100}>
            Ok
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}

type LayerState = { value: string; override: boolean };
type RowState = Record<SupervisorLayer, LayerState>;
const LAYERS: {
  layer: SupervisorLayer;
  label: string;
  value: keyof TSupervisorSettingRow;
  override: keyof TSupervisorSettingRow;
}[] = [
  { layer: 'team', label: 'Team', value: 'param_client', override: 'override_client' },
  { layer: 'domain', label: 'Domain', value: 'param_domain', override: 'override_domain' },
  { layer: 'key', label: 'Key', value: 'param_api_key', override: 'override_api_key' },
];

function initialState(rows: TSupervisorSettingRow[]): Record<number, RowState> {
  const out: Record<number, RowState> = {};
  for (const r of rows) {
    out[r.param_id] = {
      team: { value: fromSettingValue(r.param_client), override: r.override_client === 1 },
      domain: { value: fromSettingValue(r.param_domain), override: r.override_domain === 1 },
      key: { value: fromSettingValue(r.param_api_key), override: r.override_api_key === 1 },
    };
  }
  return out;
}

/**
 * The supervisor settings table (spec §3 "Supervisor setting row"): default, team, domain, key and
 * production columns; each layer has its value and an override switch and is saved on its own.
 * Values: numeric text → number, empty → null (spec §5).
 */
export function SupervisorSettingsModal({
  teamId,
  domain,
  k,
  onClose,
}: {
  teamId: number;
  domain: TDomain | null;
  k: TKey | null;
  onClose: () => void;
}) {
  const opened = k !== null;
  const domainId = domain?.id ?? k?.domainId ?? null;
  const rows = useSupervisorSettings(teamId, k?.id ?? 0, domainId, opened);
  const save = useSetSupervisorSettings(teamId);
  const [state, setState] = useState<Record<number, RowState>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<SupervisorLayer | null>(null);

  useEffect(() => {
    if (rows.data) setState(initialState(rows.data));
  }, [rows.data]);
  useEffect(() => {
    if (!opened) {
      setErrors({});
      setSaved(null);
    }
  }, [opened]);

  const set = (id: number, layer: SupervisorLayer, patch: Partial<LayerState>) => {
    setState((s) => ({
      ...s,
      [id]: { ...(s[id] as RowState), [layer]: { ...(s[id] as RowState)[layer], ...patch } },
    }));
    setErrors((e) => {
      const { [`${layer}-${id}`]: _, ...rest } = e;
      return rest;
    });
    setSaved(null);
  };

  const saveLayer = (layer: SupervisorLayer) => {
    if (!k || !rows.data) return;
    const settings: SupervisorSettingInput[] = [];
    const errs: Record<string, string> = {};
    for (const r of rows.data) {
      const cell = state[r.param_id]?.[layer];
      if (!cell) continue;
      const v = toSettingValue(cell.value);
      if (!v.ok) errs[`${layer}-${r.param_id}`] = 'Must be a number';
      else settings.push({ id: r.param_id, value: v.value, settingOverwrite: cell.override ? 1 : 0 });
    }
    setErrors(errs);
    if (Object.keys(errs).length > 0 || settings.length === 0) return;
    save.mutate(
      { layer, domainId, keyId: k.id, settings },
      {
        onSuccess: () => {
          setSaved(layer);
          void rows.refetch();
        },
      },
    );
  };

  return (
    <AppModal opened={opened} onClose={onClose} title="Supervisor settings" size="min(1100px, 96vw)">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Layers apply in order default → team → domain → key → production; a layer counts only when its
          override is on. Key <Code>{k?.keyHash}</Code>
          {domain ? ` of ${domain.url}` : ''}.
        </Text>
        {rows.isPending ? (
          <Stack gap="xs" aria-busy="true">
            <Skeleton h={44} />
            <Skeleton h={44} />
            <Skeleton h={44} />
          </Stack>
        ) : !rows.data ? (
          <Alert color="red" variant="light" icon={<IconAlert />}>
            The settings could not be loaded.
          </Alert>
        ) : (
          <Table className="stack-table" verticalSpacing="sm" aria-label="Supervisor settings">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Setting</Table.Th>
                <Table.Th>Default</Table.Th>
                {LAYERS.map((l) => (
                  <Table.Th key={l.layer}>{l.label}</Table.Th>
                ))}
                <Table.Th>Production</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.data.map((r) => {
                const name = settingName(r.param_id, r.param_name);
                return (
                  <Table.Tr key={r.param_id}>
                    <Table.Td data-label="Setting">
                      <Text size="sm" fw={500}>
                        {name}
                      </Text>
                    </Table.Td>
                    <Table.Td data-label="Default">{r.param_default}</Table.Td>
                    {LAYERS.map((l) => {
                      const cell = state[r.param_id]?.[l.layer] ?? { value: '', override: false };
                      return (
                        <Table.Td key={l.layer} data-label={l.label}>
                          <Stack gap={6}>
                            <TextInput
                              size="xs"
                              inputMode="decimal"
                              aria-label={`${l.label} value ${name}`}
                              value={cell.value}
                              placeholder="—"
                              error={errors[`${l.layer}-${r.param_id}`]}
                              onChange={(e) => set(r.param_id, l.layer, { value: e.currentTarget.value })}
                            />
                            <Switch
                              size="xs"
                              label="Override"
                              aria-label={`${l.label} override ${name}`}
                              checked={cell.override}
                              onChange={(e) =>
                                set(r.param_id, l.layer, { override: e.currentTarget.checked })
                              }
                            />
                          </Stack>
                        </Table.Td>
                      );
                    })}
                    <Table.Td data-label="Production">
                      <Group gap={6}>
                        <Text size="sm" fw={600}>
                          {r.prod_value}
                        </Text>
                        {r.override_production === 1 && (
                          <Badge size="xs" color="orange" variant="light">
                            overridden
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <Group justify="space-between" gap="sm">
          <Group gap={6} c="teal" mih={24}>
            {saved && (
              <>
                <IconCheck size={16} />
                <Text size="sm" c="teal">
                  {LAYERS.find((l) => l.layer === saved)?.label} layer saved
                </Text>
              </>
            )}
          </Group>
          <Group gap="sm">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            {LAYERS.map((l) => (
              <Button
                key={l.layer}
                variant="light"
                onClick={() => saveLayer(l.layer)}
                loading={save.isPending && save.variables?.layer === l.layer}
                disabled={!rows.data || (l.layer === 'domain' && domainId === null)}
              >
                Save {l.label.toLowerCase()}
              </Button>
            ))}
          </Group>
        </Group>
      </Stack>
    </AppModal>
  );
}
