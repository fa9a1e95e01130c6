import { LoaderLogo } from '../components/LoaderLogo';

/** /team shows only a loader (spec §2). */
export default function TeamRoute() {
  return <LoaderLogo />;
}
