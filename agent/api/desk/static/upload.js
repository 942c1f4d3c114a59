// The upload page: sends the files to POST /v1/ingest with XMLHttpRequest (fetch cannot report upload
// progress), shows the bytes sent, then waits for conversion and indexing and shows what happened.
"use strict";
(() => {
  const form = document.getElementById("upload-form");
  if (!form) return;
  const box = document.getElementById("upload-progress"), bar = document.getElementById("upload-bar");
  const phase = document.getElementById("upload-phase"), result = document.getElementById("upload-result");
  const el = (tag, text) => { const e = document.createElement(tag); e.textContent = text; return e; };
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    const files = document.getElementById("upload-files").files;
    if (!files.length) return;
    const data = new FormData();
    for (const f of files) data.append("files", f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/v1/ingest");
    box.hidden = false; bar.value = 0; bar.max = 100; result.replaceChildren();
    phase.textContent = `Uploading ${files.length} file${files.length > 1 ? "s" : ""}…`;
    form.querySelector("button").disabled = true;
    xhr.upload.onprogress = e => { if (e.lengthComputable) bar.value = Math.round(100 * e.loaded / e.total); };
    xhr.upload.onload = () => { phase.textContent = "Uploaded. Converting and indexing on the server…"; bar.removeAttribute("value"); };
    xhr.onload = () => {
      form.querySelector("button").disabled = false;
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch (_) { body = { error: xhr.statusText }; }
      box.hidden = true;
      if (xhr.status !== 200) { const p = el("p", "Upload failed: " + (body.error || xhr.status)); p.className = "error"; result.replaceChildren(p); return; }
      const summary = el("p", `Added ${body.added}, updated ${body.updated}, unchanged ${body.unchanged}, failed ${body.failed}; ${body.chunks_written} passages written. The corpus now holds ${body.index_chunks} passages.`);
      summary.className = "done";
      result.replaceChildren(summary);
      const count = document.getElementById("chunk-count"); if (count) count.textContent = body.index_chunks.toLocaleString();
      if (body.errors && body.errors.length) {
        const ul = document.createElement("ul"); ul.className = "error";
        for (const e of body.errors) ul.appendChild(el("li", e));
        result.appendChild(ul);
      }
    };
    xhr.onerror = () => { form.querySelector("button").disabled = false; box.hidden = true;
      const p = el("p", "Upload failed: the server could not be reached."); p.className = "error"; result.replaceChildren(p); };
    xhr.send(data);
  });
})();
