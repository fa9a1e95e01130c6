/** Filled by the route conversion (issue 13 item 2). */
export const DICTIONARY_ENDPOINTS = {} as const;
