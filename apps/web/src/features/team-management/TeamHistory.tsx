import { ActionIcon, Badge, Button, Group, Stack, Text, Timeline, Tooltip } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_PAGE_SIZE,
  MSG_TEAM_MANAGEMENT,
  type TAuditAction,
  type TAuditEntry,
  type TTeamListItem,
} from '@tlprt/contract';
import { formatDateTime } from '../../platform/dates';
import { openAppModal } from '../../platform/ui/AppModals';
import { IconClock } from '../../platform/ui/icons';
import { ListState } from '../../platform/ui/ListState';
import { teamManagementApi } from './api';
import { teamManagementKeys } from './queries';
import { teamName } from './teamView';

/** A stored value as words: settings as "id: value", empty as "—". */
function valueText(v: string | null): string {
  if (v === null) return '—';
  try {
    const parsed: unknown = JSON.parse(v);
    if (parsed && typeof parsed === 'object') {
      return Object.entries(parsed as Record<string, { value?: unknown; override?: unknown } | null>)
        .map(([id, s]) => `${id}: ${s && s.override === 1 ? String(s.value) : 'inherited'}`)
        .join(', ');
    }
  } catch {
    // plain text (a tag, a status)
  }
  return v;
}

function Entry({ e }: { e: TAuditEntry }) {
  const label = AUDIT_ACTION_LABELS[e.action as TAuditAction] ?? e.action;
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {label}
        {e.targetType !== 'team' && (
          <Text span size="sm" fw={400}>
            {' '}
            · {e.targetType} {e.target}
          </Text>
        )}
      </Text>
      {(e.oldValue !== null || e.newValue !== null) && (
        <Text size="sm">
          {valueText(e.oldValue)} → {valueText(e.newValue)}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {e.actorEmail} · {formatDateTime(e.createdAt)}
      </Text>
    </Stack>
  );
}

/** The team's supervisor history (docs/DESIGN.md §12): a button on each card and row, and its modal. */
export function TeamHistoryButton({ team }: { team: TTeamListItem }) {
  const name = teamName(team);
  return (
    <Tooltip label={MSG_TEAM_MANAGEMENT.history} withArrow>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`History of ${name}`}
        onClick={() =>
          openAppModal({
            title: `${MSG_TEAM_MANAGEMENT.history}: ${name}`,
            size: 'lg',
            render: () => <HistoryList teamId={team.id} />,
          })
        }
      >
        <IconClock size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

function HistoryList({ teamId }: { teamId: number }) {
  const history = useInfiniteQuery({
    queryKey: [...teamManagementKeys.all, 'history', teamId],
    queryFn: ({ pageParam, signal }) => teamManagementApi.audit(teamId, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.pagination.page * AUDIT_PAGE_SIZE < last.pagination.total ? last.pagination.page + 1 : undefined,
    staleTime: 0,
  });
  // A failed read, a next page's too, shows the failure in place of the list.
  const entries = history.isError ? undefined : history.data?.pages.flatMap((p) => p.data);
  return (
    <ListState
      query={{ isPending: history.isPending, data: entries }}
      loading={{ label: 'Loading history', height: 48, gap: 'sm' }}
      empty={<Text c="dimmed">{MSG_TEAM_MANAGEMENT.historyEmpty}</Text>}
    >
      {(list) => {
        const total = history.data?.pages[0]?.pagination.total ?? list.length;
        return (
          <Stack gap="md">
            <Badge variant="light" color="gray" radius="sm" tt="none" w="fit-content">
              {total} {total === 1 ? 'entry' : 'entries'}
            </Badge>
            <Timeline bulletSize={14} lineWidth={2} aria-label="Team history">
              {list.map((e) => (
                <Timeline.Item key={e.id}>
                  <Entry e={e} />
                </Timeline.Item>
              ))}
            </Timeline>
            {history.hasNextPage && (
              <Group justify="center">
                <Button
                  variant="light"
                  loading={history.isFetchingNextPage}
                  onClick={() => void history.fetchNextPage()}
                >
                  Show older
                </Button>
              </Group>
            )}
          </Stack>
        );
      }}
    </ListState>
  );
}
