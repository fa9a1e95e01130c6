import { Role } from '@tlprt/contract';

/** Invitation role colours of spec §2 / §9: Key master blue, Admin gold, Viewer gray. */
export function roleColor(role: number): string {
  if (role === Role.KeyMaster) return 'blue';
  if (role === Role.Admin) return 'yellow';
  if (role === Role.Viewer) return 'gray';
  return 'grape';
}
