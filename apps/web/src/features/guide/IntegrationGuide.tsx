import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Code,
  Container,
  Grid,
  Group,
  List,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  BREAKDOWN_DIMENSIONS,
  INGEST_ANONYMOUS_MAX_REPORTS,
  INGEST_ERRORS,
  INGEST_MAX_BYTES,
  INGEST_MAX_ERRORS,
  INGEST_MAX_SKEW_S,
  KEY_NOT_USABLE_HELP,
  KEY_SETTING_HELP,
  KEY_SETTING_LOADER,
  KEY_SETTING_RANGES,
  KeySettingId,
  LIMITS,
  MSG_STATS,
  MSG_STATS_EXPORT,
  PAGE_ORIGIN_RULE,
  PLAYER_ATTACH_NAME,
  PLAYER_BYTES_COUNTED,
  PLAYER_HELP,
  PLAYER_INTEGRATION,
  PLAYER_INTEGRATION_HELP,
  PLAYER_INTEGRATION_LABEL,
  PLAYER_PATHS,
  PLAYER_REPORT_INTERVAL_MS,
  PLAYERS,
  POINT_FIELDS,
  PRODUCT_NAME,
  SERIES,
  SERIES_NAMES,
  type SeriesDef,
  type SeriesUnit,
  STATS_EXPORTS_PER_MINUTE,
  STATS_RANGES,
  type TPlayer,
  type TPlayerName,
  WEB_PATHS,
} from '@tlprt/contract';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { API_DOCS_URL, pluginUrl } from '../../platform/config';
import { STATS_EXPORT, statsExportCurl } from '../../platform/integration/export-example';
import { SCOPE_CHOICE } from '../../platform/integration/scopes';
import { playerSnippet } from '../../platform/integration/snippets';
import { getToken } from '../../platform/session/storage';
import { CopyBlock } from '../../platform/ui/CopyBlock';
import { IconAlert, IconBook } from '../../platform/ui/icons';
import { Logo } from '../../platform/ui/Logo';
import { MORE_PLAYERS, recipeSnippet, type TMorePlayer } from './recipes';

/** The in-page table of contents: each id is the id of its section's heading. */
export const GUIDE_SECTIONS = [
  { id: 'how-it-works', title: 'How it works' },
  { id: 'players', title: 'Add the plugin to your player' },
  { id: 'more-players', title: 'More players' },
  { id: 'attach', title: 'TlprtP2P.attach' },
  { id: 'settings', title: 'Key settings' },
  { id: 'ice-servers', title: 'ICE servers' },
  { id: 'verification', title: 'Verification of peers’ segments' },
  { id: 'reports', title: 'Reports from custom players' },
  { id: 'statistics', title: 'The statistics screen' },
  { id: 'glossary', title: 'Statistics glossary' },
  { id: 'export', title: 'Statistics export API' },
  { id: 'api', title: 'API reference' },
] as const;

/** The settings path with a readable placeholder (the real path encodes the key). */
const SETTINGS_PATH = `${PLAYER_PATHS.settings('')}{key}`;

