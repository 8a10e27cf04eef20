import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

// The ASN.1 pieces both signing and verifying share: object identifiers,
// the crypto engine PKI.js runs on, names, and the ECDSA signature shapes.

export const OID = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingTime: "1.2.840.113549.1.9.5",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  signingCertificate: "1.2.840.113549.1.9.16.2.12",
  rsaEncryption: "1.2.840.113549.1.1.1",
  rsaPss: "1.2.840.113549.1.1.10",
  sha256WithRsa: "1.2.840.113549.1.1.11",
  ecPublicKey: "1.2.840.10045.2.1",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  sha256: "2.16.840.1.101.3.4.2.1",
  subjectKeyIdentifier: "2.5.29.14",
  basicConstraints: "2.5.29.19",
} as const;

export const HASH_BY_OID: Record<string, "SHA-1" | "SHA-256" | "SHA-384" | "SHA-512"> = {
  "1.3.14.3.2.26": "SHA-1",
  "2.16.840.1.101.3.4.2.1": "SHA-256",
  "2.16.840.1.101.3.4.2.2": "SHA-384",
  "2.16.840.1.101.3.4.2.3": "SHA-512",
};

export const CURVE_BY_OID: Record<string, { name: "P-256" | "P-384" | "P-521"; bytes: number }> = {
  "1.2.840.10045.3.1.7": { name: "P-256", bytes: 32 },
  "1.3.132.0.34": { name: "P-384", bytes: 48 },
  "1.3.132.0.35": { name: "P-521", bytes: 66 },
};

// PKI.js keeps a process-wide engine keyed on `process.pid` under
// nodejs_compat; handing every call this one avoids depending on that global.
let engine: pkijs.ICryptoEngine | undefined;
export function cryptoEngine(): pkijs.ICryptoEngine {
  // workers-types' Crypto and lib.dom's differ only in typing.
  engine ??= new pkijs.CryptoEngine({ name: "webcrypto", crypto: crypto as unknown as globalThis.Crypto }) as unknown as pkijs.ICryptoEngine;
  return engine;
}

export const toBytes = (b: ArrayBuffer | ArrayBufferView): Uint8Array =>
  b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

export const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** Parses one DER/BER value, or null when the bytes are not ASN.1. Trailing bytes (a /Contents hole's zero padding) are ignored. */
export function parseAsn1(bytes: Uint8Array): asn1js.AsnType | null {
  const parsed = asn1js.fromBER(bytes.slice());
  return parsed.offset === -1 ? null : parsed.result;
}

const SHORT_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.4": "SN",
  "2.5.4.5": "SERIALNUMBER",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.9": "STREET",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.12": "T",
  "2.5.4.42": "GN",
  "2.5.4.97": "organizationIdentifier",
  "1.2.840.113549.1.9.1": "E",
  "0.9.2342.19200300.100.1.25": "DC",
};

const attrText = (v: pkijs.AttributeTypeAndValue): string => {
  const value = v.value as { valueBlock?: { value?: unknown } };
  const raw = value.valueBlock?.value;
  return typeof raw === "string" ? raw : hex(toBytes(v.value.toBER()));
};

/** A distinguished name as RFC 4514 writes it (most specific first), and its CN and O. */
export function describeName(name: pkijs.RelativeDistinguishedNames): { dn: string; cn: string | null; o: string | null } {
  const parts = name.typesAndValues.map((t) => ({ key: SHORT_NAMES[t.type] ?? t.type, value: attrText(t) }));
  const esc = (s: string) => s.replace(/([,+"\\<>;=])/g, "\\$1");
  return {
    dn: [...parts]
      .reverse()
      .map((p) => `${p.key}=${esc(p.value)}`)
      .join(", "),
    cn: parts.find((p) => p.key === "CN")?.value ?? null,
    o: parts.find((p) => p.key === "O")?.value ?? null,
  };
}

/** WebCrypto's ECDSA output is r||s; CMS carries ECDSA-Sig-Value, a DER SEQUENCE of two INTEGERs (RFC 5753, 3279). */
export function ecdsaRawToDer(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2;
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    const v = b.slice(i);
    return new asn1js.Integer({ valueHex: v[0] & 0x80 ? new Uint8Array([0, ...v]) : v });
  };
  return toBytes(new asn1js.Sequence({ value: [int(raw.slice(0, half)), int(raw.slice(half))] }).toBER());
}

/** The reverse, each integer left-padded to the curve's size; null when the bytes are not an ECDSA-Sig-Value. */
export function ecdsaDerToRaw(der: Uint8Array, size: number): Uint8Array | null {
  const seq = parseAsn1(der);
  if (!(seq instanceof asn1js.Sequence) || seq.valueBlock.value.length !== 2) return null;
  const out = new Uint8Array(size * 2);
  for (const [i, part] of seq.valueBlock.value.entries()) {
    if (!(part instanceof asn1js.Integer)) return null;
    let v = part.valueBlock.valueHexView;
    while (v.length > size && v[0] === 0) v = v.subarray(1);
    if (v.length > size) return null;
    out.set(v, i * size + size - v.length);
  }
  return out;
}

export const certificateDer = (c: pkijs.Certificate): Uint8Array => toBytes(c.toSchema().toBER());

export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}
