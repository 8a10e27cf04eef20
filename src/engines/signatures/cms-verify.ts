import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { HASH_BY_OID, OID, certificateDer, describeName, hex, parseAsn1 } from "./asn1";
import { issuedBy, signatureAlgorithmName, verifySignature } from "./verify-signature";

// Checks a detached CMS SignedData against the bytes it claims to sign:
// the message-digest attribute against the hash of the byte range, the
// signature over the signed attributes with the signer's public key, and,
// when the caller gave trust anchors, a chain from the signer to one of them.

export interface CertificateSummary {
  subject: { cn: string | null; o: string | null; dn: string };
  issuer: string;
  serial: string;
  valid_from: string;
  valid_to: string;
}

export interface CmsReport {
  signer: CertificateSummary | null;
  digest_algorithm: string | null;
  signature_algorithm: string | null;
  cms_signing_time: string | null;
  has_signing_certificate_v2: boolean;
  digest_matches: boolean;
  signature_valid: boolean;
  chain: "not_checked" | "trusted" | "untrusted";
  problems: string[];
}

const MAX_CHAIN = 10;

/** What the tools report of a certificate: subject, issuer, serial, validity. */
export function certificateSummary(c: pkijs.Certificate): CertificateSummary {
  return {
    subject: describeName(c.subject),
    issuer: describeName(c.issuer).dn,
    serial: hex(c.serialNumber.valueBlock.valueHexView),
    valid_from: c.notBefore.value.toISOString(),
    valid_to: c.notAfter.value.toISOString(),
  };
}

function findSigner(si: pkijs.SignerInfo, certs: pkijs.Certificate[]): pkijs.Certificate | null {
  const sid = si.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) return certs.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber)) ?? null;
  // [0] SubjectKeyIdentifier: match the certificate's extension.
  const ski = sid instanceof asn1js.Primitive ? hex(sid.valueBlock.valueHexView) : "";
  return (
    certs.find((c) => {
      const ext = c.extensions?.find((e) => e.extnID === OID.subjectKeyIdentifier)?.parsedValue;
      return ext instanceof asn1js.OctetString && hex(ext.valueBlock.valueHexView) === ski;
    }) ?? null
  );
}

const attribute = (si: pkijs.SignerInfo, oid: string) => si.signedAttrs?.attributes.find((a) => a.type === oid);

async function chainTo(signer: pkijs.Certificate, pool: pkijs.Certificate[], anchors: pkijs.Certificate[]): Promise<boolean> {
  const anchorDer = new Set(anchors.map((a) => hex(certificateDer(a))));
  let current = signer;
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    if (anchorDer.has(hex(certificateDer(current)))) return true;
    for (const a of anchors) if (a.subject.isEqual(current.issuer) && (await issuedBy(current, a))) return true;
    let next: pkijs.Certificate | null = null;
    for (const c of pool) {
      if (c !== current && c.subject.isEqual(current.issuer) && (await issuedBy(current, c))) {
        next = c;
        break;
      }
    }
    // A self-signed certificate that is not an anchor ends the search.
    if (!next || next.subject.isEqual(next.issuer)) return false;
    current = next;
  }
  return false;
}

/** A report of nothing verified yet: what a signature that cannot be read answers. */
export function unverifiedReport(anchors: pkijs.Certificate[] | null, problems: string[] = []): CmsReport {
  return {
    signer: null,
    digest_algorithm: null,
    signature_algorithm: null,
    cms_signing_time: null,
    has_signing_certificate_v2: false,
    digest_matches: false,
    signature_valid: false,
    chain: anchors ? "untrusted" : "not_checked",
    problems,
  };
}

/** `signed` is what the /ByteRange covers, in order. */
export async function verifyCms(contents: Uint8Array, signed: Uint8Array, anchors: pkijs.Certificate[] | null): Promise<CmsReport> {
  const report = unverifiedReport(anchors);
  let sd: pkijs.SignedData;
  try {
    const asn = parseAsn1(contents);
    if (!asn) throw new Error("not ASN.1");
    const info = new pkijs.ContentInfo({ schema: asn });
    if (info.contentType !== OID.signedData) throw new Error("not SignedData");
    sd = new pkijs.SignedData({ schema: info.content });
  } catch {
    report.problems.push("The /Contents is not a CMS SignedData.");
    return report;
  }
  const si = sd.signerInfos[0];
  if (!si) {
    report.problems.push("The CMS has no signer.");
    return report;
  }
  if (sd.signerInfos.length > 1) report.problems.push("The CMS has more than one signer; only the first is checked.");
  const certs = (sd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const hash = HASH_BY_OID[si.digestAlgorithm.algorithmId];
  report.digest_algorithm = hash ?? si.digestAlgorithm.algorithmId;
  const alg = { oid: si.signatureAlgorithm.algorithmId, hash: hash ?? "SHA-256", params: si.signatureAlgorithm.algorithmParams };
  report.signature_algorithm = signatureAlgorithmName(alg);
  const signer = findSigner(si, certs);
  if (signer) report.signer = certificateSummary(signer);
  else report.problems.push("The signer's certificate is not in the CMS.");
  if (!hash) {
    report.problems.push(`Unsupported digest algorithm ${si.digestAlgorithm.algorithmId}.`);
    return report;
  }
  const digest = new Uint8Array(await crypto.subtle.digest(hash, signed));
  const time = attribute(si, OID.signingTime)?.values[0];
  if (time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime) report.cms_signing_time = time.toDate().toISOString();
  report.has_signing_certificate_v2 = attribute(si, OID.signingCertificateV2) !== undefined;

  let toVerify: Uint8Array;
  if (si.signedAttrs) {
    const md = attribute(si, OID.messageDigest)?.values[0];
    report.digest_matches = md instanceof asn1js.OctetString && hex(md.valueBlock.valueHexView) === hex(digest);
    // The signature covers the attributes' DER with the SET tag, not the [0] they are carried under (RFC 5652, 5.4).
    toVerify = new Uint8Array(si.signedAttrs.encodedValue).slice();
    toVerify[0] = 0x31;
  } else {
    // No signed attributes (old adbe.pkcs7.detached writers): the signature is over the content itself.
    report.digest_matches = true;
    toVerify = signed;
  }
  if (signer) report.signature_valid = await verifySignature(signer, alg, si.signature.valueBlock.valueHexView, toVerify);
  if (anchors && signer) report.chain = (await chainTo(signer, certs, anchors)) ? "trusted" : "untrusted";
  return report;
}

/** Trust anchors from PEM (one or more BEGIN CERTIFICATE blocks) or DER uploads; null for a file that holds none. */
export function parseCertificates(bytes: Uint8Array): pkijs.Certificate[] | null {
  const text = new TextDecoder("latin1").decode(bytes);
  const pem = [...text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
  const ders = pem.length ? pem.map((m) => Uint8Array.from(atob(m[1].replace(/\s+/g, "")), (c) => c.charCodeAt(0))) : [bytes];
  try {
    return ders.map((der) => {
      const asn = parseAsn1(der);
      if (!asn) throw new Error("not ASN.1");
      return new pkijs.Certificate({ schema: asn });
    });
  } catch {
    return null;
  }
}
