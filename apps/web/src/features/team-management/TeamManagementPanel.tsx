import {
  ActionIcon,
  Alert,
  Anchor,
  Box,
  Center,
  Drawer,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { MSG_TEAM_MANAGEMENT, TEAM_SEARCH } from '@tlprt/contract';
import { useMemo, useRef, useState } from 'react';
import { IconStar, IconX } from '../../platform/ui/icons';
import { CreationDateFilter } from './CreationDateFilter';
import { CsvMenu } from './CsvMenu';
import { EMPTY_FILTERS, type Filters, hasFilters, pageSize, type ViewMode } from './filters';
import { useTeamSearch } from './queries';
import { StatusFilter } from './StatusFilter';
import { TeamCard } from './TeamCard';
import { TeamTable } from './TeamTable';
import { useScrollToEnd } from './useScrollToEnd';

/**
 * The supervisors' Team Management panel (spec §2): every team, searched and filtered, as cards or a
 * table, loaded page by page while scrolling; a click makes a team current.
 */
export function TeamManagementPanel({
  opened,
  onClose,
  now,
}: {
  opened: boolean;
  onClose: () => void;
  now?: () => number;
}) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const [view, setView] = useState<ViewMode>('cards');
  const [text, setText] = useState('');
  const [general] = useDebouncedValue(text, TEAM_SEARCH.debounceMs);
  const [rest, setRest] = useState<Omit<Filters, 'general'>>(EMPTY_FILTERS);
  // Escape in an open filter pop-up closes the pop-up, not the whole panel.
  const [openPopups, setOpenPopups] = useState({ status: false, date: false });
  const filters = useMemo<Filters>(() => ({ ...rest, general: general.trim() }), [rest, general]);
  const limit = pageSize(view);
  const search = useTeamSearch(filters, limit, opened);
  const teams = useMemo(() => search.data?.pages.flatMap((p) => p.data) ?? [], [search.data]);
  const total = search.data?.pages.at(-1)?.pagination.total;
  const listRef = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = search;
  const onScroll = useScrollToEnd(
    listRef,
    () => void fetchNextPage(),
    hasNextPage && !isFetchingNextPage && !search.isFetching,
    teams.length,
  );
  const filtered = hasFilters({ ...filters, general: text });

  const clearFilters = () => {
    setText('');
    setRest(EMPTY_FILTERS);
  };

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      closeOnEscape={!openPopups.status && !openPopups.date}
      position="right"
      size={narrow ? '100%' : 'min(980px, 92vw)'}
      title={
        <Text fw={700} size="lg">
          {MSG_TEAM_MANAGEMENT.title}
        </Text>
      }
      closeButtonProps={{ 'aria-label': 'Close team management' }}
      styles={{
        content: { display: 'flex', flexDirection: 'column' },
        body: { flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', paddingBottom: 0 },
      }}
    >
      <Stack gap="sm" style={{ flex: 1, minHeight: 0 }}>
        <Group gap="xs" wrap="wrap" align="center">
          <TextInput
            style={{ flex: '1 1 260px' }}
            placeholder={MSG_TEAM_MANAGEMENT.searchPlaceholder}
            aria-label={MSG_TEAM_MANAGEMENT.searchPlaceholder}
            type="search"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            rightSection={
              text ? (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label="Clear search"
                  onClick={() => setText('')}
                >
                  <IconX size={14} />
                </ActionIcon>
              ) : null
            }
          />
          <Tooltip label={rest.favourites ? 'Showing favourites only' : 'Show favourites only'} withinPortal>
            <ActionIcon
              size="lg"
              variant={rest.favourites ? 'light' : 'default'}
              color={rest.favourites ? 'yellow' : 'gray'}
              aria-label="Favourites only"
              aria-pressed={rest.favourites}
              onClick={() => setRest((r) => ({ ...r, favourites: !r.favourites }))}
            >
              <IconStar size={18} fill={rest.favourites ? 'currentColor' : 'none'} />
            </ActionIcon>
          </Tooltip>
          <StatusFilter
            active={rest.active}
            suspended={rest.suspended}
            onChange={(s) => setRest((r) => ({ ...r, ...s }))}
            onOpenChange={(status) => setOpenPopups((o) => ({ ...o, status }))}
          />
          <CreationDateFilter
            value={rest.date}
            onChange={(date) => setRest((r) => ({ ...r, date }))}
            onOpenChange={(date) => setOpenPopups((o) => ({ ...o, date }))}
            now={now}
          />
          <SegmentedControl
            size="sm"
            value={view}
            onChange={(v) => setView(v as ViewMode)}
            data={[
              { value: 'cards', label: 'Cards' },
              { value: 'table', label: 'Table' },
            ]}
            aria-label="View"
          />
        </Group>
        <Group justify="space-between" gap="xs" mih={22}>
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="team-total">
            {total === undefined ? ' ' : `${total} ${total === 1 ? 'team' : 'teams'}`}
          </Text>
          {filtered && (
            <Anchor component="button" type="button" size="sm" onClick={clearFilters}>
              {MSG_TEAM_MANAGEMENT.clearFilters}
            </Anchor>
          )}
        </Group>
        <Box
          ref={listRef}
          onScroll={onScroll}
          data-testid="team-list"
          style={{ flex: 1, minHeight: 0, overflowY: 'auto', overscrollBehavior: 'contain' }}
        >
          {search.isPending ? (
            <Center py="xl">
              <Loader aria-label="Loading teams" />
            </Center>
          ) : search.isError && teams.length === 0 ? (
            <Alert color="red" variant="light" title="The teams could not be loaded" />
          ) : teams.length === 0 ? (
            <Center py="xl">
              <Text c="dimmed">{MSG_TEAM_MANAGEMENT.noTeamsFound}</Text>
            </Center>
          ) : view === 'cards' ? (
            <Stack gap="sm" pb="sm">
              {teams.map((t) => (
                <TeamCard key={t.id} team={t} />
              ))}
            </Stack>
          ) : (
            <TeamTable teams={teams} />
          )}
          {isFetchingNextPage && (
            <Center py="sm">
              <Loader size="sm" aria-label="Loading more teams" />
            </Center>
          )}
        </Box>
        <Box py="sm" style={{ borderTop: '1px solid var(--app-border)' }}>
          <CsvMenu />
        </Box>
      </Stack>
    </Drawer>
  );
}
