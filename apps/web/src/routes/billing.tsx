import { LoaderLogo } from '../platform/ui/LoaderLogo';

/** /billing shows only a loader (spec §2). */
export default function BillingRoute() {
  return <LoaderLogo />;
}
