/** Filled by the route conversion (issue 13 item 2). */
export const ACCOUNT_ENDPOINTS = {} as const;
