// MIME types of attachments: what a PDF records for a file it embeds
// (/Subtype of the embedded file stream), and what a download of one is
// served as.

const BY_EXTENSION: Record<string, string> = {
  pdf: "application/pdf",
  xml: "text/xml",
  json: "application/json",
  csv: "text/csv",
  txt: "text/plain",
  md: "text/markdown",
  html: "text/html",
  htm: "text/html",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  tif: "image/tiff",
  tiff: "image/tiff",
  svg: "image/svg+xml",
  zip: "application/zip",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
};

const OCTETS = "application/octet-stream";
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The part's declared type when it says something, else one guessed from its name (curl sends octet-stream unless told). */
export function attachmentMime(file: File): string {
  const declared = file.type.split(";")[0].trim().toLowerCase();
  if (MIME.test(declared) && declared !== OCTETS) return declared;
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || OCTETS;
}

// Types a browser could run as a page of our origin were it to ignore the
// download disposition: served as bytes instead.
const ACTIVE = /html|xml|svg|javascript|ecmascript/;

/** What an extracted attachment is served as: its recorded type, unless that is missing, malformed or active content. */
export function servedMime(recorded: string | null): string {
  const type = recorded?.trim().toLowerCase() ?? "";
  return MIME.test(type) && !ACTIVE.test(type) ? type : OCTETS;
}
