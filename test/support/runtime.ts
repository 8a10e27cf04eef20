import { ADMIN_TOKEN, call } from "./http";

/** `GET /admin/v1/runtime` as the operator reads it: the report of the isolate that answers (the tests' own). */
export async function runtimeReport<T = { wasm_peak: number; budget: number }>(): Promise<T> {
  return (await (await call("/admin/v1/runtime", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as T;
}
