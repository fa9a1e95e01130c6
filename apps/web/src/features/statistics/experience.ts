import { SERIES, STARTUP_BUCKETS_MS, type TSeriesName, type TStatsResponse } from '@tlprt/contract';
import { formatCount, formatPercent } from '../../platform/units';

/** The whole window's totals of the statistics answer (absent only from the sample data). */
export type TStatsTotals = NonNullable<TStatsResponse['totals']>;

/** The panel's texts: the web's own, beside the contract's glossary (SERIES label and description). */
export const EXPERIENCE_TEXT = {
  title: 'Viewer experience',
  scope: 'The whole range for the keys of this list, whatever the zoom.',
  /** A drill-down shown: the breakdown row over the breakdown's whole hours (or days), as the chart. */
  scopeFiltered: (filter: string) =>
    `${filter} only, over the breakdown’s window for the keys of this list, whatever the zoom.`,
  empty: 'No plays reported in this range',
  emptyHint: 'Players report startup, rebuffering and failures once they play with the plugin.',
  sample: 'Not shown for sample data',
  sampleHint: 'Viewer experience appears once your statistics load.',
  missing: 'Not reported by the server',
  missingHint: 'The answer for this range carries no totals.',
  loading: 'Loading viewer experience',
} as const;

/** `null` stands for "cannot be computed" and is shown as a dash. */
export const NONE = '—';

export type ExperienceFigureId = 'startupP50' | 'startupP95' | 'rebuffering' | 'failures' | 'plays' | 'p2p';

export interface ExperienceFigure {
  id: ExperienceFigureId;
  label: string;
  value: string;
  /** A second line under the value (the P2P ceiling). */
  detail?: string;
  /** The whole figure in words, for its accessible description. */
  spoken?: string;
  /** How it is computed, in the web's words; the glossary of `series` follows it as help. */
  formula?: string;
  series: readonly TSeriesName[];
}

/** stallMs / (playMs + stallMs), 0..1; null without play time. */
export function rebufferingShare(t: Pick<TStatsTotals, 'playMs' | 'stallMs'>): number | null {
  if (!(t.playMs > 0)) return null;
  return t.stallMs / (t.playMs + t.stallMs);
}

/** 100 × failures / plays; null without plays. */
export function failuresPer100(t: Pick<TStatsTotals, 'failures' | 'plays'>): number | null {
  if (!(t.plays > 0)) return null;
  return (100 * t.failures) / t.plays;
}

/** The bytes the P2P share is of: CDN + P2P (+ NODR for version-1 teams), as the chart's share. */
const servedBytes = (t: Pick<TStatsTotals, 'cdnDwSize' | 'p2pDwSize' | 'nodrDwSize'>) =>
  t.cdnDwSize + t.p2pDwSize + (t.nodrDwSize ?? 0);

/** The P2P share of the bytes served and the share peers could have served (0..1 each); null when
 *  nothing was served. The ceiling is null when it was not recorded: a window with peer bytes but no
 *  ceiling at all predates the ceiling series, and "of a possible 0%" would be false. */
export function p2pShares(
  t: Pick<TStatsTotals, 'cdnDwSize' | 'p2pDwSize' | 'nodrDwSize' | 'p2pCeilingSize'>,
): {
  share: number;
  ceiling: number | null;
} | null {
  const served = servedBytes(t);
  if (!(served > 0)) return null;
  const unrecorded = t.p2pCeilingSize <= 0 && t.p2pDwSize > 0;
  return { share: t.p2pDwSize / served, ceiling: unrecorded ? null : t.p2pCeilingSize / served };
}

const OPEN_BUCKET_MS = Math.max(...STARTUP_BUCKETS_MS);

/**
 * A startup quantile: "850 ms" below a second, else seconds with one decimal ("1.2 s"). The contract's
 * quantile is 0 only for an empty histogram (a filled first bucket answers at least half its bound), so
 * 0 means no startup measured. The open last bucket answers its lower bound: the time is at least that.
 */
export function formatStartup(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return NONE;
  if (ms >= OPEN_BUCKET_MS) return `≥ ${(OPEN_BUCKET_MS / 1000).toFixed(1)} s`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Failures per 100 plays with one decimal ("1.5"); trailing ".0" kept so figures line up. */
export function formatPer100(v: number | null): string {
  return v === null ? NONE : v.toFixed(1);
}

/** Rebuffering as a percentage; a stall under 0.1% still shows as above zero. */
export function formatRebuffering(share: number | null): string {
  if (share === null) return NONE;
  if (share > 0 && share < 0.001) return '< 0.1%';
  return formatPercent(share);
}

/** Whether the window has anything for the panel: play time, or plays (all of which may have failed). */
export function hasPlays(t: Pick<TStatsTotals, 'playMs' | 'stallMs' | 'plays'>): boolean {
  return t.playMs > 0 || t.stallMs > 0 || t.plays > 0;
}

/** The panel's figures, in order, from the window's totals. */
export function experienceFigures(t: TStatsTotals): ExperienceFigure[] {
  const p2p = p2pShares(t);
  const share = p2p === null ? NONE : formatPercent(p2p.share);
  const ceiling = p2p?.ceiling == null ? NONE : formatPercent(p2p.ceiling);
  return [
    {
      id: 'startupP50',
      label: 'Startup p50',
      value: formatStartup(t.startupP50Ms),
      formula: 'Half the plays started faster than this.',
      series: ['startup'],
    },
    {
      id: 'startupP95',
      label: 'Startup p95',
      value: formatStartup(t.startupP95Ms),
      formula: '95 of 100 plays started faster than this.',
      series: ['startup'],
    },
    {
      id: 'rebuffering',
      label: 'Rebuffering',
      value: formatRebuffering(rebufferingShare(t)),
      formula: 'Stalled time as a share of playing and stalled time.',
      series: ['stallMs', 'playMs'],
    },
    {
      id: 'failures',
      label: 'Failures per 100 plays',
      value: formatPer100(failuresPer100(t)),
      formula: 'Failures × 100 / plays.',
      series: ['failures', 'plays'],
    },
    {
      id: 'plays',
      label: 'Plays',
      value: formatCount(t.plays),
      series: ['plays'],
    },
    {
      id: 'p2p',
      // Not "P2P share": the chart's figure above has that name and follows the zoom.
      label: 'P2P share and ceiling',
      value: share,
      detail: `of a possible ${ceiling}`,
      spoken: `P2P ${share} of a possible ${ceiling}`,
      formula: `P2P bytes and the P2P ceiling as shares of all bytes served${t.nodrDwSize === undefined ? '' : ' (NODR included)'}.`,
      series: ['p2pBytes', 'ceilingBytes'],
    },
  ];
}

/** The glossary lines of a figure's series, from the contract. */
export function glossary(series: readonly TSeriesName[]): Array<{ label: string; description: string }> {
  return series.map((name) => ({ label: SERIES[name].label, description: SERIES[name].description }));
}
