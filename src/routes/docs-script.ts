// The /docs page's script (served as /docs/app.js; see docs-page.ts for why
// it is a file of its own). Plain ES5-style JavaScript: it runs in any browser
// as written, with no build step.
export const DOCS_SCRIPT = String.raw`"use strict";
// The /docs page: renders /openapi.json (and, with the operator token,
// /admin/openapi.json) as a list of operations, each with a form that sends
// the request from this page. DOM nodes are built, never parsed from strings.
(function () {
  var METHODS = ["get", "post", "put", "patch", "delete"];
  var root = document.getElementById("ops");

  function h(tag, attrs) {
    var el = document.createElement(tag);
    for (var k in attrs || {}) {
      if (attrs[k] === undefined || attrs[k] === null || attrs[k] === false) continue;
      if (k === "text") el.textContent = attrs[k];
      else el.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      el.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return el;
  }

  function resolve(doc, node) {
    if (!node || typeof node !== "object" || typeof node.$ref !== "string") return node;
    var parts = node.$ref.replace(/^#\//, "").split("/");
    var out = doc;
    for (var i = 0; i < parts.length; i++) out = out && out[parts[i]];
    return out || node;
  }

  function isFile(s) {
    if (!s) return false;
    if (s.format === "binary" || s.contentMediaType === "application/octet-stream") return true;
    if (s.type === "array") return isFile(s.items);
    var any = s.anyOf || s.oneOf;
    return Array.isArray(any) && any.some(isFile);
  }
  function isMany(s) {
    return !!s && (s.type === "array" || (Array.isArray(s.anyOf || s.oneOf) && (s.anyOf || s.oneOf).some(function (x) { return x.type === "array"; })));
  }

  // A JSON body to start from: required fields with their default, an example, or a value of their type.
  function example(s, depth) {
    if (!s || depth > 4) return null;
    if (s.default !== undefined) return s.default;
    if (s.examples && s.examples.length) return s.examples[0];
    if (s.enum) return s.enum[0];
    if (s.const !== undefined) return s.const;
    var any = s.anyOf || s.oneOf;
    if (any) return example(any[0], depth + 1);
    if (s.type === "object" || s.properties) {
      var out = {};
      var req = s.required || [];
      for (var k in s.properties || {}) if (req.indexOf(k) >= 0) out[k] = example(s.properties[k], depth + 1);
      return out;
    }
    if (s.type === "array") return [];
    if (s.type === "integer" || s.type === "number") return s.minimum !== undefined ? s.minimum : 0;
    if (s.type === "boolean") return false;
    return "";
  }

  function schemes(op) {
    return (op.security || []).map(function (r) { return Object.keys(r)[0] || "none"; });
  }
  function authText(op) {
    var s = schemes(op);
    if (!s.length) return "no credentials";
    return s.map(function (x) { return { none: "anonymous", apiKey: "API key", bearer: "JWT", adminToken: "operator token" }[x] || x; }).join(" or ") + (op["x-permission"] ? " (" + op["x-permission"] + ")" : "");
  }
  function credentialHeaders(op) {
    var s = schemes(op);
    var key = document.getElementById("api-key").value.trim();
    var jwt = document.getElementById("jwt").value.trim();
    var admin = document.getElementById("admin-token").value.trim();
    if (s.indexOf("adminToken") >= 0 && admin) return { Authorization: "Bearer " + admin };
    if (s.indexOf("apiKey") >= 0 && key) return { "X-API-Key": key };
    if (s.indexOf("bearer") >= 0 && jwt) return { Authorization: "Bearer " + jwt };
    return {};
  }

  function links(value, path, out) {
    if (typeof value === "string") {
      if (/^https?:\/\//.test(value) || value.indexOf("/files/") === 0) out.push([path || "link", value]);
    } else if (Array.isArray(value)) {
      value.forEach(function (v, i) { links(v, path + "[" + i + "]", out); });
    } else if (value && typeof value === "object") {
      for (var k in value) links(value[k], path ? path + "." + k : k, out);
    }
    return out;
  }

  function showResult(box, res, text) {
    box.textContent = "";
    var charged = res.headers.get("X-Credits-Charged");
    box.appendChild(h("p", { text: "HTTP " + res.status + (charged !== null ? " · credits charged " + charged : "") + " · request " + (res.headers.get("X-Request-Id") || "") }));
    var body = text;
    var found = [];
    try {
      var parsed = JSON.parse(text);
      body = JSON.stringify(parsed, null, 2);
      found = links(parsed, "", []);
    } catch (e) { /* not JSON: shown as text */ }
    if (found.length) {
      var list = h("p", { class: "links" }, "Links: ");
      found.forEach(function (l) { list.appendChild(h("a", { href: l[1], text: l[0] })); });
      box.appendChild(list);
    }
    box.appendChild(h("pre", { text: body }));
  }

  // The label is the field's name alone, so assistive technology (and the
  // browser test) finds a field by it; the description is attached to it.
  var fieldCount = 0;
  function field(label, input, hint) {
    var wrap = h("div", { class: "field" }, h("label", {}, h("code", { text: label }), " ", input));
    if (hint) {
      var id = "hint-" + ++fieldCount;
      input.setAttribute("aria-describedby", id);
      wrap.appendChild(h("span", { class: "hint", id: id, text: hint }));
    }
    return wrap;
  }

  function tryForm(doc, path, method, op) {
    var form = h("form", { class: "try", "aria-label": "Try " + (op.summary || op.operationId) });
    var params = (op.parameters || []).map(function (p) { return resolve(doc, p); });
    var inputs = [];
    params.forEach(function (p) {
      var input = h("input", { type: "text", name: p.name, required: p.required, placeholder: p.schema && p.schema.default !== undefined ? String(p.schema.default) : "" });
      inputs.push([p, input]);
      form.appendChild(field(p.name, input, (p.in === "path" ? "Path parameter. " : p.in === "query" ? "Query parameter. " : "Header. ") + (p.in !== "header" && p.description ? p.description : "")));
    });
    var content = op.requestBody && op.requestBody.content;
    var media = content ? Object.keys(content)[0] : null;
    var bodyFields = [];
    var jsonArea = null;
    if (media === "multipart/form-data") {
      var s = content[media].schema || {};
      for (var name in s.properties || {}) {
        var ps = s.properties[name];
        var req = (s.required || []).indexOf(name) >= 0;
        var input = isFile(ps) ? h("input", { type: "file", name: name, multiple: isMany(ps), required: req }) : h("input", { type: "text", name: name, placeholder: ps.default !== undefined ? String(ps.default) : ps.type || "" });
        bodyFields.push(input);
        form.appendChild(field(name, input, (req ? "Required. " : "") + (ps.description || "")));
      }
    } else if (media === "application/json") {
      jsonArea = h("textarea", { name: "body", spellcheck: "false" });
      jsonArea.value = JSON.stringify(example(content[media].schema, 0), null, 2);
      form.appendChild(field("JSON body", jsonArea));
    }
    var box = h("div", { class: "result", role: "region", "aria-label": "Response to " + (op.summary || op.operationId), "aria-live": "polite" });
    form.appendChild(h("button", { type: "submit", text: "Send" }));
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var url = path;
      var query = new URLSearchParams();
      var headers = credentialHeaders(op);
      inputs.forEach(function (pair) {
        var p = pair[0], v = pair[1].value;
        if (p.in === "path") url = url.replace("{" + p.name + "}", p.name === "key" ? v : encodeURIComponent(v));
        else if (v && p.in === "query") query.set(p.name, v);
        else if (v && p.in === "header") headers[p.name] = v;
      });
      if (String(query)) url += "?" + query;
      var init = { method: method.toUpperCase(), headers: headers };
      if (media === "multipart/form-data") {
        var fd = new FormData();
        bodyFields.forEach(function (input) {
          if (input.type === "file") for (var i = 0; i < input.files.length; i++) fd.append(input.name, input.files[i]);
          else if (input.value) fd.append(input.name, input.value);
        });
        init.body = fd;
      } else if (jsonArea) {
        headers["Content-Type"] = "application/json";
        init.body = jsonArea.value;
      }
      box.textContent = "Sending...";
      fetch(url, init).then(function (res) {
        var type = res.headers.get("Content-Type") || "";
        if (/json|text/.test(type) || res.status === 204) return res.text().then(function (t) { showResult(box, res, t); });
        showResult(box, res, "(" + type + " body; open it with the link)");
        box.querySelector(".links") || box.insertBefore(h("p", { class: "links" }, h("a", { href: url, text: "download" })), box.lastChild);
      }, function (err) { box.textContent = "Request failed: " + err; });
    });
    return h("div", {}, form, box);
  }

  function responsesTable(doc, op) {
    var table = h("table", {}, h("tr", {}, h("th", { text: "status" }), h("th", { text: "meaning" })));
    for (var status in op.responses || {}) {
      var r = resolve(doc, op.responses[status]);
      table.appendChild(h("tr", {}, h("td", { text: status }), h("td", { text: r.description || "" })));
    }
    return table;
  }

  function operation(doc, path, method, op) {
    var el = h("details", { class: "op", id: "op-" + op.operationId, "data-search": (path + " " + op.summary + " " + (op.tags || []).join(" ")).toLowerCase() });
    var title = (op.summary || op.operationId) + ": " + method.toUpperCase() + " " + path;
    el.appendChild(h("summary", { "aria-label": title }, h("span", { class: "m m-" + method, text: method.toUpperCase() }), h("code", { text: path }), " " + (op.summary || ""), h("span", { class: "auth", text: authText(op) })));
    el.appendChild(h("p", { class: "hint", text: "Credentials: " + authText(op) + "." }));
    if (op.description) el.appendChild(h("p", { text: op.description }));
    var content = op.requestBody && op.requestBody.content;
    if (content) {
      var media = Object.keys(content)[0];
      el.appendChild(h("h3", { text: "Request body (" + media + ")" }));
      el.appendChild(h("pre", { text: JSON.stringify(content[media].schema, null, 2) }));
    }
    el.appendChild(h("h3", { text: "Responses" }));
    el.appendChild(responsesTable(doc, op));
    var ok = op.responses && (op.responses["200"] || op.responses["201"] || op.responses["202"]);
    var okSchema = ok && ok.content && ok.content["application/json"] && ok.content["application/json"].schema;
    if (okSchema) el.appendChild(h("details", {}, h("summary", { text: "Response schema" }), h("pre", { text: JSON.stringify(okSchema, null, 2) })));
    el.appendChild(tryForm(doc, path, method, op));
    return el;
  }

  function render(doc, into) {
    var byTag = {};
    (doc.tags || []).forEach(function (t) { byTag[t.name] = []; });
    for (var path in doc.paths) for (var i = 0; i < METHODS.length; i++) {
      var op = doc.paths[path][METHODS[i]];
      if (!op) continue;
      var tag = (op.tags && op.tags[0]) || "other";
      (byTag[tag] = byTag[tag] || []).push(operation(doc, path, METHODS[i], op));
    }
    for (var t in byTag) {
      if (!byTag[t].length) continue;
      var section = h("section", { "aria-labelledby": "tag-" + t }, h("h2", { id: "tag-" + t, text: t }));
      byTag[t].forEach(function (el) { section.appendChild(el); });
      into.appendChild(section);
    }
  }

  document.getElementById("filter").addEventListener("input", function (e) {
    var q = e.target.value.trim().toLowerCase();
    document.querySelectorAll("details.op").forEach(function (el) { el.hidden = !!q && el.getAttribute("data-search").indexOf(q) < 0; });
  });

  document.getElementById("load-operator").addEventListener("click", function () {
    var status = document.getElementById("operator-status");
    var token = document.getElementById("admin-token").value.trim();
    fetch("/admin/openapi.json", { headers: { Authorization: "Bearer " + token } }).then(function (res) {
      if (!res.ok) { status.textContent = "HTTP " + res.status + ": the operator token was refused."; return; }
      return res.json().then(function (doc) {
        var old = document.getElementById("operator-ops");
        if (old) old.remove();
        var box = h("div", { id: "operator-ops" });
        render(doc, box);
        root.appendChild(box);
        status.textContent = "Loaded " + Object.keys(doc.paths).length + " operator paths.";
      });
    });
  });

  fetch("/openapi.json").then(function (res) { return res.json(); }).then(function (doc) {
    root.textContent = "";
    render(doc, root);
  }, function (err) { root.textContent = "Could not load /openapi.json: " + err; });
})();
`;
