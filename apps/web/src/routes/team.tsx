import { LoaderLogo } from '../platform/ui/LoaderLogo';

/** /team shows only a loader (spec §2). */
export default function TeamRoute() {
  return <LoaderLogo />;
}
