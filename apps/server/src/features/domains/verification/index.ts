/** Domain ownership verification (DESIGN §6): the verifier, its copyable instructions and helpers. */
export { type AddressClass, classifyAddress, isPublicAddress } from './address.js';
export { isValidHash, newVerificationHash, normalizeHost } from './host.js';
export {
  cnameLabel,
  cnameName,
  cnameTarget,
  htmlFileName,
  instructions,
  metaTag,
  publicHostOf,
  txtValue,
  type VerificationInstructions,
} from './instructions.js';
export {
  CheckMethod,
  type CheckMethodId,
  createVerifier,
  DEFAULTS,
  VERIFICATION_FAILED_MESSAGE,
  type Verifier,
  type VerifierOptions,
  type VerifyResult,
  verifierOptionsFromConfig,
} from './verifier.js';
