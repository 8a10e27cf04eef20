import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { CURVE_BY_OID, HASH_BY_OID, OID, ecdsaDerToRaw, toBytes } from "./asn1";

// One signature checked with a certificate's public key through WebCrypto:
// RSA PKCS#1 v1.5, RSA-PSS and ECDSA on P-256/P-384/P-521. Used for the CMS
// signature over the signed attributes and for each link of a chain.

type Hash = "SHA-1" | "SHA-256" | "SHA-384" | "SHA-512";

export interface SignatureAlgorithm {
  /** The signature algorithm's OID (rsaEncryption, sha256WithRSAEncryption, id-RSASSA-PSS, ecdsa-with-SHA256...). */
  oid: string;
  /** The digest to use when the OID does not name one (rsaEncryption, id-ecPublicKey as CMS writers put them). */
  hash: Hash;
  params?: asn1js.AsnType;
}

const PKCS1: Record<string, Hash> = {
  "1.2.840.113549.1.1.5": "SHA-1",
  "1.2.840.113549.1.1.11": "SHA-256",
  "1.2.840.113549.1.1.12": "SHA-384",
  "1.2.840.113549.1.1.13": "SHA-512",
};
const ECDSA: Record<string, Hash> = {
  "1.2.840.10045.4.1": "SHA-1",
  "1.2.840.10045.4.3.2": "SHA-256",
  "1.2.840.10045.4.3.3": "SHA-384",
  "1.2.840.10045.4.3.4": "SHA-512",
};

/** A readable name of the signature algorithm, for the verify answer. */
export function signatureAlgorithmName(alg: SignatureAlgorithm): string {
  if (alg.oid === OID.rsaEncryption || PKCS1[alg.oid]) return `RSA PKCS#1 v1.5 with ${PKCS1[alg.oid] ?? alg.hash}`;
  if (alg.oid === OID.rsaPss) return `RSA-PSS with ${pssParams(alg.params).hash}`;
  if (alg.oid === OID.ecPublicKey || ECDSA[alg.oid]) return `ECDSA with ${ECDSA[alg.oid] ?? alg.hash}`;
  return alg.oid;
}

function pssParams(params: asn1js.AsnType | undefined): { hash: Hash; saltLength: number } {
  // RFC 4055 defaults: SHA-1 and a 20-byte salt.
  if (!(params instanceof asn1js.Sequence)) return { hash: "SHA-1", saltLength: 20 };
  const p = new pkijs.RSASSAPSSParams({ schema: params });
  return { hash: HASH_BY_OID[p.hashAlgorithm.algorithmId] ?? "SHA-1", saltLength: p.saltLength };
}

/** True when `signature` over `data` verifies with the certificate's key; false for a wrong signature or an algorithm we cannot check. */
export async function verifySignature(cert: pkijs.Certificate, alg: SignatureAlgorithm, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  const spki = cert.subjectPublicKeyInfo;
  const spkiDer = toBytes(spki.toSchema().toBER());
  try {
    if (spki.algorithm.algorithmId === OID.rsaEncryption || spki.algorithm.algorithmId === OID.rsaPss) {
      if (alg.oid === OID.rsaPss) {
        const { hash, saltLength } = pssParams(alg.params);
        const key = await crypto.subtle.importKey("spki", spkiDer, { name: "RSA-PSS", hash }, false, ["verify"]);
        return await crypto.subtle.verify({ name: "RSA-PSS", saltLength }, key, signature, data);
      }
      const hash = PKCS1[alg.oid] ?? (alg.oid === OID.rsaEncryption ? alg.hash : undefined);
      if (!hash) return false;
      const key = await crypto.subtle.importKey("spki", spkiDer, { name: "RSASSA-PKCS1-v1_5", hash }, false, ["verify"]);
      return await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key, signature, data);
    }
    if (spki.algorithm.algorithmId === OID.ecPublicKey) {
      const params = spki.algorithm.algorithmParams;
      const curve = params instanceof asn1js.ObjectIdentifier ? CURVE_BY_OID[params.valueBlock.toString()] : undefined;
      const hash = ECDSA[alg.oid] ?? (alg.oid === OID.ecPublicKey ? alg.hash : undefined);
      if (!curve || !hash) return false;
      const raw = ecdsaDerToRaw(signature, curve.bytes);
      if (!raw) return false;
      const key = await crypto.subtle.importKey("spki", spkiDer, { name: "ECDSA", namedCurve: curve.name }, false, ["verify"]);
      return await crypto.subtle.verify({ name: "ECDSA", hash }, key, raw, data);
    }
  } catch {
    // A key WebCrypto refuses to import cannot vouch for anything.
    return false;
  }
  return false;
}

/** Whether `issuer`'s key signed `cert`. */
export function issuedBy(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  const alg = { oid: cert.signatureAlgorithm.algorithmId, hash: "SHA-256" as const, params: cert.signatureAlgorithm.algorithmParams };
  return verifySignature(issuer, alg, cert.signatureValue.valueBlock.valueHexView, cert.tbsView);
}
