// SASLprep (RFC 4013), the preparation PDF 2.0 prescribes for AES-256
// (revision 5 and 6) passwords before they are hashed: a password typed
// with a no-break space, a soft hyphen or a decomposed accent must open a
// file whose producer prepared it. Only the mapping and normalisation steps
// matter here: the prepared string is one more candidate to try, so a string
// the profile would prohibit simply matches nothing (the raw password is
// tried as well).

// RFC 3454 B.1: code points "commonly mapped to nothing".
// (An alternation: U+034F is a combining mark, which a character class would join to its neighbour.)
const MAPPED_TO_NOTHING = /\u00AD|\u034F|\u1806|[\u180B-\u180D]|[\u200B-\u200D]|\u2060|[\uFE00-\uFE0F]|\uFEFF/g;

// RFC 3454 C.1.2: non-ASCII space characters, mapped to SPACE by RFC 4013.
const NON_ASCII_SPACE = /[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000]/g;

/** The password as SASLprep prepares it: spaces mapped, invisible code points removed, NFKC. */
export function saslprep(password: string): string {
  return password.replace(NON_ASCII_SPACE, " ").replace(MAPPED_TO_NOTHING, "").normalize("NFKC");
}
