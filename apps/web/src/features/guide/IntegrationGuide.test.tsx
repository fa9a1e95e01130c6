import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import {
  INGEST_MAX_BYTES,
  KEY_NOT_USABLE_HELP,
  KEY_SETTING_HELP,
  KEY_SETTING_LOADER,
  KeySettingId,
  MORE_PLAYERS,
  MSG_STATS,
  PAGE_ORIGIN_RULE,
  PLAYER_KIND_HELP,
  PLAYER_PATHS,
  PLAYERS,
  POINT_FIELDS,
  SERIES,
  SERIES_NAMES,
  STATS_EXPORTS_PER_MINUTE,
} from '@tlprt/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../../app/router';
import { theme } from '../../app/theme';
import { queryClient } from '../../platform/api/queryClient';
import { API_DOCS_URL } from '../../platform/config';
import { playerSnippet } from '../../platform/integration/snippets';
import { renderScreen } from '../../test/render';
import { GUIDE_SECTIONS } from './content';
import { IntegrationGuide, playerSectionId } from './IntegrationGuide';

const plugin = `${window.location.origin}${PLAYER_PATHS.bundle}`;
const open = () => renderScreen(<IntegrationGuide />, PLAYER_PATHS.guide);
const isCdnOnly = (p: string) => p === 'Bitmovin' || p === 'Uppod';

