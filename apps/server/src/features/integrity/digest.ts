import type { IncomingHttpHeaders } from 'node:http';

/**
 * A segment's SHA-256 as its origin states it in a response header, so that the integrity service can
 * skip the body: RFC 9530's `Repr-Digest` and `Content-Digest` (Structured Field dictionaries, one
 * member per algorithm), and S3's `x-amz-checksum-sha256` (answered when asked with
 * `x-amz-checksum-mode: ENABLED`). Anything not exactly well-formed is ignored: a digest that cannot be
 * read only costs a fetch of the body, one read wrongly would refuse every peer's bytes.
 */

/** Base64 of 32 bytes: 43 characters and one `=` of padding. */
const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;
/** One dictionary member: a key (RFC 8941 §3.1.2), then an optional `=value` and parameters. */
const MEMBER = /^([a-z*][a-z0-9_.*-]*)(?:=(.*)|\s*;.*)?$/;
/** A byte sequence value (`:base64:`), optionally followed by parameters. */
const BYTE_SEQUENCE = /^:([A-Za-z0-9+/=]*):(?:\s*;.*)?$/;
/** S3 marks a checksum of checksums (a multipart upload's) with the part count: `…=-12`. */
const MULTIPART_SUFFIX = /-\d+$/;

/** The hex of a base64 SHA-256, or undefined when it is not exactly one (wrong length, stray bits). */
export function sha256FromBase64(value: string): string | undefined {
  if (!SHA256_BASE64.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  // The last character carries 2 bits that must be zero: a non-canonical form is not trusted.
  if (bytes.length !== 32 || bytes.toString('base64') !== value) return undefined;
  return bytes.toString('hex');
}

/**
 * The sha-256 member of an RFC 9530 digest field (`sha-256=:<base64>:`), as hex. Other algorithms are
 * skipped; a field that is not a well-formed dictionary gives nothing (RFC 8941: the whole field is
 * ignored), as does a sha-256 member that is not a byte sequence of 32 bytes. Several header lines are
 * one dictionary (Node joins them with commas); a key given twice keeps its last value.
 */
export function digestFieldSha256(field: string | string[] | undefined): string | undefined {
  if (field === undefined) return undefined;
  const text = Array.isArray(field) ? field.join(',') : field;
  let sha256: string | undefined;
  let found = false;
  // Base64 has no comma and a digest field carries no strings, so members split on commas.
  for (const raw of text.split(',')) {
    const member = raw.trim();
    if (member === '') return undefined;
    const m = MEMBER.exec(member);
    if (!m) return undefined;
    if (m[1] !== 'sha-256') continue;
    found = true;
    const bytes = BYTE_SEQUENCE.exec(m[2] ?? '');
    sha256 = bytes ? sha256FromBase64(bytes[1] ?? '') : undefined;
  }
  return found ? sha256 : undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 1 ? value[0]?.trim() : undefined;
  return value?.trim();
}

/**
 * S3's SHA-256 of a single-part object, as hex. A multipart object's checksum is a hash of its parts'
 * hashes (`-N` at the end, or `x-amz-checksum-type: COMPOSITE`), not the file's: ignored.
 */
export function s3ChecksumSha256(headers: IncomingHttpHeaders): string | undefined {
  const value = single(headers['x-amz-checksum-sha256']);
  if (value === undefined || MULTIPART_SUFFIX.test(value)) return undefined;
  if (single(headers['x-amz-checksum-type'])?.toUpperCase() === 'COMPOSITE') return undefined;
  return sha256FromBase64(value);
}

/** The answer is the file's bytes as they are: a digest of a compressed form is not the segment's. */
function identityEncoded(headers: IncomingHttpHeaders): boolean {
  const encoding = single(headers['content-encoding'])?.toLowerCase();
  return encoding === undefined || encoding === '' || encoding === 'identity';
}

/**
 * The whole file's SHA-256 (hex) that a response states, or undefined. A HEAD has no content, so only
 * the representation's digest and S3's checksum count there; a whole-file GET's Content-Digest is the
 * file's too. Never used for a byte range: every digest covers the whole file.
 */
export function statedSha256(headers: IncomingHttpHeaders, method: 'HEAD' | 'GET'): string | undefined {
  if (!identityEncoded(headers)) return undefined;
  return (
    digestFieldSha256(headers['repr-digest']) ??
    (method === 'GET' ? digestFieldSha256(headers['content-digest']) : undefined) ??
    s3ChecksumSha256(headers)
  );
}
