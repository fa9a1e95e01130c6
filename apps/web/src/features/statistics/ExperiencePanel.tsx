import {
  ActionIcon,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { IconInfo } from '../../platform/ui/icons';
import {
  EXPERIENCE_TEXT,
  type ExperienceFigure,
  experienceFigures,
  glossary,
  hasPlays,
  type TStatsTotals,
} from './experience';

/** What the panel has to show: the screen decides, the panel only draws. */
export type ExperienceState =
  | { kind: 'loading' }
  /** The chart shows sample data: the panel must not present figures as the team's. */
  | { kind: 'sample' }
  /** A real answer without totals (a server older than the panel). */
  | { kind: 'missing' }
  | { kind: 'ready'; totals: TStatsTotals };

// The 2-column grid starts at Mantine's xs (36em): at 390 px the figures stack.
const COLS = { base: 1, xs: 2, sm: 3 } as const;

const tile = { background: 'var(--app-subtle)', border: '1px solid var(--app-border)' } as const;

function Help({ figure, id }: { figure: ExperienceFigure; id: string }) {
  const lines = glossary(figure.series);
  return (
    <>
      {/* The help is read with the figure (aria-describedby) and shown on hover, focus or touch. */}
      <span id={id} hidden>
        {[figure.formula, ...lines.map((l) => `${l.label}: ${l.description}`)].filter(Boolean).join(' ')}
      </span>
      <Tooltip
        multiline
        w={280}
        withArrow
        events={{ hover: true, focus: true, touch: true }}
        label={
          <Stack gap={4}>
            {figure.formula && <Text size="xs">{figure.formula}</Text>}
            {lines.map((l) => (
              <Text size="xs" key={l.label}>
                <b>{l.label}</b>: {l.description}
              </Text>
            ))}
          </Stack>
        }
      >
        <ActionIcon variant="subtle" color="gray" size="xs" radius="xl" aria-label={`About ${figure.label}`}>
          <IconInfo size={14} />
        </ActionIcon>
      </Tooltip>
    </>
  );
}

function Figure({ figure }: { figure: ExperienceFigure }) {
  const base = useId();
  const labelId = `${base}-label`;
  const helpId = `${base}-help`;
  const spokenId = `${base}-spoken`;
  return (
    <Paper
      p="sm"
      radius="md"
      style={tile}
      role="group"
      aria-labelledby={labelId}
      aria-describedby={figure.spoken ? `${spokenId} ${helpId}` : helpId}
      data-testid={`experience-${figure.id}`}
    >
      <Group gap={4} wrap="nowrap">
        <Text id={labelId} size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.5 }}>
          {figure.label}
        </Text>
        <Help figure={figure} id={helpId} />
      </Group>
      <Text fz={{ base: 20, sm: 22 }} fw={700} lh={1.2} data-testid="experience-value">
        {figure.value}
      </Text>
      {figure.detail && (
        <Text size="xs" c="dimmed" data-testid="experience-detail">
          {figure.detail}
        </Text>
      )}
      {figure.spoken && (
        <span id={spokenId} hidden>
          {figure.spoken}
        </span>
      )}
    </Paper>
  );
}

function Empty({ title, hint }: { title: string; hint: string }) {
  return (
    <Stack gap={4} py="md" align="center" ta="center" role="status">
      <Text fw={600}>{title}</Text>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
    </Stack>
  );
}

/** Startup, rebuffering, failures, plays and the P2P share against its ceiling, for the whole window. */
export function ExperiencePanel({
  state,
  filterLabel,
}: {
  state: ExperienceState;
  /** The drill-down's chip text ("Stream: cdn.example.com/live.m3u8") while the figures are its row's. */
  filterLabel?: string | undefined;
}) {
  const titleId = useId();
  let body: ReactNode;
  if (state.kind === 'loading') {
    body = (
      <SimpleGrid
        cols={COLS}
        spacing="sm"
        role="status"
        aria-busy="true"
        aria-label={EXPERIENCE_TEXT.loading}
      >
        {Array.from({ length: 6 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders, never reordered
          <Skeleton key={i} height={72} radius="md" />
        ))}
      </SimpleGrid>
    );
  } else if (state.kind === 'sample') {
    body = <Empty title={EXPERIENCE_TEXT.sample} hint={EXPERIENCE_TEXT.sampleHint} />;
  } else if (state.kind === 'missing') {
    body = <Empty title={EXPERIENCE_TEXT.missing} hint={EXPERIENCE_TEXT.missingHint} />;
  } else if (!hasPlays(state.totals)) {
    body = <Empty title={EXPERIENCE_TEXT.empty} hint={EXPERIENCE_TEXT.emptyHint} />;
  } else {
    body = (
      <SimpleGrid cols={COLS} spacing="sm">
        {experienceFigures(state.totals).map((f) => (
          <Figure key={f.id} figure={f} />
        ))}
      </SimpleGrid>
    );
  }
  return (
    <Card
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'lg' }}
      mt="md"
      aria-labelledby={titleId}
      data-testid="experience-panel"
    >
      <Title order={2} id={titleId} fz="md" mb={2}>
        {EXPERIENCE_TEXT.title}
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        {filterLabel ? EXPERIENCE_TEXT.scopeFiltered(filterLabel) : EXPERIENCE_TEXT.scope}
      </Text>
      {body}
    </Card>
  );
}
