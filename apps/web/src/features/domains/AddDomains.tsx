import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Tabs,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  bareHost,
  LIMITS,
  MSG_DOMAINS,
  type TDomain,
  VerificationMethod,
  ZCreateDomainRequest,
} from '@tlprt/contract';
import { useState } from 'react';
import { isApiError } from '../../platform/api/errors';
import { useContractForm } from '../../platform/form';
import { useDomains } from '../../platform/queries/domains';
import { usePolicy } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { openConfirm } from '../../platform/ui/AppModals';
import { CopyBlock } from '../../platform/ui/CopyBlock';
import { IconAlert, IconCircleCheck, IconPlug, IconX } from '../../platform/ui/icons';
import { cardPadding, EmptyState, LoadFailedAlert, SuspendedBanner } from '../../platform/ui/Page';
import { VerifyButton } from '../../platform/ui/VerifyButton';
import { DraftNav } from './DraftNav';
import { currentDraft, isVerifiedDraft, useDraftSelection } from './drafts';
import { useCreateDomain, usePromoteDomain, useVerifyDomain } from './mutations';
import { Links, PlayerStep } from './PlayerStep';
import { useDictionaries, useInstructions } from './queries';

const DOMAIN_INPUT = ZCreateDomainRequest.pick({ url: true });

/** Verification state of each draft (spec §4: tracked per draft). */
type VerifyState = { status: 'verifying' } | { status: 'success' } | { status: 'error'; message: string };

/** Add domain (spec §2 "Add domain (/addDomains)"). */
export function AddDomains() {
  const { currentTeam } = useSession();
  const team = currentTeam as NonNullable<typeof currentTeam>;
  const domains = useDomains(team.id);
  useDictionaries();
  const [sel] = useDraftSelection();
  const [verifyStates, setVerifyStates] = useState<Record<number, VerifyState>>({});
  const frozen = team.suspended === 1;

  if (domains.isPending) {
    return (
      <Stack gap="lg" aria-busy="true" aria-label="Loading domains">
        <Skeleton h={120} radius="lg" />
        <Skeleton h={320} radius="lg" />
      </Stack>
    );
  }
  if (!domains.data) {
    return <LoadFailedAlert />;
  }
  const drafts = domains.data.drafts;
  const draft = currentDraft(drafts, sel);
  const full = domains.data.data.length >= LIMITS.domainsPerTeam;
  const setVerify = (id: number, s: VerifyState | null) =>
    setVerifyStates((all) => {
      const { [id]: _, ...rest } = all;
      return s ? { ...rest, [id]: s } : rest;
    });

  return (
    <Stack gap="lg">
      <Box hiddenFrom="sm">
        <DraftNav variant="page" />
      </Box>
      {frozen && <SuspendedBanner />}
      <Stack gap="lg" className={frozen ? 'team-suspended' : undefined}>
        <DomainForm full={full} />
        {draft ? (
          <DraftSteps
            key={draft.id}
            draft={draft}
            inx={drafts.indexOf(draft)}
            state={verifyStates[draft.id] ?? null}
            setState={(s) => setVerify(draft.id, s)}
          />
        ) : (
          <EmptyState icon={<IconPlug size={28} />} title="No draft selected">
            <Text c="dimmed" size="sm">
              Enter your website above and press {MSG_DOMAINS.check}: it is kept here as a draft until it is
              verified and confirmed.
            </Text>
          </EmptyState>
        )}
        <Links />
      </Stack>
    </Stack>
  );
}

