import {
  API,
  type TTeamSearchRequest,
  ZAuditResponse,
  ZFavouriteResponse,
  ZTagsResponse,
  ZTeamSearchResponse,
} from '@tlprt/contract';
import { apiUrl, call } from '../../api/client';
import { ApiError } from '../../api/errors';
import { reportApiError } from '../../api/popups';
import { getToken } from '../session/storage';

/** Calls of the Team Management panel (spec §7 Teams: search, favourite, tags; the CSV exports). */
export const teamManagementApi = {
  /** A team's supervisor history (DESIGN §12), newest first. */
  audit: (teamId: number, page: number, signal?: AbortSignal) =>
    call({ path: API.audit(teamId, page), schema: ZAuditResponse, auth: 'bearer', signal }),
  search: (body: TTeamSearchRequest, signal?: AbortSignal) =>
    call({
      method: 'POST',
      path: API.teams.search,
      body,
      schema: ZTeamSearchResponse,
      auth: 'bearer',
      signal,
    }),
  favourite: (id: number) =>
    call({ method: 'PUT', path: API.teams.favourite(id), schema: ZFavouriteResponse, auth: 'bearer' }),
  /** Tag errors (duplicate, too long) are shown under the tag input, not as a popup. */
  tagAdd: (id: number, tag: string) =>
    call({
      method: 'PUT',
      path: API.teams.tagAdd(id),
      body: { tag },
      schema: ZTagsResponse,
      auth: 'bearer',
      popups: false,
    }),
  tagRemove: (id: number, tag: string) =>
    call({
      method: 'PUT',
      path: API.teams.tagRemove(id),
      body: { tag },
      schema: ZTagsResponse,
      auth: 'bearer',
    }),
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
  const res = await fetch(apiUrl(API.export[kind]), {
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
