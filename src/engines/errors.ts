// Engines throw EngineError with a kind; the tool pipeline maps kinds to API
// error codes (a tool may override the mapping where its reference page gives
// other codes: docs/reference/errors.md).
export type EngineErrorKind = "encrypted" | "corrupt" | "too_large" | "unsupported" | "invalid_input" | "wrong_password";

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "EngineError";
  }
}