/** The domain input (spec §5): required, reduced to the bare host; server errors of §8 under it. */
function DomainForm({ full }: { full: boolean }) {
  const { currentTeam } = useSession();
  const team = currentTeam as NonNullable<typeof currentTeam>;
  const policy = usePolicy(team);
  const create = useCreateDomain(team.id);
  const [, selectDraft] = useDraftSelection();
  const form = useContractForm(DOMAIN_INPUT, { initialValues: { url: '' } });
  const allowed = policy.can('domains.manage');
  // An internationalized name is stored in its xn-- form: said once, after the draft is made.
  const [savedAs, setSavedAs] = useState<string | null>(null);

  const submit = form.onSubmit(({ url }) => {
    const host = bareHost(url);
    form.setFieldValue('url', host);
    setSavedAs(null);
    if (host === '') {
      form.setFieldError('url', MSG_DOMAINS.incorrectFormat);
      return;
    }
    create.mutate(host, {
      onSuccess: (res) => {
        form.reset();
        selectDraft(res.data.id);
        if (res.data.host !== host) setSavedAs(MSG_DOMAINS.savedAsAscii(res.data.host, host));
      },
      onError: (err) => {
        if (!isApiError(err)) return;
        const byStatus: Record<number, string> = {
          400: MSG_DOMAINS.incorrectFormat,
          404: MSG_DOMAINS.assignedToAnother,
          // The server says where the team has it (My domains or the drafts).
          406: err.body.message || MSG_DOMAINS.alreadyVerifiedInTeam,
          409: err.body.message,
        };
        const msg = byStatus[err.status];
        if (msg) form.setFieldError('url', msg);
      },
    });
  });
  const error = form.errors.url;

  return (
    <Card withBorder p={cardPadding} component="section" aria-labelledby="add-domain-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <div>
            <Title order={2} fz="lg" id="add-domain-title">
              Add a domain
            </Title>
            <Text size="sm" c="dimmed">
              Enter your website address, e.g. example.com. A team can have up to {LIMITS.domainsPerTeam}{' '}
              domains.
            </Text>
          </div>
          <Group align="flex-start" gap="sm" wrap="nowrap">
            <TextInput
              label="Domain"
              placeholder="example.com"
              {...form.getInputProps('url')}
              style={{ flex: 1 }}
              disabled={!allowed || full}
              aria-invalid={error ? true : undefined}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              inputMode="url"
              rightSection={
                form.values.url ? (
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    aria-label="Clear input"
                    onClick={() => form.setFieldValue('url', '')}
                  >
                    <IconX size={14} />
                  </ActionIcon>
                ) : undefined
              }
            />
            <Button type="submit" mt={25} loading={create.isPending} disabled={!allowed || full}>
              {MSG_DOMAINS.check}
            </Button>
          </Group>
          {savedAs && (
            <Text size="sm" c="dimmed" role="status">
              {savedAs}
            </Text>
          )}
          {full && (
            <Text size="sm" c="orange">
              {MSG_DOMAINS.maxDomains}
            </Text>
          )}
        </Stack>
      </form>
    </Card>
  );
}

const METHOD_TABS = [
  { value: 'META', method: VerificationMethod.META },
  { value: 'HTML', method: VerificationMethod.HTML },
  { value: 'dnsTXT', method: VerificationMethod.dnsTXT },
  { value: 'CNAME', method: VerificationMethod.CNAME },
] as const;

