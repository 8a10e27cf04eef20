import { EngineError } from "../../errors";

export const corrupt = (why: string) => new EngineError("corrupt", `The GIF could not be decoded: ${why}.`);
