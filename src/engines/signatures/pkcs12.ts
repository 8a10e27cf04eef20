import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { CURVE_BY_OID, OID, certificateDer, cryptoEngine, ecdsaRawToDer, hex, parseAsn1, toBytes } from "./asn1";
import { verifySignature } from "./verify-signature";

// Reads the caller's PKCS#12 (RFC 7292) into a non-extractable WebCrypto key
// and its certificates. The key lives only in this call's memory: nothing
// here stores, logs or returns it.

export type CertificateProblem = "password_incorrect" | "invalid" | "unsupported";

/** What is wrong with the uploaded certificate file; the tool maps each kind to its own code. */
export class CertificateError extends Error {
  constructor(
    readonly kind: CertificateProblem,
    message: string,
  ) {
    super(message);
    this.name = "CertificateError";
  }
}

export type KeyKind = "rsa" | "ecdsa";

export interface Signer {
  key: CryptoKey;
  kind: KeyKind;
  /** The signature algorithm CMS names for what `sign` produces. */
  signatureOid: string;
  certificate: pkijs.Certificate;
  /** The other certificates of the file (intermediates, maybe the root), carried in the CMS so verifiers can build the chain. */
  chain: pkijs.Certificate[];
  /** Signs with SHA-256 and answers the bytes CMS carries (DER ECDSA-Sig-Value for ECDSA). */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

const ENCRYPTED_DATA = "1.2.840.113549.1.7.6";
const KEY_BAG = "1.2.840.113549.1.12.10.1.1";
const SHROUDED_KEY_BAG = "1.2.840.113549.1.12.10.1.2";
const CERT_BAG = "1.2.840.113549.1.12.10.1.3";
const LOCAL_KEY_ID = "1.2.840.113549.1.9.21";
const PBES2 = "1.2.840.113549.1.5.13";
/** pbeWithSHAAnd3-KeyTripleDES-CBC, pbeWithSHAAnd40BitRC2-CBC and kin (RFC 7292, appendix C): WebCrypto has neither cipher. */
const LEGACY_PBE = "1.2.840.113549.1.12.1.";

const LEGACY_MESSAGE =
  "This PKCS#12 file is encrypted with a legacy cipher (3DES or RC2, as OpenSSL 1.x and older Windows exports write). Re-export it with AES-256: `openssl pkcs12 -in old.p12 -nodes | openssl pkcs12 -export -out new.p12` (OpenSSL 3's default), or choose AES256-SHA256 in the Windows export dialog.";

function checkCipher(algorithmId: string): void {
  if (algorithmId.startsWith(LEGACY_PBE)) throw new CertificateError("unsupported", LEGACY_MESSAGE);
  if (algorithmId !== PBES2) throw new CertificateError("unsupported", `The PKCS#12 file uses an encryption this service cannot read (${algorithmId}).`);
}

function parsePfx(bytes: Uint8Array): pkijs.PFX {
  const asn = parseAsn1(bytes);
  try {
    if (!asn) throw new Error("not ASN.1");
    return new pkijs.PFX({ schema: asn });
  } catch {
    throw new CertificateError("invalid", "The certificate file is not a PKCS#12 (.p12/.pfx) file.");
  }
}

interface Bags {
  keys: { info: pkijs.PrivateKeyInfo; localKeyId: string | null }[];
  certs: { cert: pkijs.Certificate; localKeyId: string | null }[];
}

const localKeyId = (bag: pkijs.SafeBag): string | null => {
  const attr = bag.bagAttributes?.find((a) => a.type === LOCAL_KEY_ID);
  const v = attr?.values[0];
  return v instanceof asn1js.OctetString ? hex(v.valueBlock.valueHexView) : null;
};

async function openBags(pfx: pkijs.PFX, password: ArrayBuffer): Promise<Bags> {
  const engine = cryptoEngine();
  try {
    // The MAC (a password-keyed HMAC over the contents) is what tells a wrong password from a damaged file.
    await pfx.parseInternalValues({ password, checkIntegrity: pfx.macData !== undefined }, engine);
  } catch (err) {
    if (err instanceof Error && /Integrity/.test(err.message)) throw new CertificateError("password_incorrect", "The certificate password is wrong.");
    throw new CertificateError("invalid", "The PKCS#12 file could not be read (only password-integrity files are supported).");
  }
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (!safe) throw new CertificateError("invalid", "The PKCS#12 file has no contents.");
  const params = safe.safeContents.map((ci) => {
    if (ci.contentType !== ENCRYPTED_DATA) return {};
    // Read from a copy: PKI.js's schema matching marks the ASN.1 it is given, and would refuse it when parsing it again below.
    const copy = asn1js.fromBER(ci.content.toBER()).result;
    checkCipher(new pkijs.EncryptedData({ schema: copy }).encryptedContentInfo.contentEncryptionAlgorithm.algorithmId);
    return { password };
  });
  try {
    await safe.parseInternalValues({ safeContents: params }, engine);
  } catch {
    // Without a MAC a bad password first shows as a failed decryption.
    throw new CertificateError(
      pfx.macData ? "invalid" : "password_incorrect",
      pfx.macData ? "The PKCS#12 contents could not be decrypted." : "The certificate password is wrong.",
    );
  }
  const out: Bags = { keys: [], certs: [] };
  for (const contents of safe.parsedValue?.safeContents ?? []) {
    for (const bag of contents.value.safeBags) {
      if (bag.bagId === SHROUDED_KEY_BAG) {
        const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
        checkCipher(shrouded.encryptionAlgorithm.algorithmId);
        out.keys.push({ info: await decryptKey(shrouded, password), localKeyId: localKeyId(bag) });
      } else if (bag.bagId === KEY_BAG) {
        out.keys.push({ info: bag.bagValue as pkijs.PrivateKeyInfo, localKeyId: localKeyId(bag) });
      } else if (bag.bagId === CERT_BAG) {
        const parsed = (bag.bagValue as pkijs.CertBag).parsedValue;
        if (parsed instanceof pkijs.Certificate) out.certs.push({ cert: parsed, localKeyId: localKeyId(bag) });
      }
    }
  }
  return out;
}

async function decryptKey(bag: pkijs.PKCS8ShroudedKeyBag, password: ArrayBuffer): Promise<pkijs.PrivateKeyInfo> {
  const encrypted = new pkijs.EncryptedData({
    encryptedContentInfo: new pkijs.EncryptedContentInfo({ contentEncryptionAlgorithm: bag.encryptionAlgorithm, encryptedContent: bag.encryptedData }),
  });
  let plain: ArrayBuffer;
  try {
    plain = await encrypted.decrypt({ password }, cryptoEngine());
  } catch {
    throw new CertificateError("password_incorrect", "The certificate password is wrong.");
  }
  try {
    return pkijs.PrivateKeyInfo.fromBER(plain);
  } catch {
    throw new CertificateError("invalid", "The private key in the PKCS#12 file could not be read.");
  }
}

async function importKey(info: pkijs.PrivateKeyInfo): Promise<{ key: CryptoKey; kind: KeyKind }> {
  const pkcs8 = toBytes(info.toSchema().toBER());
  const alg = info.privateKeyAlgorithm.algorithmId;
  try {
    if (alg === OID.rsaEncryption) {
      return { key: await crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]), kind: "rsa" };
    }
    if (alg === OID.ecPublicKey) {
      const params = info.privateKeyAlgorithm.algorithmParams;
      const curve = params instanceof asn1js.ObjectIdentifier ? CURVE_BY_OID[params.valueBlock.toString()] : undefined;
      if (!curve) throw new CertificateError("unsupported", "The key's elliptic curve is not supported; use P-256, P-384 or P-521.");
      return { key: await crypto.subtle.importKey("pkcs8", pkcs8, { name: "ECDSA", namedCurve: curve.name }, false, ["sign"]), kind: "ecdsa" };
    }
  } catch (err) {
    if (err instanceof CertificateError) throw err;
    throw new CertificateError("invalid", "The private key in the PKCS#12 file could not be read.");
  }
  throw new CertificateError("unsupported", `The key type (${alg}) is not supported; use an RSA or ECDSA key.`);
}

