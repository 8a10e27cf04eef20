// Playground: run any tool from a form generated from its OpenAPI request
// schema (files, enums, defaults), then see the answer, the credits charged
// and a download link for the output. The document is read live from
// /openapi.json, so a new tool appears here without a console change.
import { api, problemText } from "../api";
import { field, h, put, status } from "../dom";

type Json = Record<string, unknown>;
interface Schema {
  type?: string | string[];
  format?: string;
  contentMediaType?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
}
interface Tool {
  path: string;
  id: string;
  name: string;
  description: string;
  media: string;
  schema: Schema;
}

function resolve(doc: Json, node: Schema | undefined): Schema {
  if (!node?.$ref) return node ?? {};
  let out: unknown = doc;
  for (const part of node.$ref.replace(/^#\//, "").split("/")) out = (out as Json | undefined)?.[part];
  return (out as Schema) ?? {};
}

/** The schema without its null branch: `string | null` is an optional string. */
function core(s: Schema): Schema {
  const variants = s.anyOf ?? s.oneOf;
  if (!variants) return s;
  const real = variants.filter((v) => v.type !== "null");
  return real.length === 1 ? { ...real[0], default: s.default ?? real[0].default, description: s.description ?? real[0].description } : s;
}
const isFile = (s: Schema): boolean => s.format === "binary" || s.contentMediaType === "application/octet-stream" || (!!s.items && isFile(s.items));
const typeOf = (s: Schema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type);

function toolsOf(doc: Json): Tool[] {
  const tools: Tool[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    const op = item.post;
    if (!op || !(op.tags as string[] | undefined)?.includes("tools")) continue;
    const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, { schema: Schema }>;
    const media = Object.keys(content)[0];
    if (!media) continue;
    tools.push({
      path,
      id: String(op.operationId),
      name: String(op.summary ?? op.operationId),
      description: String(op.description ?? ""),
      media,
      schema: resolve(doc, content[media].schema),
    });
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}

interface Input {
  name: string;
  schema: Schema;
  el: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
}

function control(name: string, s: Schema, required: boolean): Input["el"] {
  const t = typeOf(s);
  if (isFile(s)) return h("input", { type: "file", name, multiple: typeOf(s) === "array", required });
  if (s.enum) {
    const sel = h("select", { name });
    if (!required && s.default === undefined) sel.append(h("option", { value: "" }, "(not set)"));
    for (const v of s.enum) sel.append(h("option", { value: String(v), selected: v === s.default }, String(v)));
    return sel;
  }
  if (t === "boolean") return h("input", { type: "checkbox", name, checked: s.default === true });
  if (t === "integer" || t === "number")
    return h("input", {
      type: "number",
      name,
      step: t === "integer" ? 1 : "any",
      min: s.minimum,
      max: s.maximum,
      value: s.default as number | undefined,
      required,
    });
  if (t === "object" || (t === "array" && typeOf(s.items ?? {}) === "object") || (!t && !s.enum)) {
    const area = h("textarea", { name, rows: 3, spellcheck: "false" });
    if (s.default !== undefined) area.value = JSON.stringify(s.default);
    return area;
  }
  return h("input", {
    type: "text",
    name,
    value: t === "array" ? ((s.default as unknown[] | undefined) ?? []).join(", ") : (s.default as string | undefined),
    required,
    autocomplete: "off",
  });
}

function readValue(i: Input): unknown {
  const s = i.schema;
  const t = typeOf(s);
  const el = i.el;
  if (el instanceof HTMLInputElement && el.type === "checkbox") return el.checked;
  const v = el.value.trim();
  if (v === "") return undefined;
  if (t === "integer" || t === "number") return Number(v);
  if (el instanceof HTMLTextAreaElement) return JSON.parse(v);
  if (t === "array")
    return v
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean);
  return v;
}

function buildBody(tool: Tool, inputs: Input[]): FormData | Json {
  if (tool.media === "multipart/form-data") {
    const fd = new FormData();
    for (const i of inputs) {
      if (i.el instanceof HTMLInputElement && i.el.type === "file") for (const f of Array.from(i.el.files ?? [])) fd.append(i.name, f);
      else {
        const v = readValue(i);
        if (v === undefined) continue;
        if (Array.isArray(v)) for (const x of v) fd.append(i.name, String(x));
        else fd.append(i.name, typeof v === "object" ? JSON.stringify(v) : String(v));
      }
    }
    return fd;
  }
  const body: Json = {};
  for (const i of inputs) {
    const v = readValue(i);
    if (v !== undefined) body[i.name] = v;
  }
  return body;
}

/** Only web links (never javascript: or data:) become clickable. */
function safeUrl(value: string): string | null {
  try {
    const url = new URL(value, location.origin);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

function linksIn(value: unknown, path: string, out: [string, string][]): [string, string][] {
  if (typeof value === "string" && (/^https?:\/\//.test(value) || value.startsWith("/files/"))) {
    const url = safeUrl(value);
    if (url) out.push([path, url]);
  } else if (Array.isArray(value)) value.forEach((v, i) => linksIn(v, `${path}[${i}]`, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) linksIn(v, path ? `${path}.${k}` : k, out);
  return out;
}

async function run(tool: Tool, inputs: Input[], result: HTMLElement): Promise<void> {
  put(result, h("p", { role: "status" }, `Running ${tool.name}...`));
  let body: FormData | Json;
  try {
    body = buildBody(tool, inputs);
  } catch (err) {
    put(result, h("p", { role: "alert" }, `A JSON field is not valid JSON: ${String(err)}`));
    return;
  }
  // The playground reaches any tool, so the path is known only at run time;
  // the typed client still sends it (and the session's CSRF token).
  const call = api.POST as unknown as (path: string, init: Json) => Promise<{ data?: Blob; error?: unknown; response: Response }>;
  const { data, error, response } = await call(tool.path, { body, parseAs: "blob" });
  const charged = response.headers.get("X-Credits-Charged");
  const head = h(
    "p",
    { role: "status", id: "run-status" },
    `HTTP ${response.status} · credits charged: ${charged ?? "0"} · request ${response.headers.get("X-Request-Id") ?? ""}`,
  );
  if (!data) {
    put(result, head, h("p", { role: "alert" }, problemText(error)), h("pre", {}, JSON.stringify(error, null, 2)));
    return;
  }
  const type = response.headers.get("Content-Type") ?? "";
  if (type.includes("json")) {
    const parsed = JSON.parse(await data.text()) as unknown;
    const links = linksIn(parsed, "", []);
    put(
      result,
      head,
      links.length
        ? h(
            "ul",
            { class: "links", "aria-label": "Outputs" },
            ...links.map(([label, href]) => h("li", {}, h("a", { href, download: "" }, `Download ${label}`))),
          )
        : null,
      h("pre", { tabindex: "0", "aria-label": "Answer" }, JSON.stringify(parsed, null, 2)),
    );
  } else {
    // A tool that answers bytes: offer them as a file.
    const href = URL.createObjectURL(data);
    put(result, head, h("p", {}, h("a", { href, download: `${tool.id}-output` }, `Download the output (${type || "bytes"}, ${data.size} bytes)`)));
  }
}

export async function playgroundPage(main: HTMLElement): Promise<void> {
  const { data, error } = await api.GET("/openapi.json");
  if (!data) {
    main.append(h("p", { role: "alert" }, problemText(error)));
    return;
  }
  const doc = data as Json;
  const tools = toolsOf(doc);
  const picker = h("select", { name: "tool" }, ...tools.map((t) => h("option", { value: t.id }, `${t.name} (${t.path})`)));
  const formBox = h("div");
  const result = h("section", { "aria-label": "Result", "aria-live": "polite", class: "result" });
  const render = () => {
    const tool = tools.find((t) => t.id === picker.value)!;
    const inputs: Input[] = [];
    const required = new Set(tool.schema.required ?? []);
    const form = h("form", { "aria-label": `Run ${tool.name}` }, h("h2", {}, tool.name), h("p", { class: "hint" }, tool.description));
    for (const [name, raw] of Object.entries(tool.schema.properties ?? {})) {
      const s = core(resolve(doc, raw));
      const el = control(name, s, required.has(name));
      inputs.push({ name, schema: s, el });
      const hint = [
        required.has(name) ? "Required." : "",
        s.description ?? "",
        typeOf(s) === "array" && !isFile(s) && el instanceof HTMLInputElement ? "Comma-separated." : "",
      ]
        .filter(Boolean)
        .join(" ");
      form.append(field(name, el, hint || undefined));
    }
    form.append(h("button", { type: "submit" }, `Run ${tool.name}`));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void run(tool, inputs, result);
    });
    put(formBox, form);
    put(result);
  };
  picker.addEventListener("change", render);
  const wanted = new URLSearchParams(location.search).get("tool");
  if (wanted && tools.some((t) => t.id === wanted)) picker.value = wanted;
  main.append(
    h("p", {}, "Calls are made with your session and charged to your account like any other call."),
    field("Tool", picker),
    status(),
    formBox,
    result,
  );
  render();
}
