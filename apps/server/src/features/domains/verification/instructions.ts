import { normalizeHost } from '../../../net/host.js';
import { META_NAME } from './meta.js';

/** The copyable texts of the Add-domain screen, one block per verification tab. */
export interface VerificationInstructions {
  /** Method 4: a tag to paste into the <head> of the home page. */
  meta: { tag: string };
  /** Method 3: a file to upload to the site's root. */
  html: { fileName: string; content: string; url: string };
  /** Method 2: a TXT record on the domain itself. */
  dnsTxt: { name: string; type: 'TXT'; value: string };
  /** Method 1: a CNAME record on a sub-name made of the hash. */
  cname: { name: string; type: 'CNAME'; target: string };
}

function metaTag(hash: string): string {
  return `<meta name="${META_NAME}" content="${hash}">`;
}

export function htmlFileName(hash: string): string {
  return `tlprt-${hash}.html`;
}

export function txtValue(hash: string): string {
  return `${META_NAME}=${hash}`;
}

/** The first label of the CNAME name; DNS limits it to 63 characters. */
export function cnameLabel(hash: string): string {
  return `tlprt-${hash}`;
}

export function cnameName(host: string, hash: string): string {
  return `${cnameLabel(hash)}.${host}`;
}

/** `verify.` + the host of PUBLIC_URL, lower-case, without a trailing dot. */
export function cnameTarget(publicHost: string): string {
  return `verify.${cleanPublicHost(publicHost)}`;
}

/**
 * Texts for `host` and `hash`. They are computed for whatever the caller stored; a host that is not
 * a valid bare name is shown lower-cased as given rather than refused, since the screen only displays it.
 */
export function instructions(host: string, hash: string, publicHost: string): VerificationInstructions {
  const bareHost = normalizeHost(host) ?? host.trim().toLowerCase();
  return {
    meta: { tag: metaTag(hash) },
    html: { fileName: htmlFileName(hash), content: hash, url: `https://${bareHost}/${htmlFileName(hash)}` },
    dnsTxt: { name: bareHost, type: 'TXT', value: txtValue(hash) },
    cname: { name: cnameName(bareHost, hash), type: 'CNAME', target: cnameTarget(publicHost) },
  };
}

function cleanPublicHost(publicHost: string): string {
  return publicHost.trim().toLowerCase().replace(/\.$/, '');
}
