// /docs: a self-contained reference page over /openapi.json (no CDN: the API
// runs offline). Script and style are served as files of their own
// (/docs/app.js, /docs/app.css) so the page's policy (http/static-text.ts)
// can forbid inline script and style; requests go to this origin only.

export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Document Processing API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><link rel="stylesheet" href="/docs/app.css"><script src="/docs/app.js" defer></script>
</head><body>
<header><h1>Document Processing API</h1><p>Every route, generated from <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Try any of them below: the request goes from this page to this server with the credentials you enter. AI agents reach every tool, with the same credentials and credits, over MCP at <code>/mcp</code> (Streamable HTTP; docs/reference/mcp.md in the repository).</p></header>
<main>
<section class="credentials" aria-labelledby="credentials-title"><h2 id="credentials-title">Credentials</h2>
<p class="hint">Kept in this page only. A route's lock lists what it takes; with both filled, routes that take an API key use it.</p>
<label>API key <input type="password" id="api-key" autocomplete="off" spellcheck="false" placeholder="dt_live_..."></label>
<label>Dashboard token (JWT) <input type="password" id="jwt" autocomplete="off" spellcheck="false" placeholder="eyJ..."></label>
<details class="operator"><summary>Operator API</summary>
<label>Operator token <input type="password" id="admin-token" autocomplete="off" spellcheck="false"></label>
<button type="button" id="load-operator">Load the operator API</button> <span id="operator-status" role="status"></span></details>
<label>Filter <input type="search" id="filter" placeholder="merge, keys, webhooks..."></label>
</section>
<noscript><p>This page needs JavaScript; the document itself is at <a href="/openapi.json">/openapi.json</a>.</p></noscript>
<div id="ops" aria-live="polite"><p>Loading /openapi.json...</p></div>
</main></body></html>`;

export const DOCS_STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1b1f24;color:#fff;padding:16px 24px}header h1{margin:0;font-size:22px}header a{color:#9cf}
main{max-width:1060px;margin:0 auto;padding:16px 24px}
h2{font-size:18px;margin:24px 0 8px}h3{font-size:15px;margin:12px 0 4px}
.credentials{background:#fff;border:1px solid #d8dde3;border-radius:6px;padding:8px 16px}
.credentials label{display:block;margin:6px 0}.credentials input{width:60%;font:13px ui-monospace,monospace}
.hint{color:#5b6673;margin:0}
details.op{background:#fff;border:1px solid #d8dde3;border-radius:6px;margin:8px 0;padding:6px 12px}
details.op[hidden]{display:none}
summary{cursor:pointer}code,pre,textarea{font:13px ui-monospace,monospace}
pre{background:#f0f2f5;padding:8px;overflow:auto;border-radius:4px;max-height:360px}
.m{display:inline-block;min-width:56px;color:#fff;border-radius:3px;padding:0 6px;margin-right:8px;font-size:12px;text-align:center;font-weight:600}
.m-get{background:#2f7d32}.m-post{background:#2d6cdf}.m-patch{background:#9a6700}.m-delete{background:#b42318}
.auth{color:#5b6673;margin-left:8px;font-size:13px}
form.try{border-top:1px solid #e3e7ec;margin-top:8px;padding-top:8px}
.field{margin:6px 0}.field .hint{display:block;font-size:13px}form.try input[type=text]{width:60%}
textarea{width:100%;min-height:120px}
table{border-collapse:collapse}td,th{border:1px solid #e3e7ec;padding:2px 8px;text-align:left;vertical-align:top}
.result{margin-top:8px}.links a{margin-right:12px}
`;
