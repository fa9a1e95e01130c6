import type { TTeamSummary } from '@tlprt/contract';

/** Spec §4: on load a team becomes the current team — the stored one if still mine, else the first. */
export function pickCurrentTeam(
  teams: readonly TTeamSummary[],
  storedId: number | null,
): TTeamSummary | null {
  return teams.find((t) => t.id === storedId) ?? teams[0] ?? null;
}

/** Sidebar label: the name, "Team ID {id}" when unnamed (spec §2). */
export function teamLabel(team: TTeamSummary, idLabel: (id: number) => string): string {
  return team.name.trim() ? team.name : idLabel(team.id);
}

/** Favourites first group, the rest second (team switcher). */
export function splitFavourites(teams: readonly TTeamSummary[]) {
  return { favourites: teams.filter((t) => t.favourite), others: teams.filter((t) => !t.favourite) };
}
