// The runs list: filters the rows as you type or pick a status (the form also works without this script,
// through the server). Counts what is shown for screen readers.
"use strict";
(() => {
  const q = document.getElementById("filter-q"), status = document.getElementById("filter-status");
  const count = document.getElementById("filter-count");
  if (!q || !status) return;
  const rows = [...document.querySelectorAll("tr.run-row")];
  function apply() {
    const words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const row of rows) {
      const ok = (!status.value || row.dataset.status === status.value) && words.every(w => row.dataset.text.includes(w));
      row.hidden = !ok; if (ok) shown += 1;
    }
    count.textContent = `${shown} of ${rows.length} runs shown`;
  }
  q.addEventListener("input", apply); status.addEventListener("change", apply);
})();