/** "HLS.js" → "player-hls-js": the id of a player's section (of the More players too). */
export const playerSectionId = (p: TPlayer | TMorePlayer) =>
  `player-${p.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

const ORDERED_SETTINGS = [
  KeySettingId.DownloadTimeout,
  KeySettingId.MinBufferSize,
  KeySettingId.PeeringOpeningQuota,
] as const;

/** The glossary's words for the series table's units and merges (a new unit or merge fails to compile
 *  here until it has its words). */
const UNIT_NAME: Record<SeriesUnit, string> = {
  bytes: 'bytes',
  viewers: 'viewers',
  ms: 'ms',
  count: 'count',
};
const percentile = (q: number) => `p${Math.round(q * 100)}`;
/** How a series adds up over the minutes of a point and over keys (SeriesMerge). */
function mergeText(s: SeriesDef): string {
  switch (s.merge) {
    case 'sum':
      return 'Summed, over keys and over time.';
    case 'peak':
      return 'Peak minute of the bucket (a 20-minute or hourly point holds its busiest minute); summed over keys.';
    case 'histogram':
      return `Quantiles of a histogram (${Object.values(s.quantiles).map(percentile).join(', ')}): the counts per bucket are summed, so the quantiles hold over any range and any keys.`;
  }
}
/** One row per series of the contract's SERIES: a new series shows up here by itself. */
const GLOSSARY = SERIES_NAMES.map((name) => {
  const s: SeriesDef = SERIES[name];
  return {
    name,
    label: s.label,
    fields: POINT_FIELDS.filter((f) => f.series === name).map((f) => f.field),
    unit: UNIT_NAME[s.unit],
    description: s.description,
    version1Only: 'version1Only' in s && s.version1Only === true,
    merge: mergeText(s),
  };
});

/** What each player's section adds to its snippet: the parts of its API the snippet relies on. */
const PLAYER_NOTES: Record<TPlayer, ReactNode> = {
  'HLS.js': (
    <>
      Pass the <Code>Hls</Code> class, not an instance: the plugin creates the hls.js player with its P2P
      loaders, loads <Code>src</Code> and attaches it to <Code>video</Code>. The promise resolves to a handle
      whose <Code>hls</Code> is that player, for your own event listeners; your own hls.js settings go in{' '}
      <Code>hlsConfig</Code>.
    </>
  ),
  Shaka: (
    <>
      Create the <Code>shaka.Player</Code> and attach it to the video element, then hand it to the plugin with{' '}
      <Code>src</Code>: the plugin binds its P2P engine to the player and calls <Code>player.load(src)</Code>{' '}
      itself, so do not load the stream before it. When shaka is not the global <Code>shaka</Code>, pass its
      namespace as <Code>shaka</Code>.
    </>
  ),
  Clappr: (
    <>
      Clappr creates its hls.js when it starts, so the snippet waits for <Code>attach</Code> and passes the
      handle's <Code>hlsConfig</Code> as Clappr's <Code>playback.hlsjsConfig</Code>. Then <Code>bindHls</Code>{' '}
      gets a function that returns the hls.js of Clappr's current playback (<Code>_hls</Code>): the plugin
      asks for it when the first segment loads.
    </>
  ),
  Flowplayer: (
    <>
      Flowplayer plays HLS through hls.js with its HLS plugin (loaded in the snippet), which puts loaders of
      its own into the hls.js it makes for each source, so settings handed to it never reach the P2P engine.
      The snippet therefore gives <Code>bindHls</Code> the Flowplayer player itself: on Flowplayer's{' '}
      <Code>hls:attached</Code> event the plugin puts its loaders back into that hls.js and loads the source
      through them before the first segment. Flowplayer plays without a token on <Code>localhost</Code> only;
      on your site, uncomment the <Code>token</Code> line and put your Flowplayer account's player token in
      it.
    </>
  ),
  'Video.js': (
    <>
      Video.js plays HLS with an engine of its own (VHS), which the P2P engine cannot reach. The snippet loads
      hls.js beside it and registers a source handler ahead of VHS: for an HLS source, the plugin plays it
      with hls.js in Video.js's own video element, and Video.js keeps its controls, events and API. Where
      hls.js cannot run (an iPhone without Media Source Extensions), the handler declines and Video.js plays
      as before. Without the handler, <Code>player: 'videojs'</Code> only reports the page's segment requests
      as CDN bytes.
    </>
  ),
  Bitmovin: (
    <>
      The plugin counts the bytes of the page's segment requests with the browser's resource timing. Segments
      served from another origin than the page count only when their server sends a{' '}
      <Code>Timing-Allow-Origin</Code> header that names your site (or <Code>*</Code>); without it the browser
      hides their size and they count as 0. Replace <Code>BITMOVIN_LICENSE_KEY</Code> with your Bitmovin key.
    </>
  ),
  Uppod: (
    <>
      Uppod publishes no CDN copy: it builds <Code>uppod.js</Code> for each site, and the snippet loads yours
      from <Code>/uppod.js</Code> on your own site (change the address if you serve it elsewhere). Its segment
      requests are counted like those of Bitmovin (mind <Code>Timing-Allow-Origin</Code>).
    </>
  ),
  Other: (
    <>
      A player that plays in a <Code>&lt;video&gt;</Code> element of the page (Plyr, for one: tested with two
      viewers sharing segments) gets P2P the way hls.js does: the plugin plays the stream in that element with
      hls.js, and the player puts its controls on it. A player that loads segments itself and is not built on
      hls.js or Shaka takes <Code>player: 'generic'</Code>: CDN only, the page's segment requests counted
      (mind <Code>Timing-Allow-Origin</Code>); bytes the plugin cannot see can be added with{' '}
      <Code>handle.addCdnBytes(n)</Code>. A player with its own reporting can also post reports itself: see{' '}
      <Anchor href="#reports" inherit underline="always">
        Reports from custom players
      </Anchor>
      .
    </>
  ),
};

/** What each of the More players' recipes relies on, and how it was tested. */
const MORE_PLAYER_NOTES: Record<TMorePlayer, { attach: TPlayerName; note: ReactNode }> = {
  Vidstack: {
    attach: 'vidstack',
    note: (
      <>
        Vidstack's HLS provider makes its hls.js when the player gets a source, so the recipe waits for{' '}
        <Code>attach</Code> and only then sets <Code>src</Code>. On <Code>provider-change</Code> it gives the
        HLS provider the page's <Code>Hls</Code> class as its <Code>library</Code> (Vidstack would otherwise
        load hls.js from a CDN of its own) and the handle's <Code>hlsConfig</Code> as its <Code>config</Code>.
        The <Code>hls-instance</Code> event hands the new hls.js to <Code>bindHls</Code> before it loads
        anything. The player keeps its default layout.
      </>
    ),
  },
  DPlayer: {
    attach: 'hls.js',
    note: (
      <>
        A custom <Code>type</Code> of DPlayer gets DPlayer's own video element: the recipe's{' '}
        <Code>p2pHls</Code> has the plugin play the stream in it with hls.js, as the HLS.js snippet does, and
        DPlayer keeps its controls. When DPlayer is destroyed, the plugin detaches.
      </>
    ),
  },
  'MediaElement.js': {
    attach: 'mediaelement',
    note: (
      <>
        MediaElement.js plays HLS with its <Code>native_hls</Code> renderer, which makes an hls.js with the
        page's global <Code>Hls</Code> class (it loads hls.js from a CDN only when there is none). The recipe
        puts a class of its own in <Code>window.Hls</Code> once <Code>attach</Code> has answered: each hls.js
        it makes gets the handle's <Code>hlsConfig</Code> and is handed to <Code>bindHls</Code>. Its control
        icons come from <Code>mejs-controls.svg</Code> beside your page (or the player's{' '}
        <Code>iconSprite</Code> option).
      </>
    ),
  },
};

/** A section of the guide: its heading carries the id the table of contents links to. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-labelledby={id} p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        <Title order={2} fz={{ base: 20, sm: 22 }} id={id} style={{ scrollMarginTop: 16 }}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

function P({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" lh={1.65}>
      {children}
    </Text>
  );
}

/** A table that becomes stacked cards on phones (styles.css .stack-table): each cell shows its column. */
function DataTable({ label, head, rows }: { label: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <Table
      className="stack-table"
      aria-label={label}
      verticalSpacing="sm"
      withTableBorder
      fz="sm"
      style={{ verticalAlign: 'top' }}
    >
      <Table.Thead>
        <Table.Tr>
          {head.map((h) => (
            <Table.Th key={h}>{h}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed rows of static content
          <Table.Tr key={i}>
            {r.map((cell, j) => (
              <Table.Td key={head[j]} data-label={head[j]} style={{ verticalAlign: 'top' }}>
                {cell}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One player of the guide: its name, the badge of its integration, what that means, its note and code. */
function PlayerArticle({
  name,
  integration,
  note,
  code,
  codeLabel,
}: {
  name: TPlayer | TMorePlayer;
  integration: keyof typeof PLAYER_INTEGRATION_LABEL;
  note: ReactNode;
  code: string;
  codeLabel: string;
}) {
  return (
    <Stack gap="sm" component="article" aria-labelledby={playerSectionId(name)} pt="sm">
      <Group gap="sm" align="center">
        <Title order={3} fz="lg" id={playerSectionId(name)} style={{ scrollMarginTop: 16 }}>
          {name}
        </Title>
        <Badge color={integration === 'cdn-only' ? 'orange' : 'teal'} variant="light" radius="sm">
          {PLAYER_INTEGRATION_LABEL[integration]}
        </Badge>
      </Group>
      <P>{PLAYER_INTEGRATION_HELP[integration]}</P>
      <P>{note}</P>
      <CopyBlock label={codeLabel} value={code} multiline />
    </Stack>
  );
}

function Toc() {
  return (
    <Box component="nav" aria-label="On this page">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb="xs" style={{ letterSpacing: '0.04em' }}>
        On this page
      </Text>
      <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {GUIDE_SECTIONS.map((s) => (
          <li key={s.id}>
            <Anchor href={`#${s.id}`} size="sm" c="dark.6">
              {s.title}
            </Anchor>
          </li>
        ))}
      </Stack>
    </Box>
  );
}

