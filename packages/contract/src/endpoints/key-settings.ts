/** Filled by the route conversion (issue 13 item 2). */
export const KEY_SETTING_ENDPOINTS = {} as const;
