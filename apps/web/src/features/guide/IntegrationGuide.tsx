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
  KEY_SETTING_HELP,
  KEY_SETTING_LOADER,
  KEY_SETTING_RANGES,
  MORE_PLAYERS,
  PLAYER_KIND_HELP,
  PLAYER_KIND_LABEL,
  PLAYER_TABLE,
  PLAYERS,
  PRODUCT_NAME,
  type TShownPlayer,
  WEB_PATHS,
} from '@tlprt/contract';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { API_DOCS_URL, pluginUrl } from '../../platform/config';
import { playerSnippet } from '../../platform/integration/snippets';
import { getToken } from '../../platform/session/storage';
import { CopyBlock } from '../../platform/ui/CopyBlock';
import { IconAlert, IconBook } from '../../platform/ui/icons';
import { Logo } from '../../platform/ui/Logo';
import {
  GLOSSARY,
  GLOSSARY_VERSION1_ONLY,
  GUIDE_HEAD,
  GUIDE_SECTIONS,
  type GuideBlock,
  guideBlocks,
  ORDERED_SETTINGS,
} from './content';

/** "HLS.js" → "player-hls-js": the id of a player's section (of the More players too). */
export const playerSectionId = (p: TShownPlayer) => `player-${p.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** `code` and [text](#link) of the content's text, as Mantine's Code and Anchor. */
const INLINE = /`([^`]+)`|\[([^\]]+)\]\(([^)]+)\)/g;
function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(
      m[1] !== undefined ? (
        <Code key={m.index}>{m[1]}</Code>
      ) : (
        <Anchor key={m.index} href={m[3]} inherit underline="always">
          {m[2]}
        </Anchor>
      ),
    );
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

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

/** One player of the players table: its name, the badge of its kind, what that means, its note and code. */
function PlayerArticle({
  name,
  codeLabel,
  plugin,
}: {
  name: TShownPlayer;
  codeLabel: string;
  plugin: string;
}) {
  const { kind, note } = PLAYER_TABLE[name];
  return (
    <Stack gap="sm" component="article" aria-labelledby={playerSectionId(name)} pt="sm">
      <Group gap="sm" align="center">
        <Title order={3} fz="lg" id={playerSectionId(name)} style={{ scrollMarginTop: 16 }}>
          {name}
        </Title>
        <Badge color={kind === 'cdn-only' ? 'orange' : 'teal'} variant="light" radius="sm">
          {PLAYER_KIND_LABEL[kind]}
        </Badge>
      </Group>
      <P>{PLAYER_KIND_HELP[kind]}</P>
      <P>{inline(note)}</P>
      <CopyBlock label={`${name} ${codeLabel}`} value={playerSnippet(name, null, plugin)} multiline />
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

/** One block of the content, laid out. */
function Block({ block, plugin }: { block: GuideBlock; plugin: string }) {
  if ('p' in block) return <P>{inline(block.p)}</P>;
  if ('list' in block)
    return (
      <List size="sm" spacing={6}>
        {block.list.map((item) => (
          <List.Item key={item}>{inline(item)}</List.Item>
        ))}
      </List>
    );
  if ('table' in block)
    return (
      <DataTable
        label={block.table.label}
        head={block.table.head}
        rows={block.table.rows.map((r) => r.map((cell) => inline(cell)))}
      />
    );
  if ('copy' in block) return <CopyBlock {...block.copy} />;
  if ('alert' in block)
    return (
      <Alert variant="light" color="orange" icon={<IconAlert size={18} />}>
        {inline(block.alert)}
      </Alert>
    );
  if ('players' in block && block.players === 'more-players')
    return MORE_PLAYERS.map((p) => <PlayerArticle key={p} name={p} codeLabel="recipe" plugin={plugin} />);
  if ('players' in block)
    return (
      <>
        <Group
          gap="xs"
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label="Players"
        >
          {PLAYERS.map((p) => (
            <li key={p}>
              <Button component="a" href={`#${playerSectionId(p)}`} variant="default" size="xs" radius="xl">
                {p}
              </Button>
            </li>
          ))}
        </Group>
        {PLAYERS.map((p) => (
          <PlayerArticle key={p} name={p} codeLabel="snippet" plugin={plugin} />
        ))}
      </>
    );
  if ('keySettings' in block)
    return (
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
    );
  if ('glossary' in block)
    return (
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
                {GLOSSARY_VERSION1_ONLY}
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
    );
  return (
    <Group>
      <Button component="a" href={API_DOCS_URL} variant="light" leftSection={<IconBook size={16} />}>
        {block.apiReference}
      </Button>
    </Group>
  );
}

/** The integration guide (docs/DESIGN.md §11): public, at PLAYER_PATHS.guide; the "Documentation" links. Its
 *  words are in content.ts. */
export function IntegrationGuide() {
  const { hash } = useLocation();
  const plugin = pluginUrl();
  const signedIn = getToken() !== null;
  const blocks = guideBlocks(window.location.origin, plugin);

  // The guide renders after the page loaded, so the browser found no element for the address's #id.
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, [hash]);

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
              {GUIDE_HEAD.kicker}
            </Text>
          </Group>
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {GUIDE_HEAD.title}
          </Title>
          <Text c="dimmed" maw={760}>
            {GUIDE_HEAD.intro}
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
              {GUIDE_SECTIONS.map((s) => (
                <Section key={s.id} id={s.id} title={s.title}>
                  {blocks[s.id].map((b, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a section's blocks are fixed
                    <Block key={i} block={b} plugin={plugin} />
                  ))}
                </Section>
              ))}
            </Stack>
          </Grid.Col>
        </Grid>
      </Container>
    </Box>
  );
}
