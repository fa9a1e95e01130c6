import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Collapse,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { MSG_ALERTS, type TAlertDelivery, type TAlertIncident, type TAlertRule } from '@tlprt/contract';
import { type ReactNode, useId, useState } from 'react';
import { formatDateTime } from '../../platform/dates';
import { IconAlert, IconCircleCheck, IconPencil, IconTrash } from '../../platform/ui/icons';
import { channelLines, conditionText, formatValue } from './format';
import { useDeliveries } from './queries';

/** What the card may offer: each absent action is not shown (Viewers see everything read-only). */
export interface AlertActions {
  onEdit?: () => void;
  onDelete?: () => void;
  onTest?: () => void;
  onRotate?: () => void;
  testing?: boolean;
}

/** The answer of the last "Send test" of a rule, shown on its card. */
export type TestResult = { delivered: boolean; delivery: TAlertDelivery };

const DELIVERY_BADGE: Record<TAlertDelivery['state'], { label: string; color: string }> = {
  pending: { label: MSG_ALERTS.deliveryPending, color: 'orange' },
  delivered: { label: MSG_ALERTS.deliveryDelivered, color: 'teal' },
  failed: { label: MSG_ALERTS.deliveryFailed, color: 'red' },
};

/** One rule: its condition in words, keys, channels, state, last value; history and delivery log open
 *  on demand (the log is read when opened). */
export function AlertCard({
  teamId,
  rule,
  keyName,
  actions,
  test,
}: {
  teamId: number;
  rule: TAlertRule;
  keyName: (hash: string) => string;
  actions: AlertActions;
  test: TestResult | null;
}) {
  const [historyOpen, setHistoryOpen] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const historyId = useId();
  const logId = useId();
  const titleId = useId();
  const firing = rule.state === 'firing';

  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} component="article" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Box miw={0}>
            <Title order={2} fz="md" id={titleId} style={{ overflowWrap: 'anywhere' }}>
              {rule.name}
            </Title>
            <Text size="sm" c="dimmed">
              {conditionText(rule)}
            </Text>
          </Box>
          <Badge
            color={firing ? 'red' : 'teal'}
            variant={firing ? 'filled' : 'light'}
            radius="sm"
            style={{ flexShrink: 0 }}
          >
            {firing ? MSG_ALERTS.stateFiring : MSG_ALERTS.stateOk}
          </Badge>
        </Group>
        {firing && rule.firingSince && (
          <Text size="sm" c="red" fw={600}>
            {MSG_ALERTS.firingSince(formatDateTime(rule.firingSince))}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Fact label={MSG_ALERTS.keys}>
            {rule.keys.length === 0 ? MSG_ALERTS.allKeys : rule.keys.map(keyName).join(', ')}
          </Fact>
          <Fact label={MSG_ALERTS.channels}>
            {channelLines(rule).map((line) => (
              <span key={line} style={{ display: 'block' }}>
                {line}
              </span>
            ))}
          </Fact>
          <Fact label={MSG_ALERTS.lastValue}>
            {rule.lastEvaluatedAt === null
              ? MSG_ALERTS.notEvaluated
              : MSG_ALERTS.valueAt(
                  rule.lastValue === null ? MSG_ALERTS.noData : formatValue(rule.metric, rule.lastValue),
                  formatDateTime(rule.lastEvaluatedAt),
                )}
          </Fact>
        </SimpleGrid>
        {test && <TestAnswer result={test} />}
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            variant="default"
            aria-expanded={historyOpen}
            aria-controls={historyId}
            aria-label={MSG_ALERTS.historyNamed(rule.name)}
            onClick={() => setHistoryOpen((o) => !o)}
          >
            {MSG_ALERTS.history}
          </Button>
          <Button
            size="xs"
            variant="default"
            aria-expanded={logOpen}
            aria-controls={logId}
            aria-label={MSG_ALERTS.deliveriesNamed(rule.name)}
            onClick={() => setLogOpen((o) => !o)}
          >
            {MSG_ALERTS.deliveries}
          </Button>
          {actions.onTest && (
            <Button
              size="xs"
              variant="light"
              loading={actions.testing}
              aria-label={MSG_ALERTS.sendTestNamed(rule.name)}
              onClick={actions.onTest}
            >
              {MSG_ALERTS.sendTest}
            </Button>
          )}
          {actions.onRotate && (
            <Button
              size="xs"
              variant="light"
              aria-label={MSG_ALERTS.rotateNamed(rule.name)}
              onClick={actions.onRotate}
            >
              {MSG_ALERTS.rotateSecret}
            </Button>
          )}
          {actions.onEdit && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPencil size={14} />}
              aria-label={MSG_ALERTS.editNamed(rule.name)}
              onClick={actions.onEdit}
            >
              {MSG_ALERTS.edit}
            </Button>
          )}
          {actions.onDelete && (
            <Button
              size="xs"
              variant="light"
              color="red"
              leftSection={<IconTrash size={14} />}
              aria-label={MSG_ALERTS.deleteNamed(rule.name)}
              onClick={actions.onDelete}
            >
              {MSG_ALERTS.delete}
            </Button>
          )}
        </Group>
        <Collapse in={historyOpen}>
          <Box id={historyId}>{historyOpen && <History rule={rule} />}</Box>
        </Collapse>
        <Collapse in={logOpen}>
          <Box id={logId}>{logOpen && <DeliveryLog teamId={teamId} ruleId={rule.id} />}</Box>
        </Collapse>
      </Stack>
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function SubTitle({ children }: { children: ReactNode }) {
  return (
    <Title order={3} fz="sm" mb={6}>
      {children}
    </Title>
  );
}

