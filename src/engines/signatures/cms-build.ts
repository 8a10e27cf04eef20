import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { OID, certificateDer, sha256, toBytes } from "./asn1";
import type { Signer } from "./pkcs12";

// The CMS SignedData a PAdES B-B signature carries (ETSI EN 319 142-1, 6.2.1;
// ETSI EN 319 122-1 for the CAdES part): detached, SHA-256, signed attributes
// content-type, message-digest and signing-certificate-v2 (ESS, RFC 5035),
// which binds the signer's certificate into what is signed. No signing-time:
// PAdES puts the time in the signature dictionary's /M instead.

const algorithm = (oid: string, nullParams: boolean) =>
  new pkijs.AlgorithmIdentifier({ algorithmId: oid, ...(nullParams ? { algorithmParams: new asn1js.Null() } : {}) });

/** SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }, the hash algorithm left at its default, SHA-256. */
async function signingCertificateV2(cert: pkijs.Certificate): Promise<asn1js.Sequence> {
  const issuerSerial = new asn1js.Sequence({
    value: [
      // GeneralNames with one directoryName ([4], explicit: Name is a CHOICE).
      new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [cert.issuer.toSchema()] })] }),
      new asn1js.Integer({ valueHex: cert.serialNumber.valueBlock.valueHexView.slice() }),
    ],
  });
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: await sha256(certificateDer(cert)) }), issuerSerial] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

const compareBytes = (a: Uint8Array, b: Uint8Array): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

/** The DER encoding of a detached SignedData (in its ContentInfo) over content whose SHA-256 is `digest`. */
export async function buildCadesDetached(digest: Uint8Array, signer: Signer): Promise<Uint8Array> {
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest.slice() })] }),
    new pkijs.Attribute({ type: OID.signingCertificateV2, values: [await signingCertificateV2(signer.certificate)] }),
  ];
  // DER orders a SET OF by its members' encodings (X.690, 11.6); the signature covers that order.
  const sorted = attributes
    .map((a) => ({ a, der: toBytes(a.toSchema().toBER()) }))
    .sort((x, y) => compareBytes(x.der, y.der))
    .map((x) => x.a);
  const signedAttrs = new asn1js.Set({ value: sorted.map((a) => a.toSchema()) });
  const signature = await signer.sign(toBytes(signedAttrs.toBER()));

  const cert = signer.certificate;
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    digestAlgorithm: algorithm(OID.sha256, false),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: sorted }),
    signatureAlgorithm: algorithm(signer.signatureOid, signer.kind === "rsa"),
    signature: new asn1js.OctetString({ valueHex: signature.slice() }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [algorithm(OID.sha256, false)],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: [cert, ...signer.chain],
    signerInfos: [signerInfo],
  });
  const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return toBytes(info.toSchema().toBER());
}

/** A size the finished CMS stays under: the certificates, the attributes, the signature and room to spare. */
export function cmsSizeBound(signer: Signer): number {
  const certs = [signer.certificate, ...signer.chain].reduce((n, c) => n + certificateDer(c).byteLength, 0);
  return certs + 2 * certificateDer(signer.certificate).byteLength + 4096;
}
