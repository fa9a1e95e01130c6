/** Filled by the route conversion (issue 13 item 2). */
export const INVITATION_ENDPOINTS = {} as const;