/** The answer of "Send test": delivered (a 2xx came) or not, with the attempt's status or error. */
function TestAnswer({ result }: { result: TestResult }) {
  const attempt = result.delivery.attempts[result.delivery.attempts.length - 1];
  return (
    <Alert
      role="status"
      color={result.delivered ? 'teal' : 'red'}
      variant="light"
      icon={result.delivered ? <IconCircleCheck /> : <IconAlert />}
      title={result.delivered ? MSG_ALERTS.testSent : MSG_ALERTS.testFailed}
    >
      {attempt && <AttemptLine attempt={attempt} />}
    </Alert>
  );
}

function AttemptLine({ attempt }: { attempt: TAlertDelivery['attempts'][number] }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {MSG_ALERTS.attempt(
        formatDateTime(attempt.at, {}, true),
        attempt.status === null ? MSG_ALERTS.noAnswer : `HTTP ${attempt.status}`,
        attempt.durationMs,
      )}
      {attempt.error ? ` · ${attempt.error}` : ''}
    </Text>
  );
}

/** The latest incidents, newest first, as the list answered them. */
function History({ rule }: { rule: TAlertRule }) {
  const value = (v: number | null) => (v === null ? MSG_ALERTS.noData : formatValue(rule.metric, v));
  return (
    <Box pt="xs" style={{ borderTop: '1px solid var(--app-border)' }}>
      <SubTitle>{MSG_ALERTS.history}</SubTitle>
      {rule.history.length === 0 ? (
        <Text size="sm" c="dimmed">
          {MSG_ALERTS.noHistory}
        </Text>
      ) : (
        <Stack component="ul" gap={6} p={0} m={0} style={{ listStyle: 'none' }}>
          {rule.history.map((i: TAlertIncident) => (
            <Box component="li" key={i.id}>
              <Text size="sm">
                <b>{MSG_ALERTS.incidentOpened}</b> {formatDateTime(i.openedAt)} ·{' '}
                {i.resolvedAt === null ? (
                  <Text span c="red" fw={600} size="sm">
                    {MSG_ALERTS.incidentOpen}
                  </Text>
                ) : (
                  <>
                    <b>{MSG_ALERTS.incidentResolved}</b> {formatDateTime(i.resolvedAt)}
                  </>
                )}
              </Text>
              <Text size="xs" c="dimmed">
                {MSG_ALERTS.incidentValues(
                  value(i.openValue),
                  i.resolvedAt === null ? null : value(i.resolveValue),
                )}
              </Text>
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}

/** The webhook deliveries with every attempt, read when opened and again on each change of the rule. */
function DeliveryLog({ teamId, ruleId }: { teamId: number; ruleId: number }) {
  const deliveries = useDeliveries(teamId, ruleId, true);
  return (
    <Box pt="xs" style={{ borderTop: '1px solid var(--app-border)' }}>
      <SubTitle>{MSG_ALERTS.deliveries}</SubTitle>
      {deliveries.isPending ? (
        <Skeleton h={40} radius="md" aria-busy="true" aria-label={MSG_ALERTS.deliveries} />
      ) : !deliveries.data ? (
        <Alert color="red" variant="light" icon={<IconAlert />}>
          <Group justify="space-between" gap="xs">
            <Text size="sm">{MSG_ALERTS.deliveriesFailed}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void deliveries.refetch()}>
              {MSG_ALERTS.retry}
            </Button>
          </Group>
        </Alert>
      ) : deliveries.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {MSG_ALERTS.noDeliveries}
        </Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {deliveries.data.map((d) => (
            <Box component="li" key={d.id} data-testid="delivery">
              <Group gap={6} wrap="wrap">
                <Badge size="sm" variant="outline" color="gray" tt="none">
                  {d.type}
                </Badge>
                <Badge size="sm" variant="light" color={DELIVERY_BADGE[d.state].color}>
                  {DELIVERY_BADGE[d.state].label}
                </Badge>
                <Text size="xs" c="dimmed">
                  {formatDateTime(d.createdAt)}
                </Text>
              </Group>
              {d.state === 'pending' && d.nextAttemptAt && (
                <Text size="xs" c="dimmed">
                  {MSG_ALERTS.nextAttempt(formatDateTime(d.nextAttemptAt))}
                </Text>
              )}
              <Stack component="ol" gap={0} pl="md" m={0} mt={4}>
                {d.attempts.map((a) => (
                  <li key={a.at}>
                    <AttemptLine attempt={a} />
                  </li>
                ))}
              </Stack>
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}
