import { PasswordLinkScreen } from './createPassword';

/** /resPassword/{hash} — "Reset password" from the recovery mail; then /settings. */
export default function ResPasswordRoute() {
  return <PasswordLinkScreen mode="reset" />;
}
