/** Filled by the route conversion (issue 13 item 2). */
export const TEAM_LIFECYCLE_ENDPOINTS = {} as const;
