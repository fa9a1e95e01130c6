/** Domain ownership verification (docs/DESIGN.md §6): the verifier, its copyable instructions and helpers. */
export { normalizeHost } from '../../../net/host.js';
export { newVerificationHash } from './host.js';
export type { VerificationInstructions } from './instructions.js';
export {
  type CheckMethodId,
  createVerifier,
  type Verifier,
  type VerifierOptions,
  verifierOptionsFromConfig,
} from './verifier.js';
