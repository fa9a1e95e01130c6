import {
  CREATION_DATE_PRESET_LABELS,
  creationDatePresetRange,
  type TCreationDatePreset,
  TEAM_SEARCH,
  type TTeamSearchRequest,
  teamStatusFilter,
} from '@tlprt/contract';

export type ViewMode = 'cards' | 'table';

/** The creation-date filter as applied: a preset or a custom range, with its epoch-second bounds
 *  fixed when applied (so every page of the list asks for the same range). */
export type DateFilter =
  | { kind: 'preset'; preset: TCreationDatePreset; start_time: number; end_time: number }
  | { kind: 'custom'; from: string; to: string; start_time: number; end_time: number };

export interface Filters {
  general: string;
  favourites: boolean;
  active: boolean;
  suspended: boolean;
  date: DateFilter | null;
}

export const EMPTY_FILTERS: Filters = {
  general: '',
  favourites: false,
  active: false,
  suspended: false,
  date: null,
};

export const hasFilters = (f: Filters) =>
  f.general.trim() !== '' || f.favourites || f.active || f.suspended || f.date !== null;

export const pageSize = (view: ViewMode) =>
  view === 'cards' ? TEAM_SEARCH.pageSizeCards : TEAM_SEARCH.pageSizeTable;

export function presetFilter(preset: TCreationDatePreset, nowMs: number): DateFilter {
  return { kind: 'preset', preset, ...creationDatePresetRange(preset, nowMs) };
}

/** The label of the date filter button. */
export function dateLabel(date: DateFilter | null): string {
  if (!date) return 'Creation date';
  if (date.kind === 'preset') return CREATION_DATE_PRESET_LABELS[date.preset];
  const fmt = (s: string) => s.split('-').reverse().join('.');
  return date.from === date.to ? fmt(date.from) : `${fmt(date.from)} – ${fmt(date.to)}`;
}

/** POST /v1/teams body of one page (spec §3 search params). */
export function searchRequest(f: Filters, page: number, limit: number): TTeamSearchRequest {
  const general = f.general.trim();
  return {
    page,
    limit,
    scroll: page > 1 ? 1 : 0,
    ...(general ? { general } : {}),
    favourite: f.favourites ? 2 : 0,
    ...teamStatusFilter({ active: f.active, suspended: f.suspended }),
    ...(f.date ? { start_time: f.date.start_time, end_time: f.date.end_time } : {}),
  };
}
