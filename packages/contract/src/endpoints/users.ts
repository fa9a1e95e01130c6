/** Filled by the route conversion (issue 13 item 2). */
export const USER_ENDPOINTS = {} as const;