// A long page: the DOM queries here take a while in jsdom on a busy machine.
describe('integration guide', { timeout: 30_000 }, () => {
  it('is a public route of the app at PLAYER_PATHS.guide: it renders without a session', async () => {
    const router = createMemoryRouter(routes, { initialEntries: [PLAYER_PATHS.guide] });
    render(
      <MantineProvider theme={theme}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    // The guide is its own chunk: give the lazy route time to load on a busy machine.
    expect(
      await screen.findByText('Integration guide', { selector: 'h1' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(PLAYER_PATHS.guide);
    expect(screen.getByText('Log in').closest('a')).toHaveAttribute('href', '/');
  });

  it('has a table of contents whose links lead to headings with those ids', () => {
    open();
    const toc = document.querySelector('nav[aria-label="On this page"]') as HTMLElement;
    const links = [...toc.querySelectorAll('a')];
    expect(links.map((l) => l.getAttribute('href'))).toEqual(GUIDE_SECTIONS.map((s) => `#${s.id}`));
    for (const s of GUIDE_SECTIONS) {
      const heading = document.getElementById(s.id);
      expect(heading?.tagName).toBe('H2');
      expect(heading).toHaveTextContent(s.title);
      expect(heading?.closest('section')).toHaveAttribute('aria-labelledby', s.id);
    }
  });

  it('has one section per player with its integration and a copyable snippet of the real attach API', () => {
    open();
    const players = document.querySelector('ul[aria-label="Players"]') as HTMLElement;
    expect([...players.querySelectorAll('a')].map((l) => l.getAttribute('href'))).toEqual(
      PLAYERS.map((p) => `#${playerSectionId(p)}`),
    );
    for (const p of PLAYERS) {
      const heading = document.getElementById(playerSectionId(p));
      expect(heading?.tagName).toBe('H3');
      expect(heading).toHaveTextContent(p);
      const article = heading?.closest('article') as HTMLElement;
      expect(article).toHaveTextContent(
        PLAYER_KIND_HELP[
          isCdnOnly(p) ? 'cdn-only' : p === 'Clappr' || p === 'Flowplayer' ? 'hosted-hls.js' : 'hls.js'
        ],
      );
      expect(article.querySelector(`button[aria-label="Copy ${p} snippet"]`)).not.toBeNull();
      const code = article.querySelector('.code-block')?.textContent ?? '';
      expect(code).toContain(`<script src="${plugin}"></script>`);
      expect(code).toContain("var KEY = 'YOUR_SERVICE_KEY';");
      expect(code).toContain('TlprtP2P.attach(');
      if (isCdnOnly(p)) expect(code).toContain('// CDN only:');
    }
    const hls = document.getElementById(playerSectionId('HLS.js'))?.closest('article') as HTMLElement;
    expect(hls.querySelector('.code-block')?.textContent).toMatch(/instance: Hls,\s+src: SRC,/);
  });

  it('has the More players, each with its integration and the recipe the P2P test plays', () => {
    open();
    const section = document.getElementById('more-players')?.closest('section') as HTMLElement;
    expect(section).toHaveTextContent('Any other player built on hls.js');
    const article = (p: (typeof MORE_PLAYERS)[number]) => {
      const heading = document.getElementById(playerSectionId(p));
      expect(heading?.tagName).toBe('H3');
      expect(heading).toHaveTextContent(p);
      expect(heading?.closest('section')).toBe(section);
      return heading?.closest('article') as HTMLElement;
    };
    for (const p of MORE_PLAYERS) {
      const a = article(p);
      expect(a.querySelector(`button[aria-label="Copy ${p} recipe"]`)).not.toBeNull();
      // The very text e2e/p2p/players-more.spec.ts builds its pages from.
      expect(a.querySelector('.code-block')?.textContent).toBe(playerSnippet(p, null, plugin));
      expect(a.querySelector('.code-block')?.textContent).toContain(`<script src="${plugin}"></script>`);
    }
    // Each says how the plugin works with it, as the attach call of its recipe does.
    for (const [p, name, integration] of [
      ['Vidstack', 'vidstack', 'hosted-hls.js'],
      ['DPlayer', 'hls.js', 'hls.js'],
      ['MediaElement.js', 'mediaelement', 'hosted-hls.js'],
    ] as const) {
      expect(article(p)).toHaveTextContent(PLAYER_KIND_HELP[integration]);
      expect(playerSnippet(p, null, plugin)).toContain(`player: '${name}'`);
    }
    expect(playerSnippet('Vidstack', null, plugin)).toContain('<script type="module" src=');
  });

  it('explains each key setting with its help text and its mapping onto the loader', () => {
    open();
    const table = document.querySelector('table[aria-label="Key settings"]') as HTMLElement;
    for (const id of [
      KeySettingId.DownloadTimeout,
      KeySettingId.MinBufferSize,
      KeySettingId.PeeringOpeningQuota,
    ]) {
      expect(within(table).getByText(KEY_SETTING_HELP[id] as string)).toBeInTheDocument();
      expect(within(table).getByText(KEY_SETTING_LOADER[id] as string)).toBeInTheDocument();
    }
    expect(KEY_SETTING_LOADER[KeySettingId.DownloadTimeout]).toContain('p2pNotReceivingBytesTimeoutMs');
    expect(KEY_SETTING_LOADER[KeySettingId.MinBufferSize]).toContain('highDemandTimeWindow');
    expect(screen.getByText(KEY_NOT_USABLE_HELP)).toBeInTheDocument();
    // Which pages may use a key: the scheme and the port count, not only the host.
    expect(document.getElementById('how-it-works')?.closest('section')).toHaveTextContent(PAGE_ORIGIN_RULE);
    expect(document.getElementById('ice-servers')?.closest('section')).toHaveTextContent('ICE_SERVERS');
  });

  it('says what peer matching does, what it costs, how to tune it and how it is counted', () => {
    open();
    const section = document.getElementById('networks')?.closest('section');
    for (const text of [
      'NETWORKS_FILE',
      'TRACKER_MATCH_MIN_PEERS',
      'own copy of every segment',
      'p2pCrossBytes',
      'Key setting 102',
      MSG_STATS.ownNetwork,
    ])
      expect(section).toHaveTextContent(text);
  });

  it('says what is verified, against what, what a team must list as Origins, and what is not verified', () => {
    open();
    const section = document.getElementById('verification')?.closest('section');
    expect(section).toHaveTextContent(PLAYER_PATHS.integrity);
    expect(section).toHaveTextContent('SHA-256');
    expect(section).toHaveTextContent('rejectedBytes');
    expect(section).toHaveTextContent('add an Origin named with that host');
    expect(section).toHaveTextContent('Not verified: what your CDN sends');
  });

  it('says what each source of a hash costs the origin: pushed nothing, a digest a HEAD, a fetched body one copy per cluster', () => {
    open();
    const costs = document.querySelector(
      'table[aria-label="What a segment’s hash costs your origin"]',
    ) as HTMLElement;
    expect(costs.closest('section')).toBe(document.getElementById('verification')?.closest('section'));
    const rows = within(costs).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent(`POST ${PLAYER_PATHS.hashes}`);
    expect(rows[0]).toHaveTextContent('“hashes”');
    expect(rows[0]).toHaveTextContent(/Nothing\.$/);
    expect(rows[1]).toHaveTextContent('Repr-Digest: sha-256=:…:');
    expect(rows[1]).toHaveTextContent('x-amz-checksum-sha256');
    expect(rows[1]).toHaveTextContent('A HEAD: headers, no body.');
    expect(rows[2]).toHaveTextContent('One copy of each segment peers share, per cluster');
    expect(rows[2]).toHaveTextContent(SERIES.verifyBytes.label);
    // The statistics screen's saving is explained beside the share.
    const numbers = document.querySelector('table[aria-label="Statistics numbers"]') as HTMLElement;
    expect(within(numbers).getByText(MSG_STATS.originSaving)).toBeInTheDocument();
    expect(numbers).toHaveTextContent(MSG_STATS.originSavingGuide);
  });

  it('documents the report format: path, body, answer, seq, Origin and the per-report ceiling', () => {
    open();
    const reports = document.getElementById('reports')?.closest('section') as HTMLElement;
    expect(reports).toHaveTextContent(`POST ${window.location.origin}${PLAYER_PATHS.ingest}`);
    expect(reports).toHaveTextContent('"apiKey"');
    expect(reports).toHaveTextContent('"seq"');
    expect(reports).toHaveTextContent('202 Accepted');
    expect(reports).toHaveTextContent(INGEST_MAX_BYTES.toLocaleString('en-US'));
    expect(reports).toHaveTextContent('Origin');
    expect(reports).toHaveTextContent('10 s');
  });

  it('says what each number of the statistics screen means, with the steps of each range', () => {
    open();
    const numbers = document.querySelector('table[aria-label="Statistics numbers"]') as HTMLElement;
    for (const n of [
      'CDN (bandwidth)',
      'P2P (bandwidth)',
      'P2P share',
      'Viewers per series',
      'Distinct viewers',
      'Peak viewers',
    ])
      expect(within(numbers).getByText(n)).toBeInTheDocument();
    const ranges = document.querySelector('table[aria-label="Time ranges"]') as HTMLElement;
    for (const step of ['60 s', '1200 s', '3600 s'])
      expect(within(ranges).getAllByText(step).length).toBeGreaterThan(0);
    expect(ranges).toHaveTextContent('peak minute');
  });

  it('has a glossary row for every series of the contract: name, field, unit, meaning and how it adds up', () => {
    open();
    const table = document.querySelector('table[aria-label="Statistics glossary"]') as HTMLElement;
    expect(table.closest('section')).toBe(document.getElementById('glossary')?.closest('section'));
    const rows = [...table.querySelectorAll('tbody tr')] as HTMLElement[];
    expect(rows).toHaveLength(SERIES_NAMES.length);
    SERIES_NAMES.forEach((name, i) => {
      const s = SERIES[name];
      const row = rows[i] as HTMLElement;
      expect(within(row).getByText(s.label)).toBeInTheDocument();
      expect(row).toHaveTextContent(s.description);
      expect(row.querySelector('td[data-label="Unit"]')).toHaveTextContent(s.unit);
      for (const f of POINT_FIELDS.filter((p) => p.series === name)) expect(row).toHaveTextContent(f.field);
      const adds = row.querySelector('td[data-label="How it adds up"]');
      if (s.merge === 'sum') expect(adds).toHaveTextContent('Summed');
      if (s.merge === 'peak') expect(adds).toHaveTextContent('Peak minute of the bucket');
      if (s.merge === 'histogram') expect(adds).toHaveTextContent('Quantiles of a histogram (p50, p95)');
    });
    expect(within(table).getByText('Startup time')).toBeInTheDocument();
  });

  it('documents the export API: token scope, URL, parameters, formats and a curl example', () => {
    open();
    const section = document.getElementById('export')?.closest('section') as HTMLElement;
    expect(section).toHaveTextContent(`GET ${window.location.origin}/stats/v1/export`);
    expect(section).toHaveTextContent('scope “statistics”');
    for (const p of ['range', 'keys', 'from', 'to', 'by', 'format', 'json', 'csv'])
      expect(within(section).getByText(p, { selector: 'code' })).toBeInTheDocument();
    expect(section).toHaveTextContent(`${STATS_EXPORTS_PER_MINUTE} exports a minute`);
    expect(section.querySelector('.code-block')).toHaveTextContent(
      `curl -H "Authorization: Bearer <API token>" "${window.location.origin}/stats/v1/export?range=day&keys=YOUR_SERVICE_KEY&format=csv"`,
    );
  });

  it('links to the API reference', () => {
    open();
    expect(screen.getByText('Open the API reference').closest('a')).toHaveAttribute('href', API_DOCS_URL);
  });
});
