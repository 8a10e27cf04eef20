/**
 * How stamped and redacted documents are written: unused objects dropped
 * (for redaction this is what removes the replaced content streams from the
 * file), streams compressed, small objects packed into object streams.
 */
export const SAVE_OPTIONS = "garbage=compact,compress,objstms";
