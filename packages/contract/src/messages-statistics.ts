/** Texts of the statistics screen (spec §2, §4, §8). */
export const MSG_STATS = {
  loadError: 'Sorry, something went wrong... Please try again later',
  noKey: 'Please choose at least one key in the list to see that stats',
  activeTraffic: 'Active traffic',
  activeTrafficNote:
    'To see stats for inactive domains or selected keys create new list by clicking "+" on the tab bar',
  deleteSheet: 'Are you sure you want to delete the sheet?',
  noName: 'No name',
  /** A new list's default name (spec §2). */
  newList: 'New list',
  noKeyInDomain: 'No key',
  ranges: ['Live', 'Day', 'Week', 'Month'] as const,
  /** Peer bytes refused by the plugin's verification (rejectedDwSize): shown only when there are some. */
  refusedBytes: 'Refused peer bytes',
  refusedNote:
    'Bytes peers sent that failed verification against your origin and were thrown away; the player got those segments again, from the CDN or another peer. Many of them may mean someone is attacking your swarm.',
  /** The chart's series of refused bytes (legend and tooltip). */
  refusedSeries: 'Refused',
  refusedGuide:
    'Bytes peers sent over the visible range that failed verification against your origin (the SHA-256 of the segment) and were thrown away (the player got those segments again, from the CDN or another peer); they are not in P2P. Shown in red, with its own Refused line on the Bandwidth panel, only when some were refused: many of them may mean someone is attacking your swarm.',
  /** What the origin really saved (issue 36): the P2P share less the verification bytes (verifyDwSize). */
  originSaving: 'Origin saving',
  originSavingSample: 'Origin saving (sample)',
  originSavingNote: (verification: string) =>
    `Your origin also served ${verification} to this service to verify the segments peers shared, so it saved less than the P2P share.`,
  originSavingHow:
    'To bring it up to the P2P share, publish your segments’ hashes with an API token of scope “hashes”, or have your origin send Repr-Digest headers: no segment is then fetched to verify it.',
  originSavingLink: 'What verification costs',
  originSavingGuide:
    'What your origin really saved over the visible range: the P2P share less the bytes this service fetched from your origin to verify peers’ segments (Verification), that is 1 − (CDN + Verification) ÷ (CDN + P2P). It equals the P2P share when no segment body had to be fetched (hashes pushed, or digests sent by your origin), and falls below 0 when verification cost more than peers saved. A dash when nothing was served.',
  /** Of the P2P bytes, the share from peers of the viewers' own networks (issue 40): 1 − p2pCrossDwSize ÷
   *  p2pDwSize over the visible range; shown when there were P2P bytes. */
  ownNetwork: 'P2P within viewers’ own networks',
  ownNetworkHelp:
    'Of the P2P bytes, the share viewers received from peers in their own network (their internet provider), so it never crossed between providers. The tracker introduces viewers of one network to each other first (key setting “Peer matching”).',
  ownNetworkGuide:
    'Of the P2P bytes over the visible range, the share viewers received from peers in their own network (autonomous system, or a range of NETWORKS_FILE): 1 − P2P from other networks ÷ P2P. The rest crossed between internet providers, the traffic that makes them throttle P2P. Shown only when peers served some bytes.',
  /** Custom dates and the comparison with the previous period (issue 39). */
  customDates: 'Custom dates',
  customDatesTooLong: (days: number) => `At most ${days} days at once`,
  compare: 'Compare with previous period',
  compareLive: 'Live has no previous period: choose Day, Week, Month or dates',
  previousPeriod: 'Previous period',
  /** The breakdown table's figures (issue 39): a header saying what each counts, and how. */
  breakdownColumns: {
    cdn: {
      label: 'CDN bytes',
      description: 'Bytes the viewers of this row received from your CDN over the rows’ window.',
    },
    p2p: {
      label: 'P2P bytes',
      description: 'Bytes the viewers of this row received from other viewers, each segment verified first.',
    },
    share: {
      label: 'P2P share of bytes',
      description:
        'P2P bytes as a share of all bytes served to this row: P2P ÷ (CDN + P2P), NODR included for teams that have it.',
    },
    viewers: {
      label: 'Peak viewers',
      description:
        'The most viewers (sessions) of this row in any one hour of the window: a peak, not a total of different people.',
    },
    startup: {
      label: 'Median startup',
      description:
        'Half the plays of this row started faster than this: from play requested to the first frame.',
    },
    rebuffering: {
      label: 'Rebuffering',
      description: 'Stalled time as a share of playing and stalled time, seeks excluded.',
    },
    /** Only in the breakdown by network, in place of the CDN bytes (the columns fit a 1280 px screen). */
    ownNetwork: {
      label: 'Own network',
      description:
        'Of the P2P bytes of this row, the share its viewers received from peers in their own network rather than another provider’s: 1 − P2P from other networks ÷ P2P.',
    },
  },
  /** The breakdown's first column per tab: what a row is. */
  breakdownNames: {
    stream: { label: 'Stream', description: 'The playlist’s host and path, without its query.' },
    country: {
      label: 'Country',
      description:
        'The country of the viewer’s address; Unknown when the address is private or not in the IP database.',
    },
    network: { label: 'Network', description: 'The network (AS number and name) of the viewer’s address.' },
    browser: { label: 'Browser', description: 'The viewer’s browser, told from its user agent.' },
    os: { label: 'System', description: 'The viewer’s operating system, told from its user agent.' },
  },
  /** The drill-down: a breakdown row clicked filters the chart and the viewer experience. */
  breakdownRowHint: 'Select a row to filter the chart and the viewer experience by it.',
  filterChip: (noun: string, name: string) => `${noun}: ${name}`,
  filterRemove: (noun: string, name: string) => `Remove the filter ${noun}: ${name}`,
  filterPerHour: 'Filtered view, drawn per hour from the breakdown. Escape or × shows all traffic again.',
  filterPerDay: 'Filtered view, drawn per UTC day from the breakdown. Escape or × shows all traffic again.',
} as const;
