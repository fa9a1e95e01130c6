import { Button, Center, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ENDPOINTS, effectiveRole, MSG, type TTeamSummary, type TUser } from '@tlprt/contract';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { request } from '../api/client';
import { LoaderLogo } from '../ui/LoaderLogo';
import { pickCurrentTeam } from './currentTeam';
import { sessionKeys, useSessionCheck } from './queries';
import { getStoredTeamId, setStoredTeam, setStoredTeamId, setStoredUserId } from './storage';

interface Session {
  user: TUser;
  teams: TTeamSummary[];
  currentTeam: TTeamSummary | null;
  /** The user's role in the current team; the supervisor flag acts as 50 (spec §6). */
  role: number | null;
  selectTeam: (teamId: number) => void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside <SessionProvider>');
  return session;
}

/** Loads the session (GET /auth/v1/check) and keeps the current team; shows the loader logo meanwhile. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const check = useSessionCheck();
  const [teamId, setTeamId] = useState<number | null>(getStoredTeamId);

  const user = check.data;
  const teams = user?.TeamsRender ?? [];
  // A supervisor may make any team current (Team Management panel), also one they are not in: that
  // team is not in TeamsRender, so it is read on its own; if it is gone, the usual pick applies.
  const supervisedId =
    user?.supervisor && teamId !== null && !teams.some((t) => t.id === teamId) ? teamId : null;
  const supervised = useQuery({
    queryKey: [...sessionKeys.all, 'supervised-team', supervisedId],
    queryFn: ({ signal }) =>
      request(ENDPOINTS.teams.read, { params: { id: supervisedId as number }, popups: false, signal }),
    enabled: supervisedId !== null,
    retry: false,
    select: (r): TTeamSummary => r.data,
  });
  const currentTeam = user
    ? supervised.isLoading
      ? null
      : supervisedId !== null && supervised.data
        ? supervised.data
        : pickCurrentTeam(teams, teamId)
    : null;

  useEffect(() => {
    if (user) setStoredUserId(user.id);
  }, [user]);
  useEffect(() => {
    if (currentTeam) setStoredTeam(currentTeam);
  }, [currentTeam]);

  const selectTeam = useCallback(
    (id: number) => {
      // A team just joined or created may not be in TeamsRender yet: it becomes current once reloaded.
      const team = teams.find((t) => t.id === id);
      if (team) setStoredTeam(team);
      else setStoredTeamId(id);
      setTeamId(id);
      // Everything shown belongs to a team: reload it all for the new one.
      void queryClient.invalidateQueries();
    },
    [teams, queryClient],
  );

  const value = useMemo<Session | null>(() => {
    if (!user) return null;
    const role = effectiveRole(user, currentTeam?.role);
    return { user, teams, currentTeam, role, selectTeam };
  }, [user, teams, currentTeam, selectTeam]);

  if (check.isError && !user) {
    return (
      <Center mih="100dvh">
        <Stack align="center" gap="sm">
          <Text fw={600}>{MSG.serverErrorTitle}</Text>
          <Text c="dimmed">{MSG.serverErrorText}</Text>
          <Button variant="light" onClick={() => void check.refetch()} loading={check.isFetching}>
            Try again
          </Button>
        </Stack>
      </Center>
    );
  }
  if (!value || supervised.isLoading) return <LoaderLogo />;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
