import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  digestFieldSha256,
  s3ChecksumSha256,
  sha256FromBase64,
  statedSha256,
} from '../src/features/integrity/digest.js';

/** Digest headers of RFC 9530 and S3, parsed as the integrity service reads them (no body fetched). */
const body = Buffer.from('a segment of video');
const hex = createHash('sha256').update(body).digest('hex');
const b64 = createHash('sha256').update(body).digest('base64');
const sha512 = createHash('sha512').update(body).digest('base64');

describe('RFC 9530 digest fields', () => {
  it('reads a well-formed sha-256 member', () => {
    expect(digestFieldSha256(`sha-256=:${b64}:`)).toBe(hex);
    expect(digestFieldSha256(`  sha-256=:${b64}:  `)).toBe(hex);
  });

  it('picks sha-256 among several algorithms, in any order, parameters allowed', () => {
    expect(digestFieldSha256(`sha-512=:${sha512}:, sha-256=:${b64}:`)).toBe(hex);
    expect(digestFieldSha256(`sha-256=:${b64}:;x=1,unixsum=42`)).toBe(hex);
    // Several header lines are one dictionary.
    expect(digestFieldSha256([`sha-512=:${sha512}:`, `sha-256=:${b64}:`])).toBe(hex);
  });

  it('gives nothing for another algorithm only', () => {
    expect(digestFieldSha256(`sha-512=:${sha512}:`)).toBeUndefined();
    expect(digestFieldSha256('md5=:rL0Y20zC+Fzt72VPzMSk2A==:')).toBeUndefined();
    expect(digestFieldSha256(undefined)).toBeUndefined();
  });

  it('ignores a malformed field or member', () => {
    for (const bad of [
      '',
      `sha-256=${b64}`, // a token, not a byte sequence
      `sha-256=:${b64}`, // unterminated
      `sha-256="${b64}"`,
      `SHA-256=:${b64}:`, // keys are lowercase
      `sha-256=:${b64}:,`, // empty member
      `!!!, sha-256=:${b64}:`, // the whole dictionary is invalid
      `sha-256=:${hex}:`, // hex, not base64
    ]) {
      expect(digestFieldSha256(bad), bad).toBeUndefined();
    }
  });

  it('refuses base64 of the wrong length or with stray bits', () => {
    const short = createHash('sha1').update(body).digest('base64');
    expect(digestFieldSha256(`sha-256=:${short}:`)).toBeUndefined();
    expect(digestFieldSha256(`sha-256=:${sha512}:`)).toBeUndefined();
    expect(digestFieldSha256(`sha-256=:${b64.replace('=', '')}:`)).toBeUndefined();
    expect(sha256FromBase64(b64)).toBe(hex);
    // 32 zero bytes end in "A="; "B=" decodes to the same bytes through non-zero padding bits.
    const zeros = Buffer.alloc(32).toString('base64');
    expect(sha256FromBase64(zeros)).toBe('0'.repeat(64));
    expect(sha256FromBase64(`${zeros.slice(0, 42)}B=`)).toBeUndefined();
  });

  it('keeps the last of a key given twice (RFC 8941)', () => {
    const other = createHash('sha256').update('other').digest('base64');
    expect(digestFieldSha256(`sha-256=:${other}:, sha-256=:${b64}:`)).toBe(hex);
    expect(digestFieldSha256(`sha-256=:${b64}:, sha-256=?1`)).toBeUndefined();
  });
});

describe("S3's x-amz-checksum-sha256", () => {
  it("uses a single-part object's checksum", () => {
    expect(s3ChecksumSha256({ 'x-amz-checksum-sha256': b64 })).toBe(hex);
    expect(s3ChecksumSha256({ 'x-amz-checksum-sha256': b64, 'x-amz-checksum-type': 'FULL_OBJECT' })).toBe(
      hex,
    );
  });

  it("ignores a multipart object's checksum of checksums", () => {
    expect(s3ChecksumSha256({ 'x-amz-checksum-sha256': `${b64}-3` })).toBeUndefined();
    expect(
      s3ChecksumSha256({ 'x-amz-checksum-sha256': b64, 'x-amz-checksum-type': 'COMPOSITE' }),
    ).toBeUndefined();
  });

  it('ignores a malformed one', () => {
    expect(s3ChecksumSha256({ 'x-amz-checksum-sha256': hex })).toBeUndefined();
    expect(s3ChecksumSha256({ 'x-amz-checksum-sha256': 'abc' })).toBeUndefined();
  });
});

describe('statedSha256', () => {
  it('reads Repr-Digest and S3 on a HEAD, Content-Digest only on a GET', () => {
    expect(statedSha256({ 'repr-digest': `sha-256=:${b64}:` }, 'HEAD')).toBe(hex);
    expect(statedSha256({ 'x-amz-checksum-sha256': b64 }, 'HEAD')).toBe(hex);
    expect(statedSha256({ 'content-digest': `sha-256=:${b64}:` }, 'HEAD')).toBeUndefined();
    expect(statedSha256({ 'content-digest': `sha-256=:${b64}:` }, 'GET')).toBe(hex);
    expect(statedSha256({ 'repr-digest': `sha-512=:${sha512}:` }, 'GET')).toBeUndefined();
  });

  it('falls through a malformed field to the next source', () => {
    expect(statedSha256({ 'repr-digest': 'garbage', 'x-amz-checksum-sha256': b64 }, 'HEAD')).toBe(hex);
  });

  it('ignores digests of a compressed answer', () => {
    expect(
      statedSha256({ 'repr-digest': `sha-256=:${b64}:`, 'content-encoding': 'gzip' }, 'HEAD'),
    ).toBeUndefined();
    expect(statedSha256({ 'repr-digest': `sha-256=:${b64}:`, 'content-encoding': 'identity' }, 'HEAD')).toBe(
      hex,
    );
  });
});
