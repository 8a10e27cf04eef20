/** PDF readers accept the %PDF- header anywhere in the first 1024 bytes. */
export function hasPdfHeader(data: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(data.subarray(0, 1024));
  return head.includes("%PDF-");
}
