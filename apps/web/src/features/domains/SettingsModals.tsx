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
import { type FormErrors, useForm } from '@mantine/form';
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
import { IconAlert, IconCheck } from '../../platform/ui/icons';
import { fromSettingValue, toSettingValue } from './format';
import type { SupervisorLayer, SupervisorSettingInput } from './keys/api';
import { useSetSupervisorSettings } from './keys/mutations';
import { useKeySettings, useSupervisorSettings } from './keys/queries';

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
  domain: TDomain;
  k: TKey;
  onClose: () => void;
}) {
  const settings = useKeySettings(teamId, domain.id, k.id, true);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Player settings of <Code>{k.keyHash}</Code>
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

/** Form paths are dotted: a row's values live under "s{param id}". */
const rowKey = (id: number) => `s${id}`;

function initialState(rows: TSupervisorSettingRow[]): Record<string, RowState> {
  const out: Record<string, RowState> = {};
  for (const r of rows) {
    out[rowKey(r.param_id)] = {
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
  domain: TDomain;
  k: TKey;
  onClose: () => void;
}) {
  const domainId = domain.id;
  const rows = useSupervisorSettings(teamId, k.id, domainId, true);
  const save = useSetSupervisorSettings(teamId);
  const form = useForm<Record<string, RowState>>({ initialValues: {} });
  const [saved, setSaved] = useState<SupervisorLayer | null>(null);
  const { setValues } = form;

  useEffect(() => {
    if (rows.data) setValues(initialState(rows.data));
  }, [rows.data, setValues]);

  /** An input of the table; an edit hides the "saved" line (a reload after a save keeps it). */
  const field = (path: string, type?: 'checkbox') => {
    const props = form.getInputProps(path, { type });
    return {
      ...props,
      // the rows arrive one render before their values
      ...(type === 'checkbox' ? { checked: props.checked ?? false } : { value: props.value ?? '' }),
      onChange: (e: unknown) => {
        props.onChange(e);
        setSaved(null);
      },
    };
  };

  const saveLayer = (layer: SupervisorLayer) => {
    if (!rows.data) return;
    const settings: SupervisorSettingInput[] = [];
    const errors: FormErrors = {};
    for (const r of rows.data) {
      const cell = form.values[rowKey(r.param_id)]?.[layer];
      if (!cell) continue;
      const v = toSettingValue(cell.value);
      if (!v.ok) errors[`${rowKey(r.param_id)}.${layer}.value`] = 'Must be a number';
      else settings.push({ id: r.param_id, value: v.value, settingOverwrite: cell.override ? 1 : 0 });
    }
    form.setErrors(errors);
    if (Object.keys(errors).length > 0 || settings.length === 0) return;
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
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Layers apply in order default → team → domain → key → production; a layer counts only when its
        override is on. Key <Code>{k.keyHash}</Code> of {domain.url}.
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
                    const path = `${rowKey(r.param_id)}.${l.layer}`;
                    return (
                      <Table.Td key={l.layer} data-label={l.label}>
                        <Stack gap={6}>
                          <TextInput
                            size="xs"
                            inputMode="decimal"
                            aria-label={`${l.label} value ${name}`}
                            placeholder="—"
                            {...field(`${path}.value`)}
                          />
                          <Switch
                            size="xs"
                            label="Override"
                            aria-label={`${l.label} override ${name}`}
                            {...field(`${path}.override`, 'checkbox')}
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
              disabled={!rows.data}
            >
              Save {l.label.toLowerCase()}
            </Button>
          ))}
        </Group>
      </Group>
    </Stack>
  );
}
