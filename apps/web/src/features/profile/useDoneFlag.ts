import { TIMINGS } from '@tlprt/contract';
import { useEffect, useState } from 'react';
/** A "saved" line that clears itself after 3 s (spec §9 success-message timing). */
export function useDoneFlag(): [boolean, (v: boolean) => void] {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(false), TIMINGS.successMessageMs);
    return () => clearTimeout(t);
  }, [done]);
  return [done, setDone];
}
