/** Domain ownership verification (docs/DESIGN.md §6): the verifier, its copyable instructions and helpers. */
export { type AddressClass, classifyAddress, isPublicAddress } from '../../../net/address.js';
export { normalizeHost } from '../../../net/host.js';
export { isValidHash, newVerificationHash } from './host.js';
export {
  instructions,
  type VerificationInstructions,
} from './instructions.js';
export {
  type CheckMethodId,
  createVerifier,
  type Verifier,
  type VerifierOptions,
  verifierOptionsFromConfig,
} from './verifier.js';
