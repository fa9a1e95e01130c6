import { PASSWORD_LINK_KINDS } from '@tlprt/contract';
import type { LoaderFunctionArgs } from 'react-router';
import { api } from '../platform/api/client';

export interface HashCheck {
  hash: string;
  valid: boolean;
}

/** Spec §2: /createPassword and /resPassword first check the hash ("hash valid" only). */
export async function hashLoader({ params, request }: LoaderFunctionArgs): Promise<HashCheck> {
  const hash = params.hash ?? '';
  return { hash, valid: hash !== '' && (await api.checkHash(hash, PASSWORD_LINK_KINDS, request.signal)) };
}