const isCa = (c: pkijs.Certificate): boolean =>
  c.extensions?.some((e) => e.extnID === OID.basicConstraints && (e.parsedValue as pkijs.BasicConstraints | undefined)?.cA === true) ?? false;

function signingFunction(key: CryptoKey, kind: KeyKind): (data: Uint8Array) => Promise<Uint8Array> {
  return async (data) => {
    if (kind === "rsa") return new Uint8Array(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, data));
    return ecdsaRawToDer(new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, data)));
  };
}

/** The signer in a PKCS#12 file: its private key, the certificate of that key and the others the file carries. */
export async function readPkcs12(bytes: Uint8Array, password: string): Promise<Signer> {
  const pfx = parsePfx(bytes);
  const bags = await openBags(pfx, toBytes(new TextEncoder().encode(password)).slice().buffer);
  if (bags.keys.length === 0)
    throw new CertificateError("invalid", "The PKCS#12 file holds no private key: export it with the key (not only the certificate).");
  if (bags.certs.length === 0) throw new CertificateError("invalid", "The PKCS#12 file holds no certificate for its key.");
  const keyBag = bags.keys[0];
  // The bag attribute localKeyId pairs a key with its certificate; files without it name the end-entity certificate by not being a CA.
  const certBag =
    bags.certs.find((c) => keyBag.localKeyId !== null && c.localKeyId === keyBag.localKeyId) ?? bags.certs.find((c) => !isCa(c.cert)) ?? bags.certs[0];
  const { key, kind } = await importKey(keyBag.info);
  const sign = signingFunction(key, kind);
  const certificate = certBag.cert;
  await checkPair(certificate, kind, sign);
  const der = hex(certificateDer(certificate));
  return {
    key,
    kind,
    signatureOid: kind === "rsa" ? OID.sha256WithRsa : OID.ecdsaWithSha256,
    certificate,
    chain: bags.certs.map((c) => c.cert).filter((c) => hex(certificateDer(c)) !== der),
    sign,
  };
}

/** A key and a certificate that do not belong together would make a signature no one can verify: refuse it up front. */
async function checkPair(cert: pkijs.Certificate, kind: KeyKind, sign: (d: Uint8Array) => Promise<Uint8Array>): Promise<void> {
  const probe = new TextEncoder().encode("docapi key/certificate pairing check");
  const signature = await sign(probe);
  const ok = await verifySignature(cert, { oid: kind === "rsa" ? OID.sha256WithRsa : OID.ecdsaWithSha256, hash: "SHA-256" }, signature, probe);
  if (!ok) throw new CertificateError("invalid", "The private key in the PKCS#12 file does not belong to its certificate.");
}
