import {
  Box,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  ALERT_EMAIL_ROLES,
  ALERT_METRIC_INFO,
  ALERT_METRICS,
  LIMITS,
  MSG_ALERTS,
  roleName,
  type TAlertMetric,
  type TAlertOp,
  type TAlertRule,
  type TAlertSaved,
  ZAlertPreviewRequest,
  ZAlertRuleInput,
} from '@tlprt/contract';
import { useMemo } from 'react';
import { isApiError } from '../../platform/api/errors';
import { FORM_ERROR, formError, useContractForm } from '../../platform/form';
import { FormError } from '../../platform/ui/FormError';
import { formatBytes } from '../../platform/units';
import { UNIT_LABEL } from './format';
import type { KeyGroup } from './keys';
import { useSaveAlert } from './mutations';
import { PreviewChart } from './PreviewChart';
import { useAlertPreview } from './queries';

/** What the inputs hold: numbers may be '' while typed, role ids are the checkboxes' strings. */
type FormValues = {
  name: string;
  metric: TAlertMetric;
  op: TAlertOp;
  threshold: number | string;
  windowMinutes: number | string;
  minViewers: number | string;
  keys: string[];
  emailRoles: string[];
  webhookUrl: string;
};
const FIELDS = Object.keys(ZAlertRuleInput.shape);

/** A new rule starts as the example of the issue: P2P share below 40% over 5 minutes, the Admins told. */
const NEW_RULE: FormValues = {
  name: '',
  metric: 'p2pShare',
  op: 'below',
  threshold: 40,
  windowMinutes: 5,
  minViewers: 10,
  keys: [],
  emailRoles: ['10'],
  webhookUrl: '',
};

const valuesOf = (r: TAlertRule): FormValues => ({
  name: r.name,
  metric: r.metric,
  op: r.op,
  threshold: r.threshold,
  windowMinutes: r.windowMinutes,
  minViewers: r.minViewers,
  keys: r.keys,
  emailRoles: r.emailRoles.map(String),
  webhookUrl: r.webhookUrl ?? '',
});

/** '' stays absent so the schema names the field (or applies its default). */
const num = (v: number | string) =>
  typeof v === 'number' ? v : v.trim() === '' ? undefined : Number(v.trim());

const toInput = (v: FormValues) => ({
  name: v.name.trim(),
  metric: v.metric,
  op: v.op,
  threshold: num(v.threshold),
  windowMinutes: num(v.windowMinutes),
  minViewers: num(v.minViewers),
  keys: v.keys,
  emailRoles: v.emailRoles.map(Number),
  webhookUrl: v.webhookUrl.trim() === '' ? null : v.webhookUrl.trim(),
});

/**
 * A 400's field errors on their inputs. The server names an array item's error by its path ("keys.3"),
 * which is shown on the array's input; anything else (the limit's 409) is the form-level line.
 */
function serverErrors(err: unknown): FormErrors | null {
  if (!isApiError(err) || err.status === 0 || err.status >= 500 || err.status === 401 || err.status === 403)
    return null;
  const fields: FormErrors = {};
  let unplaced = false;
  for (const [path, message] of Object.entries(err.fieldErrors)) {
    const field = path.split('.')[0] ?? path;
    if (FIELDS.includes(field)) fields[field] ??= message;
    else unplaced = true;
  }
  return Object.keys(fields).length > 0 && !unplaced ? fields : { ...fields, [FORM_ERROR]: err.body.message };
}

/**
 * Create or edit a rule: a modal of the screen's own (not the modals manager's), so that a live event,
 * which closes the manager's modals, does not throw away what is being typed. The contract's schema
 * checks it as the server does; the preview of the last 24 hours follows the fields, debounced.
 */
export function AlertFormModal({
  teamId,
  rule,
  opened,
  keyGroups,
  onClose,
  onSaved,
}: {
  teamId: number;
  /** null: a new rule. */
  rule: TAlertRule | null;
  opened: boolean;
  keyGroups: KeyGroup[];
  onClose: () => void;
  onSaved: (saved: TAlertSaved) => void;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={rule ? MSG_ALERTS.edit : MSG_ALERTS.create}
      size="xl"
      fullScreen={phone}
      closeOnClickOutside={false}
    >
      {/* Keyed: each opening starts from the rule as listed (or the defaults). */}
      {opened && (
        <AlertForm
          key={rule?.id ?? 'new'}
          teamId={teamId}
          rule={rule}
          keyGroups={keyGroups}
          onCancel={onClose}
          onSaved={onSaved}
        />
      )}
    </Modal>
  );
}

