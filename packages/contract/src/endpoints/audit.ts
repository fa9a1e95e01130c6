/** Filled by the route conversion (issue 13 item 2). */
export const AUDIT_ENDPOINTS = {} as const;