function DraftSteps({
  draft,
  inx,
  state,
  setState,
}: {
  draft: TDomain;
  inx: number;
  state: VerifyState | null;
  setState: (s: VerifyState | null) => void;
}) {
  const { currentTeam } = useSession();
  const team = currentTeam as NonNullable<typeof currentTeam>;
  const policy = usePolicy(team);
  const verified = isVerifiedDraft(draft);
  const allowed = policy.can('domains.manage');
  // The server refuses the instructions to whoever may not manage domains (a suspended team is
  // view-only): a view-only screen does not ask for them.
  const instructions = useInstructions(team.id, draft.id, !verified && allowed);
  const verify = useVerifyDomain(team.id);
  const promote = usePromoteDomain(team.id);
  const [, selectDraft] = useDraftSelection();
  const supervisor = policy.can('domains.supervise');

  const run = (method: number) => {
    setState({ status: 'verifying' });
    // mutateAsync: the result still lands when the user has switched to another draft meanwhile.
    return verify
      .mutateAsync({ id: draft.id, method, inx })
      .then(() => setState({ status: 'success' }))
      .catch((err: unknown) => {
        if (isApiError(err) && err.status === 400)
          setState({ status: 'error', message: MSG_DOMAINS.verificationFailed });
        else if (isApiError(err) && (err.status === 404 || err.status === 409))
          setState({ status: 'error', message: err.body.message });
        else setState(null);
      });
  };
  const verifying = state?.status === 'verifying';

  return (
    <>
      <Card withBorder p={cardPadding} component="section" aria-labelledby="draft-title">
        <Stack gap="lg">
          <Group justify="space-between" align="flex-end" gap="sm">
            <TextInput
              label="Current draft"
              value={draft.url}
              readOnly
              variant="filled"
              style={{ flex: 1, minWidth: 220 }}
              rightSection={
                verified ? (
                  <IconCircleCheck size={20} color="var(--mantine-color-teal-6)" aria-label="Verified" />
                ) : undefined
              }
            />
            <Badge color={verified ? 'teal' : 'gray'} variant="light" size="lg" radius="sm">
              {verified ? 'Verified' : 'Not verified'}
            </Badge>
          </Group>

          <div>
            <Title order={2} fz="lg" id="draft-title">
              Step 1. Verify that the domain is yours
            </Title>
            <Text size="sm" c="dimmed">
              Choose one method, publish the data shown on your domain, then press Verify.
            </Text>
          </div>

          {state?.status === 'success' && (
            <Alert color="teal" variant="light" icon={<IconCircleCheck />}>
              {MSG_DOMAINS.verified}
            </Alert>
          )}

          {verified ? (
            <Group
              justify="space-between"
              p="md"
              style={{ borderRadius: 12, background: 'var(--mantine-color-teal-light)' }}
            >
              <Group gap="sm">
                <ThemeIcon color="teal" radius="xl" variant="light" size="lg">
                  <IconCircleCheck size={20} />
                </ThemeIcon>
                <div>
                  <Text fw={600}>{MSG_DOMAINS.draftVerified}</Text>
                  <Text size="sm" c="dimmed">
                    Confirm to move it to My domains.
                  </Text>
                </div>
              </Group>
              <Button
                color="teal"
                disabled={!allowed}
                loading={promote.isPending}
                onClick={() =>
                  promote.mutate(draft.id, {
                    onSuccess: () => {
                      setState(null);
                      selectDraft(null);
                    },
                  })
                }
              >
                Confirm
              </Button>
            </Group>
          ) : (
            <Tabs defaultValue="META" keepMounted={false}>
              <Tabs.List>
                {METHOD_TABS.map((t) => (
                  <Tabs.Tab key={t.value} value={t.value}>
                    {t.value}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              {METHOD_TABS.map((t) => (
                <Tabs.Panel key={t.value} value={t.value} pt="md">
                  <Stack gap="md">
                    {!allowed ? (
                      <Text size="sm" c="dimmed" data-testid="instructions-view-only">
                        The verification data is not shown while the team is view-only.
                      </Text>
                    ) : instructions.isPending ? (
                      <Skeleton h={80} />
                    ) : instructions.data ? (
                      <MethodInstructions tab={t.value} data={instructions.data} />
                    ) : (
                      <Text size="sm" c="dimmed">
                        The instructions could not be loaded.
                      </Text>
                    )}
                    {state?.status === 'error' ? (
                      <Alert color="red" variant="light" icon={<IconAlert />}>
                        <Stack gap="xs" align="flex-start">
                          <Text size="sm">{state.message}</Text>
                          <Button size="xs" variant="light" color="red" onClick={() => setState(null)}>
                            {MSG_DOMAINS.tryAgain}
                          </Button>
                        </Stack>
                      </Alert>
                    ) : (
                      <VerifyButton
                        onClick={() => run(t.method)}
                        verifying={verifying}
                        disabled={!allowed}
                        host={draft.url}
                      />
                    )}
                  </Stack>
                </Tabs.Panel>
              ))}
            </Tabs>
          )}
          {supervisor && !verified && (
            <Group>
              <Button
                variant="outline"
                color="orange"
                onClick={() =>
                  openConfirm({
                    title: MSG_DOMAINS.verifyManually,
                    onConfirm: () => run(VerificationMethod.SupervisorBypass),
                    children: <Text>{MSG_DOMAINS.bypassConfirm}</Text>,
                  })
                }
                disabled={verifying}
              >
                {MSG_DOMAINS.verifyManually}
              </Button>
            </Group>
          )}
        </Stack>
      </Card>

      <PlayerStep draft={draft} />
    </>
  );
}

function MethodInstructions({
  tab,
  data,
}: {
  tab: (typeof METHOD_TABS)[number]['value'];
  data: NonNullable<ReturnType<typeof useInstructions>['data']>;
}) {
  if (tab === 'META')
    return (
      <Stack gap="sm">
        <Text size="sm">
          Add this meta tag inside the <code>&lt;head&gt;</code> of your home page:
        </Text>
        <CopyBlock label="Meta tag" value={data.meta.tag} />
      </Stack>
    );
  if (tab === 'HTML')
    return (
      <Stack gap="sm">
        <Text size="sm">
          Upload a file to the root of your website so that it opens at{' '}
          <Text span ff="monospace" size="sm">
            {data.html.url}
          </Text>
          :
        </Text>
        <CopyBlock label="File name" value={data.html.fileName} />
        <CopyBlock label="File content" value={data.html.content} />
      </Stack>
    );
  if (tab === 'dnsTXT')
    return (
      <Stack gap="sm">
        <Text size="sm">Add this TXT record to the DNS zone of your domain:</Text>
        <CopyBlock label="TXT name" value={data.dnsTxt.name} />
        <CopyBlock label="TXT value" value={data.dnsTxt.value} />
      </Stack>
    );
  return (
    <Stack gap="sm">
      <Text size="sm">Add this CNAME record to the DNS zone of your domain:</Text>
      <CopyBlock label="CNAME name" value={data.cname.name} />
      <CopyBlock label="CNAME target" value={data.cname.target} />
    </Stack>
  );
}

/**
 * Step 2: the player snippets (spec §2). The key is the draft's first active key, else the team's first
 * active key for every domain; "Generate new token" creates one (a team key: a draft has no keys of its own).
 */
