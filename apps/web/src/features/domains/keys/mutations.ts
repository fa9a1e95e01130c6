import { useDomainsMutation } from '../mutations';
import { keysApi, type SupervisorLayer, type SupervisorSettingInput } from './api';

/** Every key change refetches domains (they carry their keys) and keys. */
export const useCreateKey = (teamId: number) =>
  useDomainsMutation((domainId: number) => keysApi.create(teamId, domainId));
export const useRenameKey = (teamId: number) =>
  useDomainsMutation(({ id, name }: { id: number; name: string }) => keysApi.rename(teamId, id, name));
export const useToggleKey = (teamId: number) =>
  useDomainsMutation((id: number) => keysApi.toggleActive(teamId, id));
export const useDeleteKey = (teamId: number) =>
  useDomainsMutation((id: number) => keysApi.remove(teamId, id));
export const useSuspendKey = (teamId: number) =>
  useDomainsMutation((id: number) => keysApi.suspend(teamId, id));
export const useSetSupervisorSettings = (teamId: number) =>
  useDomainsMutation(
    ({
      layer,
      domainId,
      keyId,
      settings,
    }: {
      layer: SupervisorLayer;
      domainId: number | null;
      keyId: number;
      settings: SupervisorSettingInput[];
    }) => keysApi.setSupervisorSettings(teamId, layer, { domainId, keyId, teamId, settings }),
  );
