// /docs: a self-contained reference page (no CDN: the API runs offline). It
// reads /openapi.json and lets a reader try each tool from the browser.
export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Document Processing API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1b1f24;color:#fff;padding:16px 24px}header h1{margin:0;font-size:20px}
main{max-width:1000px;margin:0 auto;padding:16px 24px}
details{background:#fff;border:1px solid #d8dde3;border-radius:6px;margin:10px 0;padding:8px 12px}
summary{cursor:pointer;font-weight:600}code,pre{font:13px ui-monospace,monospace}
pre{background:#f0f2f5;padding:8px;overflow:auto;border-radius:4px;max-height:360px}
.m{display:inline-block;min-width:48px;color:#fff;background:#2d6cdf;border-radius:3px;padding:0 6px;margin-right:8px;font-size:12px;text-align:center}
label{display:block;margin:4px 0}input[type=text]{width:60%}button{margin-top:6px}
.cost{color:#5b6673;font-weight:400;margin-left:8px}
</style></head><body>
<header><h1>Document Processing API</h1><div>Generated from <a style="color:#9cf" href="/openapi.json">/openapi.json</a></div></header>
<main><p>Credentials: <label>X-API-Key <input type="text" id="key" placeholder="dt_live_..."></label></p><div id="ops">Loading…</div></main>
<script>
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c]));
fetch("/openapi.json").then((r) => r.json()).then((doc) => {
  const root = document.getElementById("ops"); root.innerHTML = "";
  for (const [path, methods] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(methods)) {
    const media = Object.keys(op.requestBody.content)[0];
    const schema = op.requestBody.content[media].schema;
    const costs = (op["x-operations"] || []).map((o) => o.key + " " + o.credits).join(", ");
    const el = document.createElement("details");
    const fields = Object.entries(schema.properties || {}).map(([name, s]) => {
      const file = s.format === "binary" || (s.items && s.items.format === "binary");
      return '<label><code>' + esc(name) + '</code> ' + (file ? '<input type="file" name="' + esc(name) + '"' + (s.type === "array" ? " multiple" : "") + '>' : '<input type="text" name="' + esc(name) + '" placeholder="' + esc(s.default ?? s.type ?? "") + '">') + '</label>';
    }).join("");
    el.innerHTML = '<summary><span class="m">' + method.toUpperCase() + '</span><code>' + esc(path) + '</code> ' + esc(op.summary) + '<span class="cost">' + esc(costs) + '</span></summary>'
      + '<p>' + esc(op.description) + '</p><pre>' + esc(JSON.stringify(schema, null, 2)) + '</pre>'
      + (media === "multipart/form-data" ? '<form>' + fields + '<button>Send</button></form><pre class="out"></pre>' : '');
    const form = el.querySelector("form");
    if (form) form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const fd = new FormData();
      for (const input of form.querySelectorAll("input")) {
        if (input.type === "file") for (const f of input.files) fd.append(input.name, f);
        else if (input.value) fd.append(input.name, input.value);
      }
      const key = document.getElementById("key").value;
      const res = await fetch(path, { method: "POST", body: fd, headers: key ? { "X-API-Key": key } : {} });
      el.querySelector(".out").textContent = res.status + " " + (res.headers.get("X-Credits-Charged") ? "(credits " + res.headers.get("X-Credits-Charged") + ")\\n" : "\\n") + await res.text();
    });
    root.appendChild(el);
  }
});
</script></body></html>`;
