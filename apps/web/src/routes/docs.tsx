import { IntegrationGuide } from '../features/guide/IntegrationGuide';

/** /docs — the integration guide (docs/DESIGN.md §11): public, readable without signing in. */
export default function DocsRoute() {
  return <IntegrationGuide />;
}
