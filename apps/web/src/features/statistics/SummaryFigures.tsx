import { Anchor, Box, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { MSG_STATS, PLAYER_PATHS, TIMINGS } from '@tlprt/contract';
import { useId } from 'react';
import { Link } from 'react-router';
import { formatTime, utcLabel } from '../../platform/dates';
import { IconAlert } from '../../platform/ui/icons';
import { formatBytes, formatCount, formatPercent, formatSignedPercent } from '../../platform/units';
import type { Delta, SummaryDeltas } from './comparison';
import type { StatsSummary as Summary } from './data';
import type { CustomPeriod as Period } from './period';
import { periodLabel } from './period';
import { BREAKDOWN_LIVE_POLL_MS } from './queries';

/** The figures over the chart, their explanations, and the line saying what the chart shows. */
function Figure({
  label,
  value,
  big,
  plain,
  aria,
  warning,
  describedBy,
  delta,
  judged,
  help,
  labelWidth,
}: {
  label: string;
  value: string;
  big?: boolean;
  /** A big figure in the text's colour, not the share's teal (the origin's saving beside it). */
  plain?: boolean;
  aria?: string;
  /** A figure that asks for attention (refused peer bytes): red.9, 5.5:1 on white. */
  warning?: boolean;
  describedBy?: string;
  /** Against the previous period (compare); null when it cannot be said (nothing served). */
  delta?: Delta | null;
  /** Whether up is better (a share): the delta in green or red, else grey. */
  judged?: boolean;
  /** What the figure counts: a tooltip on its label (dotted), and the value's description. */
  help?: string;
  /** The widest its label may be (px): a long one wraps onto two lines beside the others. */
  labelWidth?: number;
}) {
  const helpId = useId();
  const labelText = (
    <Text
      size="xs"
      c={warning ? 'red' : 'dimmed'}
      fw={600}
      tt="uppercase"
      maw={labelWidth}
      style={{
        letterSpacing: 0.5,
        ...(help ? { textDecoration: 'underline dotted', textUnderlineOffset: 3, cursor: 'help' } : {}),
      }}
      // Focusable when it has an explanation, so the keyboard shows it as the mouse does.
      tabIndex={help ? 0 : undefined}
    >
      {warning && <IconAlert size={12} style={{ verticalAlign: -1, marginRight: 4 }} />}
      {label}
    </Text>
  );
  const described = [describedBy, help ? helpId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <Stack gap={2}>
      {help ? (
        <Tooltip label={help} multiline w={280} withArrow events={{ hover: true, focus: true, touch: true }}>
          {labelText}
        </Tooltip>
      ) : (
        labelText
      )}
      {help && (
        <span id={helpId} hidden>
          {help}
        </span>
      )}
      <Text
        fz={big ? { base: 28, sm: 34 } : { base: 18, sm: 22 }}
        fw={700}
        lh={1.1}
        c={big && !plain ? 'teal.7' : warning ? 'red' : undefined}
        aria-label={aria}
        aria-describedby={described}
        role={aria ? 'status' : undefined}
        data-testid={`figure-${label.toLowerCase().replace(/\W+/g, '-')}`}
      >
        {value}
      </Text>
      {delta !== undefined && (
        <Text
          size="xs"
          fw={600}
          // A share up is better, down worse; more or less traffic is neither: said in the text's grey.
          c={
            !judged || delta === null || delta.direction === 'same'
              ? 'dimmed'
              : delta.direction === 'up'
                ? 'var(--mantine-color-teal-text)'
                : 'var(--mantine-color-red-text)'
          }
          data-testid={`delta-${label.toLowerCase().replace(/\W+/g, '-')}`}
        >
          <span aria-hidden="true">{delta ? `${delta.text} vs previous` : '— vs previous'}</span>
          <VisuallyHidden>
            {`${label}: ${delta ? delta.spoken : 'nothing to compare in the previous period'}`}
          </VisuallyHidden>
        </Text>
      )}
    </Stack>
  );
}

/** The id of the explanation of the refused peer bytes, which their figure refers to. */
const REFUSED_NOTE_ID = 'stats-refused-note';
/** The id of the explanation of the origin's saving, when verification took some of it. */
const SAVING_NOTE_ID = 'stats-saving-note';
/** The guide's section on what each source of a segment's hash costs. */
const VERIFICATION_GUIDE = `${PLAYER_PATHS.guide}#verification`;

/** Why the origin saved less than the P2P share and how to close the gap: shown when verifying
 *  peers' segments fetched bytes from the origin over the visible range. */
function SavingNote({ verifyBytes }: { verifyBytes: number }) {
  return (
    <Text id={SAVING_NOTE_ID} size="xs" c="dimmed" mt={-8} data-testid="saving-note">
      {MSG_STATS.originSavingNote(formatBytes(verifyBytes))} {MSG_STATS.originSavingHow}{' '}
      <Anchor component={Link} to={VERIFICATION_GUIDE} size="xs" inherit>
        {MSG_STATS.originSavingLink}
      </Anchor>
    </Text>
  );
}

/** The summary of the visible range: P2P share, origin saving, traffic, viewers, and when there are
 *  some, the share within viewers' own networks and the refused bytes. */
export function SummaryFigures({
  summary,
  deltas,
  failed,
}: {
  summary: Summary;
  deltas: SummaryDeltas | null;
  failed: boolean;
}) {
  return (
    <>
      <Figure
        label={failed ? 'P2P share (sample)' : 'P2P share'}
        value={summary.p2pShare === null ? '—' : formatPercent(summary.p2pShare)}
        big
        aria="P2P share"
        delta={deltas ? deltas.p2pShare : undefined}
        judged
      />
      <Figure
        label={failed ? MSG_STATS.originSavingSample : MSG_STATS.originSaving}
        value={summary.originSaving === null ? '—' : formatSignedPercent(summary.originSaving)}
        big
        plain
        aria={MSG_STATS.originSaving}
        describedBy={summary.verifyBytes > 0 ? SAVING_NOTE_ID : undefined}
        delta={deltas ? deltas.originSaving : undefined}
        judged
      />
      <Figure label="Total traffic" value={formatBytes(summary.totalBytes)} delta={deltas?.totalBytes} />
      <Figure label="Peak viewers" value={formatCount(summary.peakViewers)} delta={deltas?.peakViewers} />
      {/* Sample data has no networks; a range without P2P bytes has no share of them. */}
      {!failed && summary.ownNetworkShare !== null && (
        <Figure
          label={MSG_STATS.ownNetwork}
          value={formatPercent(summary.ownNetworkShare)}
          aria={MSG_STATS.ownNetwork}
          help={MSG_STATS.ownNetworkHelp}
          delta={deltas ? deltas.ownNetworkShare : undefined}
          judged
          labelWidth={170}
        />
      )}
      {summary.rejectedBytes > 0 && (
        <Figure
          label={MSG_STATS.refusedBytes}
          value={formatBytes(summary.rejectedBytes)}
          warning
          describedBy={REFUSED_NOTE_ID}
        />
      )}
    </>
  );
}

/** The explanations the figures point at (aria-describedby). */
export function SummaryNotes({ summary }: { summary: Summary }) {
  return (
    <>
      {summary.verifyBytes > 0 && <SavingNote verifyBytes={summary.verifyBytes} />}
      {summary.rejectedBytes > 0 && (
        <Text id={REFUSED_NOTE_ID} size="xs" c="red" mt={-8}>
          {MSG_STATS.refusedNote}
        </Text>
      )}
    </>
  );
}

/** What the chart shows: live or the range (or dates) and its step, the time zone, when it was read. */
export function ViewCaption({
  live,
  filtered,
  period,
  step,
  comparing,
  utcOffset,
  updatedAt,
}: {
  live: boolean;
  filtered: boolean;
  period: Period | null;
  /** Seconds between points. */
  step: number;
  comparing: boolean;
  utcOffset: number;
  /** When the server answered (ms, on its clock); null before any answer. */
  updatedAt: number | null;
}) {
  return (
    <Text size="xs" c="dimmed" ml="auto">
      {live ? (
        <>
          <Box
            component="span"
            display="inline-block"
            w={8}
            h={8}
            mr={6}
            bg="red.6"
            style={{ borderRadius: '50%' }}
          />
          Live · refreshes every {(filtered ? BREAKDOWN_LIVE_POLL_MS : TIMINGS.livePollMs) / 1000} s
        </>
      ) : (
        `${period ? periodLabel(period) : 'Visible range'} · ${step / 60}-minute steps${
          comparing ? ' · dashed: previous period' : ''
        }`
      )}
      {' · '}
      {utcLabel(utcOffset)}
      {updatedAt !== null && (
        <>
          {' · '}
          <span data-testid="stats-updated">
            Last updated {formatTime(updatedAt, { utcOffset, label: false }, true)}
          </span>
        </>
      )}
    </Text>
  );
}
