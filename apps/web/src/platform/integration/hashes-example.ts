import { PLAYER_PATHS } from '@tlprt/contract';

/** The segment the example publishes: the reader puts one of theirs (its file and its URL). */
const EXAMPLE_FILE = 'seg-1.ts';
const EXAMPLE_URL = `https://cdn.example.com/live/${EXAMPLE_FILE}`;

/** The curl call that publishes one segment's SHA-256 with a token of scope `hashes` (the token itself,
 *  or a placeholder): sha256sum's digest spliced into the JSON between the single quotes. */
export const hashPushCurl = (origin: string, token: string): string =>
  `curl -H "Authorization: Bearer ${token}" -H "Content-Type: application/json" -d '{"hashes":[{"url":"${EXAMPLE_URL}","sha256":"'"$(sha256sum ${EXAMPLE_FILE} | cut -c1-64)"'"}]}' "${origin}${PLAYER_PATHS.hashes}"`;