function AlertForm({
  teamId,
  rule,
  keyGroups,
  onCancel,
  onSaved,
}: {
  teamId: number;
  rule: TAlertRule | null;
  keyGroups: KeyGroup[];
  onCancel: () => void;
  onSaved: (saved: TAlertSaved) => void;
}) {
  const save = useSaveAlert(teamId);
  const form = useContractForm(ZAlertRuleInput, {
    initialValues: rule ? valuesOf(rule) : NEW_RULE,
    toInput,
  });
  const submit = form.onSubmit((body) =>
    save.mutate(
      { id: rule?.id ?? null, body },
      {
        onSuccess: (r) => onSaved(r.data),
        onError: (err) => {
          const errors = serverErrors(err);
          if (errors) form.setErrors(errors);
        },
      },
    ),
  );
  const v = form.values;
  const unit = ALERT_METRIC_INFO[v.metric].unit;
  const threshold = num(v.threshold);
  const shownThreshold = threshold !== undefined && Number.isFinite(threshold) ? threshold : null;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={MSG_ALERTS.nameLabel}
          placeholder={MSG_ALERTS.namePlaceholder}
          maxLength={LIMITS.alertNameMax}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label={MSG_ALERTS.metricLabel}
            data={ALERT_METRICS.map((m) => ({ value: m, label: ALERT_METRIC_INFO[m].label }))}
            description={ALERT_METRIC_INFO[v.metric].description}
            allowDeselect={false}
            {...form.getInputProps('metric')}
          />
          <Box>
            <Text component="span" size="sm" fw={500} id="alert-op-label">
              {MSG_ALERTS.opLabel}
            </Text>
            <SegmentedControl
              fullWidth
              mt={4}
              aria-labelledby="alert-op-label"
              data={[
                { value: 'above', label: MSG_ALERTS.opAboveLabel },
                { value: 'below', label: MSG_ALERTS.opBelowLabel },
              ]}
              {...form.getInputProps('op')}
            />
          </Box>
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <NumberInput
            label={MSG_ALERTS.thresholdLabel}
            min={0}
            max={unit === 'percent' ? 100 : undefined}
            allowNegative={false}
            rightSection={
              <Text size="xs" c="dimmed" pr={4}>
                {UNIT_LABEL[unit]}
              </Text>
            }
            rightSectionWidth={unit === 'percent' ? 32 : 64}
            description={
              unit === 'bytes' && shownThreshold !== null && shownThreshold > 0
                ? MSG_ALERTS.thresholdBytes(formatBytes(shownThreshold))
                : MSG_ALERTS.thresholdHelp[unit]
            }
            {...form.getInputProps('threshold')}
          />
          <NumberInput
            label={MSG_ALERTS.windowLabel}
            description={MSG_ALERTS.windowHelp}
            min={1}
            max={LIMITS.alertWindowMinutesMax}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('windowMinutes')}
          />
          <NumberInput
            label={MSG_ALERTS.minViewersLabel}
            description={MSG_ALERTS.minViewersHelp}
            min={0}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('minViewers')}
          />
        </SimpleGrid>
        <MultiSelect
          label={MSG_ALERTS.keysLabel}
          description={MSG_ALERTS.keysHelp}
          placeholder={v.keys.length === 0 ? MSG_ALERTS.allKeys : undefined}
          data={keyGroups}
          searchable
          clearable
          maxValues={LIMITS.alertKeysMax}
          {...form.getInputProps('keys')}
        />
        <Checkbox.Group label={MSG_ALERTS.emailRolesLabel} {...form.getInputProps('emailRoles')}>
          <Group gap="lg" mt={6}>
            {ALERT_EMAIL_ROLES.map((r) => (
              <Checkbox key={r} value={String(r)} label={roleName(r)} />
            ))}
          </Group>
        </Checkbox.Group>
        <TextInput
          label={MSG_ALERTS.webhookLabel}
          description={MSG_ALERTS.webhookHelp}
          placeholder="https://hooks.example.com/tlprt"
          type="url"
          maxLength={LIMITS.webhookUrlMax}
          {...form.getInputProps('webhookUrl')}
        />
        <Preview teamId={teamId} values={v} threshold={shownThreshold} />
        <FormError message={formError(form)} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {MSG_ALERTS.cancel}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {rule ? MSG_ALERTS.save : MSG_ALERTS.create}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The preview asks only once the fields it depends on settle and are valid. */
function Preview({
  teamId,
  values,
  threshold,
}: {
  teamId: number;
  values: FormValues;
  threshold: number | null;
}) {
  const question = useMemo(() => {
    const parsed = ZAlertPreviewRequest.safeParse({
      metric: values.metric,
      windowMinutes: num(values.windowMinutes),
      minViewers: num(values.minViewers),
      keys: values.keys,
    });
    return parsed.success ? parsed.data : null;
  }, [values.metric, values.windowMinutes, values.minViewers, values.keys]);
  // The query key is the question itself: an unchanged one is not asked again after a key press.
  const [settled] = useDebouncedValue(question, 400);
  const preview = useAlertPreview(teamId, settled);
  return (
    <Stack gap={6} component="section" aria-label={MSG_ALERTS.preview}>
      <Text size="sm" fw={500}>
        {MSG_ALERTS.preview}
      </Text>
      <PreviewChart
        metric={settled?.metric ?? values.metric}
        threshold={threshold}
        points={preview.data}
        loading={preview.isFetching}
      />
    </Stack>
  );
}
