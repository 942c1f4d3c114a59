// The run page: follows a live run through the replay endpoint (EventSource resends Last-Event-ID when it
// reconnects, so a dropped connection resumes where it stopped), builds the pipeline view from the events,
// swaps in the server-rendered report when the run completes, and opens evidence cards for citations.
// Every text from the run goes in as text (textContent), never as HTML.
"use strict";
(() => {
  const pipe = document.getElementById("pipeline");
  if (!pipe) return;
  const RUN = pipe.dataset.run;
  const plan = document.getElementById("plan");
  const summary = document.getElementById("pipe-summary");
  const conn = document.getElementById("conn");
  const elapsed = document.getElementById("elapsed");
  const questions = new Map();
  const stats = { planned: 0, done: 0, evidence: 0, leads: 0 };
  let started = null, ended = null, source = null, ticker = null;

  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const clock = s => { s = Math.max(0, Math.round(s)); return s >= 60 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s` : `${s} s`; };
  const words = { supported: "supported", thin_evidence: "thin evidence", not_found: "not found", stale: "stale" };

  function sectionItem(id) {
    let li = plan.querySelector(`.plan-section[data-section="${CSS.escape(id)}"]`);
    if (!li) {
      li = el("li", null, "plan-section"); li.dataset.section = id;
      const h = el("h3", id + " "); const b = el("span", "waiting", "badge waiting"); b.dataset.role = "status";
      h.appendChild(b); li.appendChild(h); li.appendChild(el("ul", null, "questions")); plan.appendChild(li);
    }
    return li;
  }
  function questionItem(q) {
    let item = questions.get(q.id);
    if (item) return item;
    const li = el("li", null, "question"); li.dataset.q = q.id; li.dataset.origin = q.origin; li.dataset.state = "planned";
    const state = el("span", "planned", "q-state");
    const text = el("span", q.text, "q-text");
    const meta = el("span", q.origin === "lead" ? `lead · level ${q.depth}` : (q.origin === "backfill" ? "backfill" : ""), "q-meta");
    li.append(state, text, meta);
    sectionItem(q.sections[0] || "other").querySelector(".questions").appendChild(li);
    if (q.origin === "lead") stats.leads += 1;
    stats.planned += 1;
    item = { li, state, meta, q }; questions.set(q.id, item);
    return item;
  }
  function refresh() {
    const now = ended || Date.now() / 1000;
    const time = started ? clock(now - started) : "";
    summary.textContent = `${stats.planned} questions, ${stats.done} done · ${stats.evidence} pieces of evidence · ${stats.leads} leads` + (time ? ` · ${time}` : "");
    if (started && pipe.dataset.live === "1") elapsed.textContent = (ended ? "took " : "running for ") + time;
  }
  function setStatus(text, cls) {
    const badge = document.getElementById("run-status");
    badge.textContent = text; badge.className = "badge " + cls;
  }
  const handlers = {
    run_started: d => { started = d.at; if (pipe.dataset.live === "1") setStatus("running", "running"); },
    plan: d => { for (const q of d.questions) questionItem(q); },
    question_started: d => {
      const item = questionItem(d.question);
      item.li.dataset.state = "running"; item.state.textContent = "searching";
    },
    question_finished: d => {
      const item = questions.get(d.question_id); if (!item) return;
      item.li.dataset.state = "done"; item.state.textContent = "done"; stats.done += 1;
      const lead = item.q.origin === "lead" ? `lead · level ${item.q.depth} · ` : "";
      item.meta.textContent = `${lead}${d.new_evidence} new evidence · ${d.hits} passages read` + (d.leads ? ` · ${d.leads} leads` : "");
    },
    evidence: d => { stats.evidence = d.total; },
    section_status: d => {
      const li = sectionItem(d.section_id); li.dataset.state = d.status;
      const b = li.querySelector('[data-role="status"]'); b.textContent = words[d.status] || d.status; b.className = "badge " + d.status;
      const c = li.querySelector('[data-role="counts"]'); if (c) c.textContent = `${d.evidence} evidence from ${d.documents} documents`;
    },
    synthesis: d => {
      const c = sectionItem(d.section_id).querySelector('[data-role="counts"]');
      if (c) c.textContent += ` · ${d.claims} claims written` + (d.dropped ? `, ${d.dropped} dropped by the guards` : "");
    },
    complete: () => { finish("complete", "complete"); loadReport(); },
    review: d => { finish("review", "paused for review"); showError(d.message); },
    failed: d => { finish("failed", "failed"); showError("This run failed: " + d.error); },
  };
  function showError(text) { const p = document.getElementById("pipe-error"); p.textContent = text; p.hidden = false; }
  function finish(cls, text) {
    if (source) { source.close(); source = null; }
    if (pipe.dataset.live === "1") { setStatus(text, cls); }
    conn.textContent = "";
    clearInterval(ticker);
  }
  function onEvent(m) {
    const d = JSON.parse(m.data);
    const handle = handlers[d.type];
    if (handle) handle(d);
    if (["complete", "review", "failed"].includes(d.type)) ended = d.at;
    refresh();
  }
  async function loadReport() {
    if (pipe.dataset.live !== "1") return;
    const page = await fetch(location.pathname, { headers: { Accept: "text/html" } });
    const doc = new DOMParser().parseFromString(await page.text(), "text/html");
    const fresh = doc.getElementById("report");
    if (fresh) { document.getElementById("report").replaceChildren(...fresh.childNodes); }
    const took = doc.getElementById("elapsed"); if (took) elapsed.textContent = took.textContent;
    pipe.open = false;
  }
  function follow() {
    if (source) return;
    source = new EventSource(`/v1/research/${encodeURIComponent(RUN)}/events`);
    for (const kind of Object.keys(handlers)) source.addEventListener(kind, onEvent);
    source.onopen = () => { conn.textContent = pipe.dataset.live === "1" ? "Live: following the run." : ""; };
    source.onerror = () => {
      if (source && source.readyState === EventSource.CONNECTING) conn.textContent = "Connection lost; reconnecting (the run goes on)…";
    };
    if (pipe.dataset.live === "1") ticker = setInterval(refresh, 1000);
  }
  if (pipe.dataset.live === "1") follow();
  else pipe.addEventListener("toggle", () => { if (pipe.open && !questions.size) follow(); });

  // Evidence cards: a citation opens its card in a dialog, with the passage around a corpus quote.
  const dialog = document.getElementById("evidence-dialog");
  const body = document.getElementById("evidence-dialog-body");
  const passage = document.getElementById("evidence-passage");
  const passageHead = document.getElementById("passage-h");
  let opener = null;
  document.addEventListener("click", async ev => {
    const link = ev.target.closest("a.cite");
    if (!link || !dialog || !dialog.showModal) return;
    const card = document.getElementById("ev-" + link.dataset.ev);
    if (!card) return;
    ev.preventDefault();
    opener = link;
    const copy = card.cloneNode(true); copy.removeAttribute("id"); copy.removeAttribute("tabindex");
    body.replaceChildren(copy);
    passage.replaceChildren(); passageHead.hidden = true;
    document.getElementById("evidence-dialog-h").textContent = "Evidence [" + link.dataset.ev + "]";
    dialog.showModal();
    if (card.dataset.kind === "corpus" && card.dataset.chunk) {
      passage.textContent = "Loading the passage…";
      const r = await fetch(`/runs/${encodeURIComponent(RUN)}/evidence/${link.dataset.ev}/passage`);
      passageHead.hidden = false;
      if (r.ok) passage.innerHTML = await r.text();  // server-rendered, escaped HTML
      else passage.textContent = (await r.json().catch(() => ({}))).error || "The passage is not available.";
    }
  });
  if (dialog) {
    dialog.addEventListener("click", ev => { if (ev.target === dialog || ev.target.closest("[data-close]")) dialog.close(); });
    dialog.addEventListener("close", () => { if (opener) opener.focus(); });
  }
})();
