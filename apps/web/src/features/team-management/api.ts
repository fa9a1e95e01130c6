import { ENDPOINTS, PATHS, type TTeamSearchRequest } from '@tlprt/contract';
import { apiUrl, request } from '../../platform/api/client';
import { ApiError } from '../../platform/api/errors';
import { reportApiError } from '../../platform/api/popups';
import { getToken } from '../../platform/session/storage';

const E = ENDPOINTS.teams;

/** Calls of the Team Management panel (spec §7 Teams: search, favourite, tags; the CSV exports). */
export const teamManagementApi = {
  /** A team's supervisor history (docs/DESIGN.md §12), newest first. */
  audit: (teamId: number, page: number, signal?: AbortSignal) =>
    request(ENDPOINTS.audit.read, { query: { team_id: teamId, page }, signal }),
  search: (body: TTeamSearchRequest, signal?: AbortSignal) => request(E.search, { body, signal }),
  favourite: (id: number) => request(E.toggleFavourite, { params: { id } }),
  /** Tag errors (duplicate, too long) are shown under the tag input, not as a popup. */
  tagAdd: (id: number, tag: string) => request(E.addTag, { params: { id }, body: { tag }, popups: false }),
  tagRemove: (id: number, tag: string) => request(E.removeTag, { params: { id }, body: { tag } }),
};

export type ExportKind = 'users' | 'teams';

/** The file name the server gave (Content-Disposition), else a dated default. */
function fileNameOf(res: Response, kind: ExportKind): string {
  const m = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return m?.[1] ?? `${kind}-${new Date().toISOString().slice(0, 10)}.csv`;
}

/**
 * Downloads a CSV export with the bearer token (a plain link could not send it): fetch → blob →
 * object URL → a click on a temporary anchor.
 */
export async function downloadCsv(kind: ExportKind): Promise<void> {
  const token = getToken();
  const res = await fetch(apiUrl(PATHS.export[kind]), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) {
    let body: { message: string } = { message: res.statusText };
    try {
      body = (await res.json()) as { message: string };
    } catch {
      /* not JSON */
    }
    const error = new ApiError(res.status, body);
    reportApiError(error, true);
    throw error;
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameOf(res, kind);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