const json = (v: unknown) => JSON.stringify(v, null, 2);
const seconds = (s: number) => (s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`);
const days = (s: number) => (s >= 86_400 ? `${s / 86_400} days` : seconds(s));

/** The integration guide (DESIGN §11): public, at PLAYER_PATHS.guide; the "Documentation" links. */
export function IntegrationGuide() {
  const { hash } = useLocation();
  const plugin = pluginUrl();
  const origin = window.location.origin;
  const signedIn = getToken() !== null;

  // The guide renders after the page loaded, so the browser found no element for the address's #id.
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, [hash]);

  const ts = 1_767_225_600;
  const ingestBody = {
    reports: [
      {
        apiKey: 'YOUR_SERVICE_KEY',
        sessionId: '9f1c2a7e44b04d0c',
        ts,
        cdnBytes: 1_572_864,
        p2pBytes: 524_288,
        seq: 7,
      },
      {
        apiKey: 'YOUR_SERVICE_KEY',
        sessionId: '51aa03e8d2c94e11',
        ts,
        cdnBytes: 2_097_152,
        p2pBytes: 0,
        seq: 3,
      },
    ],
  };
  const ingestAnswer = {
    accepted: 1,
    rejected: 1,
    errors: [{ index: 1, message: INGEST_ERRORS.skew }],
  };
  const settingsAnswer = {
    message: 'ok',
    data: {
      keyHash: 'YOUR_SERVICE_KEY',
      settings: Object.fromEntries(
        ORDERED_SETTINGS.map((id) => [String(id), KEY_SETTING_RANGES[id]?.default]),
      ),
      iceServers: [{ urls: 'stun:stun.example.com:3478' }],
    },
  };

  return (
    <Box className="auth-bg" mih="100dvh">
      <Box
        component="header"
        py="sm"
        px="md"
        bg="var(--mantine-color-body)"
        style={{ borderBottom: '1px solid var(--app-border)' }}
      >
        <Group justify="space-between" wrap="nowrap" maw={1200} mx="auto" gap="sm">
          <Anchor component={Link} to="/" aria-label={`${PRODUCT_NAME} home`} underline="never">
            <Logo size={28} />
          </Anchor>
          <Group gap="xs" wrap="nowrap">
            <Button component="a" href={API_DOCS_URL} variant="subtle" size="xs" visibleFrom="xs">
              API reference
            </Button>
            <Button component={Link} to={signedIn ? WEB_PATHS.settings : '/'} variant="light" size="xs">
              {signedIn ? 'Dashboard' : 'Log in'}
            </Button>
          </Group>
        </Group>
      </Box>

      <Container size={1200} px="md" py={{ base: 'md', sm: 'xl' }} component="main">
        <Stack gap={6} mb="lg">
          <Group gap="xs" c="brand">
            <IconBook size={20} />
            <Text size="sm" fw={600}>
              Documentation
            </Text>
          </Group>
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            Integration guide
          </Title>
          <Text c="dimmed" maw={760}>
            How to add the {PRODUCT_NAME} P2P plugin to your player, what each key setting does, how reports
            reach the statistics, and what the statistics screen shows.
          </Text>
        </Stack>

        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 3 }}>
            <Card withBorder p="md" style={{ position: 'sticky', top: 16 }}>
              <Toc />
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 9 }}>
            <Stack gap="lg" miw={0}>
              <Section id="how-it-works" title="How it works">
                <P>
                  The plugin is one script, served by this dashboard at <Code>{plugin}</Code>. It defines the
                  global <Code>TlprtP2P</Code>. Your page calls <Code>TlprtP2P.attach(options)</Code> with the
                  service key of your domain (My domains, or step 2 of Add domain) and your player; the call
                  returns a promise of a handle.
                </P>
                <List size="sm" spacing={6}>
                  <List.Item>
                    At attach the plugin reads the key's settings from <Code>{SETTINGS_PATH}</Code> on the
                    origin it was loaded from.
                  </List.Item>
                  <List.Item>
                    Viewers of the same key and the same stream find each other through the tracker at{' '}
                    <Code>{PLAYER_PATHS.tracker}</Code> and exchange segments over WebRTC. Two keys never
                    share a swarm, nor two streams.
                  </List.Item>
                  <List.Item>
                    Every {PLAYER_REPORT_INTERVAL_MS / 1000} s, and when the page is hidden, it reports the
                    bytes each viewer got from your CDN and from peers to <Code>{PLAYER_PATHS.ingest}</Code>:
                    they are the numbers of the statistics screen.
                  </List.Item>
                </List>
                <P>{PAGE_ORIGIN_RULE}</P>
                <P>
                  Try it on the demo page: <Code>{`${origin}${PLAYER_PATHS.demo}?key=YOUR_SERVICE_KEY`}</Code>
                  . Two browser tabs on it exchange segments, and the Live chart shows both.
                </P>
              </Section>

              <Section id="players" title="Add the plugin to your player">
                <P>
                  Load your player's script, then the plugin, then start both. Each snippet below works as it
                  is once you put your service key in <Code>KEY</Code> and your stream in <Code>SRC</Code>
                  (step 2 of Add domain fills in the key for you). hls.js, Shaka, Video.js and any player on a
                  video element get P2P from the plugin, Clappr and Flowplayer hand the plugin their own
                  hls.js, and Bitmovin and Uppod get CDN-only reporting.
                </P>
                <Group
                  gap="xs"
                  component="ul"
                  style={{ listStyle: 'none', padding: 0, margin: 0 }}
                  aria-label="Players"
                >
                  {PLAYERS.map((p) => (
                    <li key={p}>
                      <Button
                        component="a"
                        href={`#${playerSectionId(p)}`}
                        variant="default"
                        size="xs"
                        radius="xl"
                      >
                        {p}
                      </Button>
                    </li>
                  ))}
                </Group>
                {PLAYERS.map((p) => (
                  <PlayerArticle
                    key={p}
                    name={p}
                    integration={PLAYER_INTEGRATION[PLAYER_ATTACH_NAME[p]]}
                    note={PLAYER_NOTES[p]}
                    code={playerSnippet(p, null, plugin)}
                    codeLabel={`${p} snippet`}
                  />
                ))}
              </Section>

              <Section id="more-players" title="More players">
                <P>
                  Beyond the eight players of Add domain, these players get P2P from the plugin too. Each
                  recipe works as it is once you put your service key in <Code>KEY</Code> and your stream in{' '}
                  <Code>SRC</Code>, and each was tested as printed here: three viewers, one with each player,
                  shared one stream and reported every byte they took from the CDN. Any other player built on
                  hls.js gets P2P the same way: a player on a video element of the page as in the Other
                  snippet, one that makes its own hls.js as Vidstack or Clappr do.
                </P>
                {MORE_PLAYERS.map((p) => (
                  <PlayerArticle
                    key={p}
                    name={p}
                    integration={PLAYER_INTEGRATION[MORE_PLAYER_NOTES[p].attach]}
                    note={MORE_PLAYER_NOTES[p].note}
                    code={recipeSnippet(p, null, plugin)}
                    codeLabel={`${p} recipe`}
                  />
                ))}
              </Section>

              <Section id="attach" title="TlprtP2P.attach">
                <P>
                  <Code>TlprtP2P.attach(options)</Code> returns a promise of a handle. It never fails because
                  of the network: when the settings cannot be read the player plays from the CDN and nothing
                  is reported. It throws a <Code>TypeError</Code> when an option is missing or wrong.
                </P>
                <DataTable
                  label="attach options"
                  head={['Option', 'Meaning']}
                  rows={[
                    [<Code key="k">key</Code>, 'The service key (key hash) of your domain.'],
                    [
                      <Code key="p">player</Code>,
                      <>
                        One of{' '}
                        {Object.keys(PLAYER_INTEGRATION).map((n, i) => (
                          <span key={n}>
                            {i > 0 && ', '}
                            <Code>{n}</Code>
                          </span>
                        ))}
                        .
                      </>,
                    ],
                    [
                      <Code key="i">instance</Code>,
                      <>
                        hls.js: the <Code>Hls</Code> class. Shaka: the <Code>shaka.Player</Code>. Not needed
                        by the others.
                      </>,
                    ],
                    [
                      <Code key="s">src</Code>,
                      'The stream’s URL; needed by every player but the CDN-only ones (the swarm is the key and this stream).',
                    ],
                    [<Code key="v">video</Code>, 'hls.js: the video element to play in.'],
                    [<Code key="h">hlsConfig</Code>, 'hls.js: your own hls.js settings, kept.'],
                    [<Code key="sh">shaka</Code>, 'Shaka: its namespace, when it is not the global shaka.'],
                    [
                      <Code key="sv">server</Code>,
                      'This dashboard’s origin, only when the plugin is not loaded from it (a copy on your own CDN).',
                    ],
                  ]}
                />
                <DataTable
                  label="attach handle"
                  head={['Handle', 'Meaning']}
                  rows={[
                    [
                      <Code key="a">active</Code>,
                      'The key is usable: its settings apply and bytes are reported.',
                    ],
                    [
                      <Code key="p">peering</Code>,
                      'This viewer shares segments with others (the peering quota drew it).',
                    ],
                    [<Code key="s">sessionId</Code>, 'The random id of this viewer session in the reports.'],
                    [<Code key="h">hls</Code>, 'hls.js: the player the plugin made.'],
                    [
                      <Code key="c">hlsConfig</Code>,
                      'Clappr: settings for its hls.js (empty when the key is not usable).',
                    ],
                    [
                      <Code key="b">bindHls(hls)</Code>,
                      'Clappr: its hls.js, or a function that returns it. Flowplayer: the Flowplayer player.',
                    ],
                    [
                      <Code key="n">addCdnBytes(n)</Code>,
                      'Bytes the plugin cannot see, reported as CDN bytes.',
                    ],
                    [
                      <Code key="u">counters(), onUpdate(fn)</Code>,
                      'CDN bytes, verified P2P bytes, refused peer bytes (rejectedBytes), segments taken from the CDN because they could not be verified (unverifiableSegments), uploaded bytes and connected peers of this viewer, now or on each change.',
                    ],
                    [
                      <Code key="d">detach()</Code>,
                      'Sends what is left, stops reporting and sharing; hls.js: destroys its player.',
                    ],
                  ]}
                />
              </Section>

              <Section id="settings" title="Key settings">
                <P>
                  Settings are set per team, domain or key on My domains (a key's own value wins over its
                  domain's, which wins over the team's). The plugin reads the key's effective settings once,
                  at attach: a change applies to viewers who start after it.
                </P>
                <DataTable
                  label="Key settings"
                  head={['Setting', 'Range and default', 'What it does', 'In the P2P loader']}
                  rows={ORDERED_SETTINGS.map((id) => {
                    const r = KEY_SETTING_RANGES[id];
                    return [
                      <Text key="n" size="sm" fw={600}>
                        {r?.name}{' '}
                        <Text span c="dimmed" size="xs">
                          (id {id})
                        </Text>
                      </Text>,
                      r ? `${r.min} to ${r.max}, default ${r.default}` : '',
                      KEY_SETTING_HELP[id],
                      KEY_SETTING_LOADER[id],
                    ];
                  })}
                />
                <P>{PLAYER_HELP.segmentDuration}</P>
                <P>{PLAYER_HELP.downloadUpload}</P>
                <Alert variant="light" color="orange" icon={<IconAlert size={18} />}>
                  {KEY_NOT_USABLE_HELP}
                </Alert>
                <P>
                  What the plugin reads at attach, <Code>{`GET ${SETTINGS_PATH}`}</Code>: the settings by id,
                  and the ICE servers.
                </P>
                <CopyBlock label="Answer" value={json(settingsAnswer)} multiline />
              </Section>

              <Section id="ice-servers" title="ICE servers">
                <P>
                  Viewers connect to each other over WebRTC. The STUN and TURN servers they use come only from
                  the server's <Code>ICE_SERVERS</Code> setting, handed to the plugin with the key's settings
                  as <Code>iceServers</Code>; no public STUN server or public tracker is ever used behind your
                  back.
                </P>
                <List size="sm" spacing={6}>
                  <List.Item>
                    <Code>ICE_SERVERS</Code> is a comma list of <Code>stun:</Code>, <Code>stuns:</Code>,{' '}
                    <Code>turn:</Code> and <Code>turns:</Code> URLs. A TURN URL carries no user or secret (the
                    server refuses to start with one: every page holding a key hash could read it). Instead{' '}
                    <Code>TURN_SECRET</Code> is the TURN server's shared secret, and each viewer gets
                    credentials of its own with the key's settings, valid for{' '}
                    <Code>TURN_CREDENTIAL_TTL_S</Code>.
                  </List.Item>
                  <List.Item>
                    Empty (the default): peers connect only where a direct connection works, such as viewers
                    on the same network. A STUN server lets most home connections meet; a TURN server relays
                    the rest.
                  </List.Item>
                  <List.Item>
                    What TURN costs: a relayed byte crosses the TURN server twice, in from the viewer who
                    uploads it and out to the one who receives it, so relayed peer traffic costs about what
                    the CDN would have. A relay keeps viewers behind strict NATs in the swarm; it does not
                    save their bytes.
                  </List.Item>
                </List>
                <CopyBlock
                  label="Example"
                  value="ICE_SERVERS=stun:turn.example.com:3478,turn:turn.example.com:3478 TURN_SECRET=your-shared-secret"
                />
              </Section>

              <Section id="verification" title="Verification of peers’ segments">
                <P>
                  Your service key stands in your pages, so anyone can copy it and join your viewers’ swarm
                  with a page of their own. The plugin therefore hands your player no byte from a peer before
                  it has checked the whole segment: its SHA-256 must equal the SHA-256 of the same segment as
                  this server fetched it from your origin, at <Code>{PLAYER_PATHS.integrity}</Code>. Nothing a
                  peer says about a segment is believed.
                </P>
                <List size="sm" spacing={6}>
                  <List.Item>
                    A segment that does not match is thrown away, counted as refused peer bytes (the{' '}
                    <Code>rejectedBytes</Code> of <Code>counters()</Code> and of the reports, and a red figure
                    on the statistics screen), and loaded again from your CDN or another peer. The peer that
                    sent it is disconnected and never used again by that viewer for that stream.
                  </List.Item>
                  <List.Item>
                    The server fetches a segment only from your team’s hosts: its verified domains (and their
                    subdomains) and the hosts named by its active Origins. When your streams come from a CDN
                    host that is not one of your domains, add an Origin named with that host (for example{' '}
                    <Code>cdn.example.com</Code>) on the Origins screen.
                  </List.Item>
                  <List.Item>
                    A segment the server cannot vouch for is taken from your CDN only and counted in{' '}
                    <Code>unverifiableSegments</Code>: on a host that is not yours, peers are switched off for
                    the whole stream; when your origin fails or is slow, for that segment.
                  </List.Item>
                  <List.Item>
                    Cost: each server node fetches a segment (and each byte range) from your origin once while
                    it keeps its hash, whatever the number of viewers; your viewers each ask the server for
                    the hash of a segment a peer sends them, as the download begins, so verification adds a
                    few milliseconds when the segment is complete.
                  </List.Item>
                  <List.Item>
                    Not verified: what your CDN sends (it is your origin’s) and the playlists, which always
                    come from your CDN.
                  </List.Item>
                </List>
              </Section>

              <Section id="reports" title="Reports from custom players">
                <P>
                  A player of your own, or an edge server, can report without the plugin. Each report counts
                  the bytes one viewer session received since its previous report. The plugin sends one every{' '}
                  {PLAYER_REPORT_INTERVAL_MS / 1000} s and when the page is hidden (<Code>fetch</Code> with{' '}
                  <Code>keepalive</Code>); do the same, and keep bytes whose report failed for the next one.
                </P>
                <P>
                  Send <Code>{`POST ${origin}${PLAYER_PATHS.ingest}`}</Code> with{' '}
                  <Code>Content-Type: application/json</Code>:
                </P>
                <CopyBlock label="Request body" value={json(ingestBody)} multiline />
                <DataTable
                  label="Report fields"
                  head={['Field', 'Meaning']}
                  rows={[
                    [<Code key="a">apiKey</Code>, 'The service key (key hash).'],
                    [
                      <Code key="s">sessionId</Code>,
                      'One viewer session: 1 to 200 characters, random (the plugin uses 128 random bits).',
                    ],
                    [
                      <Code key="t">ts</Code>,
                      `Unix time in seconds; at most ${INGEST_MAX_SKEW_S / 60} minutes from the server's clock.`,
                    ],
                    [
                      <Code key="c">cdnBytes, p2pBytes</Code>,
                      `Whole bytes since this session's previous report, from the CDN and from peers: 0 to ${INGEST_MAX_BYTES.toLocaleString('en-US')} (4 GiB) each. ${PLAYER_BYTES_COUNTED}`,
                    ],
                    [<Code key="n">nodrBytes</Code>, 'Optional, the same for the NODR series.'],
                    [
                      <Code key="r">rejectedBytes</Code>,
                      'Optional, the same range: bytes peers sent that failed verification and were thrown away (not in p2pBytes, not a viewer).',
                    ],
                    [
                      <Code key="q">seq</Code>,
                      'Optional whole number, increasing per session. A report whose key, session and seq were already counted is accepted but not counted again.',
                    ],
                  ]}
                />
                <P>
                  The answer is 202, with one verdict per report (the rest of a batch is kept when one is
                  rejected):
                </P>
                <CopyBlock label="202 Accepted" value={json(ingestAnswer)} multiline />
                <List size="sm" spacing={6}>
                  <List.Item>
                    <Code>errors</Code> describes the first {INGEST_MAX_ERRORS} rejected reports by index.
                    Reasons:{' '}
                    {Object.values(INGEST_ERRORS).map((m, i) => (
                      <span key={m}>
                        {i > 0 && '; '}“{m}”
                      </span>
                    ))}
                    ; and a field out of its range.
                  </List.Item>
                  <List.Item>
                    Retries: keep a report, with its <Code>seq</Code>, until a 202 answers it, and send it
                    again with the next ones. The server counts it once, so a retry after a lost answer never
                    counts twice.
                  </List.Item>
                  <List.Item>
                    A body that is not <Code>{'{"reports": [...]}'}</Code> answers 400; a body over{' '}
                    {LIMITS.ingestBodyBytes / 1024 / 1024} MiB answers 413.
                  </List.Item>
                  <List.Item>
                    Origin: a browser's report is counted only when its page may use the key (https:// on the
                    standard port; http:// only with the domain's “Plain HTTP pages” option: see How it works)
                    or is on this dashboard (the demo page); others are rejected. The ingest answers CORS,
                    preflight included, for exactly those origins, so players on your site can post to it.
                    Reports without an <Code>Origin</Code> header (server-side reporters) are accepted.
                  </List.Item>
                  <List.Item>
                    Without a token, as browsers send them, one request carries the reports of one session (at
                    most {INGEST_ANONYMOUS_MAX_REPORTS}); each client address (an IPv6 /64) and each key has a
                    budget of reports per minute on every server, past which the answer is 429 with{' '}
                    <Code>Retry-After</Code>: keep the reports and send them again later.
                  </List.Item>
                  <List.Item>
                    An edge server reporting many sessions at once sends{' '}
                    <Code>Authorization: Bearer &lt;token&gt;</Code> with an API token of your team of scope
                    “ingest” (Team settings): its batches may hold many sessions of your team's keys and are
                    not held to the address budget. A token that is not valid answers 401.
                  </List.Item>
                  <List.Item>
                    “{INGEST_ERRORS.sessionForgotten}”: under load the server may forget a session; its
                    reports are then refused rather than risk counting one twice. Go on under a new{' '}
                    <Code>sessionId</Code> and send the refused bytes again (the plugin does).
                  </List.Item>
                </List>
                <CopyBlock
                  label="From a server"
                  value={`curl -X POST ${origin}${PLAYER_PATHS.ingest} \\\n  -H 'Content-Type: application/json' \\\n  -H 'Authorization: Bearer <API token>' \\\n  -d '${JSON.stringify({ reports: [{ ...ingestBody.reports[0], ts: 1767225600 }] })}'`}
                  multiline
                />
              </Section>

              <Section id="statistics" title="The statistics screen">
                <P>
                  The chart adds up the reports of the keys ticked in the list, per point of time: Bandwidth
                  above, Viewers below. Times are shown in your profile's time zone.
                </P>
                <DataTable
                  label="Statistics numbers"
                  head={['Number', 'What it is']}
                  rows={[
                    [
                      'CDN (bandwidth)',
                      'The cdnBytes of all reports in the point, shown as an average rate: bytes × 8 ÷ the step in seconds.',
                    ],
                    [
                      'P2P (bandwidth)',
                      'The same for p2pBytes: what viewers got from each other instead of your CDN.',
                    ],
                    ['NODR', 'Shown for teams of version 1 only: the nodrBytes series.'],
                    [
                      'P2P share',
                      'P2P bytes ÷ all bytes over the visible range (zoom changes it). The higher, the less your CDN served.',
                    ],
                    ['Total traffic', 'All bytes over the visible range: CDN + P2P (+ NODR).'],
                    [
                      'Viewers per series',
                      'CDN viewers: distinct sessions that got CDN bytes in the minute; P2P viewers: those that got bytes from peers. A session fed by both counts in both.',
                    ],
                    [
                      'Distinct viewers',
                      'Sessions with any bytes in the minute, each counted once: the audience, drawn as the Viewers line over the bars. It is never more than CDN viewers + P2P viewers, nor less than the larger of the two.',
                    ],
                    [
                      'Peak viewers',
                      'The most distinct viewers at one point of the visible range: the audience at its peak, each session counted once.',
                    ],
                    [MSG_STATS.refusedBytes, MSG_STATS.refusedGuide],
                  ]}
                />
                <DataTable
                  label="Time ranges"
                  head={['Range', 'Window', 'Step', 'A point holds']}
                  rows={(['live', 'day', 'week', 'month'] as const).map((r) => {
                    const { step, window: w } = STATS_RANGES[r];
                    return [
                      r[0]?.toUpperCase() + r.slice(1),
                      r === 'live' ? `last ${seconds(w)}, refreshed every 3 s` : `last ${days(w)}`,
                      `${step} s`,
                      step === 60
                        ? r === 'live'
                          ? 'One minute; the current, still-open minute included.'
                          : 'One minute.'
                        : `${seconds(step)}: bytes summed over its minutes; viewer counts are those of its peak minute.`,
                    ];
                  })}
                />
                <P>
                  Bytes reach the chart with the next report (at most {PLAYER_REPORT_INTERVAL_MS / 1000} s
                  after they were loaded). Reports of a key that is inactive, suspended or deleted are not
                  counted.
                </P>
              </Section>

              <Section id="glossary" title="Statistics glossary">
                <P>
                  Every series the statistics count, as the chart, the CSV exports and the export API name
                  them. A point of a range holds each series over its step; how a series adds up over several
                  minutes and several keys is in the last column.
                </P>
                <DataTable
                  label="Statistics glossary"
                  head={['Series', 'Field', 'Unit', 'Meaning', 'How it adds up']}
                  rows={GLOSSARY.map((g) => [
                    <span key="n">
                      <Text size="sm" fw={600} component="span">
                        {g.label}
                      </Text>
                      {g.version1Only && (
                        <Text size="xs" c="dimmed">
                          Teams of version 1 only
                        </Text>
                      )}
                    </span>,
                    <span key="f">
                      {g.fields.map((f, i) => (
                        <span key={f}>
                          {i > 0 && ', '}
                          <Code>{f}</Code>
                        </span>
                      ))}
                    </span>,
                    g.unit,
                    g.description,
                    g.merge,
                  ])}
                />
              </Section>

              <Section id="export" title="Statistics export API">
                <P>
                  A program reads your team's statistics with an API token of scope “statistics” (Team
                  settings, API tokens: “{SCOPE_CHOICE.statistics.label}”), sent as{' '}
                  <Code>Authorization: Bearer &lt;token&gt;</Code> on{' '}
                  <Code>{`GET ${origin}${STATS_EXPORT.path}`}</Code>. Parameters: <Code>range</Code> (
                  {Object.keys(STATS_RANGES).join(', ')}), <Code>keys</Code> (key hashes of the token's team,
                  separated by commas), optionally <Code>from</Code> and <Code>to</Code> (Unix seconds, within
                  the range's window), <Code>by</Code> ({BREAKDOWN_DIMENSIONS.join(', ')}) for a breakdown
                  instead of points, and <Code>format</Code> (<Code>json</Code>, the default, or{' '}
                  <Code>csv</Code>). The answer is the chart's: points with the fields of the glossary, or
                  breakdown rows. A token of another scope or a revoked one answers 401 (“
                  {MSG_STATS_EXPORT.badToken}”), a key of another team 400, and more than{' '}
                  {STATS_EXPORTS_PER_MINUTE} exports a minute with one token 429.
                </P>
                <CopyBlock label="Export example" value={statsExportCurl(origin, '<API token>')} multiline />
              </Section>

              <Section id="api" title="API reference">
                <P>
                  Every HTTP endpoint of the dashboard, with its request and answer schemas, is in the API
                  reference.
                </P>
                <Group>
                  <Button
                    component="a"
                    href={API_DOCS_URL}
                    variant="light"
                    leftSection={<IconBook size={16} />}
                  >
                    Open the API reference
                  </Button>
                </Group>
              </Section>
            </Stack>
          </Grid.Col>
        </Grid>
      </Container>
    </Box>
  );
}
