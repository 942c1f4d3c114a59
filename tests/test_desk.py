"""The research desk in a real headless Chromium against a real ``sleuth serve`` on loopback: ask from the
form, watch the run live, open a citation's evidence card and its passage, download the report in four
forms, search with filters, upload with progress, the runs list with its filter and a failed run's reason.

Screenshots of every page land in ``tests/output/desk/`` (gitignored) for a person to look at, with the
measured first paint of a 100-claim report (measured, never asserted: timings are benchmarks' business).
"""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sleuth.agent import (
    Claim,
    EvidenceRecord,
    Report,
    RunComplete,
    RunFailed,
    RunStarted,
    SectionReport,
    Source,
    SqliteRunStore,
)
from sleuth.agent.api.desk.markdown import render, render_marked
from sleuth.agent.api.desk.view import build
from tests.reports import report_of
from tests.test_api import QUESTION, Server
from tests.test_cli import run
from tests.test_research import FIXTURE, check_report

REPO = Path(__file__).resolve().parents[1]
SHOTS = REPO / "tests" / "output" / "desk"
MARKET = ["executive_summary", "key_findings", "market_landscape", "data_notes"]
FAILED_RUN = "20260101-000000-fa11ed"
BIG_RUN = "20260101-000001-b19b19"
FAILURE = "the index at /srv/index is locked by another process"


def _seed(runs_dir: Path) -> None:
    """Two runs written through the real run store before the server starts: one that failed (with its
    reason in the failed event) and a finished 100-claim report (for the first-paint measurement)."""
    store = SqliteRunStore(runs_dir)
    try:
        store.create(FAILED_RUN, "Why did the old run fail?", "brief", {"depth": 1, "use_corpus": True})
        store.record(
            RunStarted(run_id=FAILED_RUN, query="Why did the old run fail?", template="brief", options={})
        )
        store.record(RunFailed(run_id=FAILED_RUN, error=FAILURE))
        report = _big_report()
        store.create(BIG_RUN, report.query, "brief", {"depth": 2, "use_corpus": True})
        store.record(RunStarted(run_id=BIG_RUN, query=report.query, template="brief", options={}))
        store.save_artifact(BIG_RUN, "report", report.model_dump(mode="json"))
        store.record(RunComplete(run_id=BIG_RUN, report=report))
    finally:
        store.close()


def _big_report() -> Report:
    evidence = [
        EvidenceRecord(
            id=f"E{n:08x}",
            kind="corpus",
            document_id=f"doc-{n % 7}",
            title=f"Document {n % 7}",
            section_path=f"Document {n % 7} > Part {n % 5} > gin\\_pending\\_list\\_limit",
            page=n % 30 + 1,
            quote=f"Quote {n}: the `gin_pending_list_limit` setting is {n} kB, see [the manual](gin.html).",
            date="2025-05-01",
        )
        for n in range(1, 101)
    ]
    sections = []
    for s in range(10):
        claims = [
            Claim(
                text=f"Claim {s * 10 + k + 1} says **gin\\_pending\\_list\\_limit** matters.",
                evidence_ids=[e.id],
            )
            for k, e in enumerate(evidence[s * 10 : s * 10 + 10])
        ]
        if s == 3:
            claims[0] = Claim(text="Two sources give different limits.", evidence_ids=claims[0].evidence_ids,
                              kind="conflict")  # fmt: skip
        lines = [
            f"- {'**Sources disagree:** ' if c.kind == 'conflict' else ''}{c.text} [{s * 10 + k + 1}]"
            for k, c in enumerate(claims)
        ]
        status = "supported" if s % 4 else "thin_evidence"
        sections.append(
            SectionReport(id=f"part_{s}", title=f"Part {s}", required=s < 2, min_evidence=3, status=status,
                          content="\n".join(lines), claims=claims)
        )  # fmt: skip
    sources = [
        Source(document_id=f"doc-{d}", title=f"Document {d}", source=f"/srv/docs/doc-{d}.md",
               evidence_ids=[e.id for e in evidence if e.document_id == f"doc-{d}"])
        for d in range(7)
    ]  # fmt: skip
    return Report(
        run_id=BIG_RUN, query="A hundred claims about the GIN pending list", template="brief",
        created_at="2026-01-01T00:00:01+00:00", executive_summary="Many claims [1][2].",
        sections=sections, evidence=evidence, sources=sources, metrics={"seconds": {"total": 61.2}},
    )  # fmt: skip


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("desk")
    result = run(["ingest", str(FIXTURE), "--index", str(folder / "index")], cwd=folder)
    assert result.returncode == 0, result.stderr
    (folder / "root").mkdir()
    _seed(folder / "desk" / "runs")
    server = Server(folder, "desk", SLEUTH_API_MAX_RUNS="1")
    yield server
    server.close()


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads: Path) -> Iterator[Any]:
    from selenium import webdriver  # noqa: PLC0415
    from selenium.webdriver.chrome.service import Service  # noqa: PLC0415

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,900"):  # fmt: skip
        options.add_argument(flag)
    options.add_experimental_option(
        "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    )
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def _shot(driver: Any, name: str) -> None:
    """A full-page screenshot (the window stretched to the page's height for the picture)."""
    width = driver.get_window_size()["width"]
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(height, 600), 6000))
    driver.save_screenshot(str(SHOTS / f"{name}.png"))
    driver.set_window_size(width, 900)


def _wait(driver: Any, until: Any, timeout: float = 300) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait  # noqa: PLC0415

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(until)


def _no_overflow(driver: Any) -> bool:
    return bool(driver.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    ))  # fmt: skip


def test_markdown_is_rendered_safely_with_numbered_citations() -> None:
    html = render(
        "- gin\\_pending [MVCC](mvcc-intro.html) and [the site](https://example.org/a) [2][3] `[2]` "
        "<script>alert(1)</script> ![chart](https://example.org/c.png) [evidence:Eab12cd34] [9]",
        {"Eab12cd34": 1},
        3,
    )
    assert "gin_pending" in html and "\\_" not in html
    assert '<span class="link" title="mvcc-intro.html">MVCC</span>' in html  # a link into nothing: its text
    assert 'href="https://example.org/a" rel="noopener noreferrer nofollow" target="_blank"' in html
    assert html.count('class="cite"') == 3 and 'href="#ev-1"' in html  # [2], [3] and the evidence:ID form
    assert "<code>[2]</code>" in html and "[9]" in html  # code stays code; a number past the evidence is text
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<img" not in html and "[image: chart]" in html  # nothing fetched at read time
    marked, ok = render_marked("# T\n\nBefore. The `quote` here. After.", "The `quote` here.")
    assert ok and "<mark>The <code>quote</code> here.</mark>" in marked
    assert render_marked("One.\n\nTwo.", "Three.") == (render("One.\n\nTwo."), False)
    # A quote's card shows the code it ends with as code: a "# comment" line is no heading.
    quote = (
        "This is done as follows:\n\n# make gtls driver the default\n"
        'global(\nDefaultNetstreamDriver="gtls"\n)'
    )
    record = EvidenceRecord(id="E1", document_id="tls", title="TLS", quote=quote)
    card = build(report_of(record)).evidence[0].quote_html
    assert "<h1" not in card and "<pre><code>" in card and "# make gtls driver the default\nglobal(" in card


def test_serve_prints_the_desk_url_and_the_capabilities(desk: Server) -> None:
    log = (Path(desk.root).parent / "desk.log").read_text()
    assert f"http://127.0.0.1:{desk.port}/" in log and "token" not in log
    caps = httpx.get(f"{desk.base}/v1/capabilities").json()
    assert caps["corpus"]["available"] and caps["corpus"]["chunks"] > 0
    assert not caps["web"]["available"] and "SLEUTH_SEARXNG_URL" in caps["web"]["reason"]
    assert not caps["llm"]["available"] and caps["depth"] == {"default": 2, "min": 0, "max": 6}
    hit = httpx.get(f"{desk.base}/v1/search", params={"q": "Voltra Energy market share", "k": 1}).json()[0]
    chunk = httpx.get(f"{desk.base}/v1/chunks/{hit['chunk_id']}").json()
    assert chunk["content"] == hit["content"] and chunk["neighbours"]
    assert httpx.get(f"{desk.base}/v1/chunks/nope").status_code == 404


def test_ask_watch_read_and_download_in_chromium(desk: Server, browser: Any, downloads: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains  # noqa: PLC0415
    from selenium.webdriver.common.by import By  # noqa: PLC0415
    from selenium.webdriver.common.keys import Keys  # noqa: PLC0415

    driver = browser
    driver.set_window_size(390, 844)  # a phone's width first: nothing wider than the screen
    driver.get(f"{desk.base}/")
    assert _no_overflow(driver)
    _shot(driver, "00-ask-phone")
    driver.set_window_size(1280, 900)
    web = driver.find_element(By.ID, "opt-web")
    assert not web.is_enabled() and "SearXNG" in driver.find_element(By.ID, "opt-web-why").text
    assert driver.find_element(By.CSS_SELECTOR, "label[for=query]").text == "Question"
    driver.find_element(By.CSS_SELECTOR, "label[for=template-market_brief]").click()
    market = driver.find_element(By.CSS_SELECTOR, "#template-market_brief ~ details.sections")
    market.find_element(By.TAG_NAME, "summary").click()  # the template's sections and what they are for
    assert "Key findings" in market.text and "required" in market.text
    driver.find_element(By.ID, "query").send_keys(QUESTION)
    depth = driver.find_element(By.ID, "opt-depth")
    depth.clear()
    depth.send_keys("1")
    _shot(driver, "01-ask")
    driver.find_element(By.CSS_SELECTOR, "button.primary").click()

    # Watch: the page follows the run from its first event.
    _wait(driver, lambda d: "/runs/" in d.current_url)
    run_id = driver.current_url.rsplit("/", 1)[1]
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#plan .question"))
    _shot(driver, "02-watch")
    _wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#report section[data-status]")) == 4)
    report = httpx.get(f"{desk.base}/v1/research/{run_id}").json()["report"]
    check_report(report, MARKET)
    planned = next(e for e in _events(desk, run_id) if e["type"] == "plan")["questions"]
    rows = driver.find_elements(By.CSS_SELECTOR, "#plan .question")
    assert len(rows) >= len(planned) and all(r.get_attribute("data-state") == "done" for r in rows)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#plan .tag.req")) == 2  # the required-section guardrail
    statuses = {
        s.get_attribute("data-section"): s.get_attribute("data-state")
        for s in driver.find_elements(By.CSS_SELECTOR, "#plan .plan-section")
    }
    assert statuses == {s["id"]: s["status"] for s in report["sections"]}
    assert "pieces of evidence" in driver.find_element(By.ID, "pipe-summary").text
    assert driver.find_element(By.ID, "run-status").text == "complete"
    _check_report_page(driver, report)
    _shot(driver, "03-report")

    # Read and check: a citation opens its evidence card with the passage around the quote.
    cite = driver.find_element(By.CSS_SELECTOR, "#report .report-section a.cite")
    number = int(cite.get_attribute("data-ev"))
    cite.click()
    dialog = driver.find_element(By.ID, "evidence-dialog")
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#evidence-passage .passage-part.main"), 30)
    evidence = report["evidence"][number - 1]
    assert dialog.is_displayed() and evidence["document_id"] in dialog.text
    assert " ".join(evidence["quote"].split())[:40] in " ".join(dialog.text.split())
    marks = driver.find_elements(By.CSS_SELECTOR, "#evidence-passage mark")
    assert marks and marks[0].text.strip()
    _shot(driver, "04-evidence-card")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    _wait(driver, lambda d: not d.find_element(By.ID, "evidence-dialog").is_displayed(), 10)
    assert driver.switch_to.active_element == cite  # keyboard focus goes back to the citation

    # Downloads: report.md through the browser, the others checked as files.
    driver.find_element(By.LINK_TEXT, "report.md").click()
    md_file = downloads / f"report-{run_id}.md"
    _wait(driver, lambda _: md_file.is_file() and md_file.stat().st_size > 0, 30)
    assert md_file.read_text().startswith(f"# {QUESTION}")
    data = httpx.get(f"{desk.base}/runs/{run_id}/report.json").json()
    assert data == report
    page = httpx.get(f"{desk.base}/runs/{run_id}/report.html")
    assert page.headers["content-disposition"].startswith("attachment")
    assert "<style>" in page.text and "<script" not in page.text and "<link" not in page.text
    assert " src=" not in page.text and "/desk/static" not in page.text  # opens anywhere, fetches nothing
    _docx_has(httpx.get(f"{desk.base}/runs/{run_id}/report.docx").content, report)

    # The same page reloaded after the run: the report, served whole; the pipeline replays on demand.
    driver.refresh()
    assert len(driver.find_elements(By.CSS_SELECTOR, "#report section[data-status]")) == 4
    pipeline = driver.find_element(By.ID, "pipeline")
    assert pipeline.get_attribute("open") is None
    pipeline.find_element(By.TAG_NAME, "summary").click()
    _wait(
        driver,
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#plan .question[data-state=done]")) == len(rows),
    )

    # A phone's width: nothing wider than the screen.
    driver.set_window_size(390, 844)
    assert _no_overflow(driver)
    _shot(driver, "05-report-phone")
    driver.set_window_size(1280, 900)


def _events(server: Server, run_id: str) -> list[dict[str, Any]]:
    text = httpx.get(f"{server.base}/v1/research/{run_id}/events", timeout=60).text
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def _check_report_page(driver: Any, report: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By  # noqa: PLC0415

    text = driver.find_element(By.ID, "report").text
    assert "\\_" not in text and "](" not in text  # Markdown rendered, not shown
    cites = driver.find_elements(By.CSS_SELECTOR, "#report .report-section a.cite")
    assert cites and all(re.fullmatch(r"\[\d+\]", c.text) for c in cites)
    assert {int(c.get_attribute("data-ev")) for c in cites} <= set(range(1, len(report["evidence"]) + 1))
    cards = driver.find_elements(By.CSS_SELECTOR, "#report li.card")
    assert len(cards) == len(report["evidence"])
    heads = [c.find_element(By.CSS_SELECTOR, ".card-head .where").text for c in cards]
    assert all(len(set(h.split(" › "))) == len(h.split(" › ")) for h in heads)  # a title never said twice
    sources = driver.find_elements(By.CSS_SELECTOR, "#report .sources > li")
    assert len(sources) == len(report["sources"]) and all("Gave evidence" in s.text for s in sources)
    legend = driver.find_element(By.CSS_SELECTOR, "#report .legend")
    legend.find_element(By.TAG_NAME, "summary").click()
    assert "thin evidence" in legend.text and "minimum" in legend.text


def _docx_has(body: bytes, report: dict[str, Any]) -> None:
    from docx import Document  # noqa: PLC0415

    doc = Document(io.BytesIO(body))
    text = "\n".join(p.text for p in doc.paragraphs)
    assert doc.paragraphs[0].text == report["query"]
    assert all(s["title"] in text for s in report["sections"])
    assert "[1]" in text and "Evidence" in text and "\\_" not in text


def test_runs_list_filters_and_a_failed_run_says_why(desk: Server, browser: Any) -> None:
    from selenium.webdriver.common.by import By  # noqa: PLC0415
    from selenium.webdriver.support.ui import Select  # noqa: PLC0415

    driver = browser
    driver.get(f"{desk.base}/runs")
    rows = driver.find_elements(By.CSS_SELECTOR, "tr.run-row")
    failed = next(r for r in rows if r.get_attribute("data-status") == "failed")
    assert f"Failed: {FAILURE}" in failed.text
    _shot(driver, "06-runs")
    driver.find_element(By.ID, "filter-q").send_keys("hundred claims")
    shown = [r for r in rows if r.is_displayed()]
    assert len(shown) == 1 and "hundred claims" in shown[0].text.lower()
    assert driver.find_element(By.ID, "filter-count").text == f"1 of {len(rows)} runs shown"
    driver.find_element(By.ID, "filter-q").clear()
    Select(driver.find_element(By.ID, "filter-status")).select_by_value("failed")
    _wait(driver, lambda _: [r.is_displayed() for r in rows].count(True) == 1, 5)
    served = httpx.get(
        f"{desk.base}/runs", params={"status": "failed"}
    ).text  # the same filter without script
    assert served.count('class="run-row"') == 1 and FAILURE in served
    driver.set_window_size(390, 844)  # a phone's width
    assert _no_overflow(driver)
    _shot(driver, "06-runs-phone")
    driver.set_window_size(1280, 900)
    driver.get(f"{desk.base}/runs/{FAILED_RUN}")
    assert FAILURE in driver.find_element(By.CSS_SELECTOR, "p.error").text


def test_search_page_filters_by_document_type_and_section(desk: Server, browser: Any) -> None:
    from selenium.webdriver.common.by import By  # noqa: PLC0415

    driver = browser
    driver.get(f"{desk.base}/search")
    driver.find_element(By.ID, "search-q").send_keys("graphene battery market share")
    driver.find_element(By.CSS_SELECTOR, "form.search button").click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.hit"), 60)
    documents = {h.get_attribute("data-document") for h in driver.find_elements(By.CSS_SELECTOR, "li.hit")}
    assert len(documents) > 1
    _shot(driver, "07-search")
    driver.find_element(By.ID, "search-document").send_keys("market-report-2025")
    driver.find_element(By.ID, "search-section").send_keys("Freedonia Graphene Battery Market Report 2025")
    driver.find_element(By.CSS_SELECTOR, "label[for=type-text]").click()
    driver.find_element(By.CSS_SELECTOR, "form.search button").click()
    _wait(driver, lambda d: "document=market-report-2025" in d.current_url, 30)
    hits = driver.find_elements(By.CSS_SELECTOR, "li.hit")
    assert hits and {h.get_attribute("data-document") for h in hits} == {"market-report-2025"}
    assert {h.get_attribute("data-type") for h in hits} == {"text"}
    driver.get(f"{desk.base}/search?q=graphene&document=no-such-doc")
    assert "no document with id 'no-such-doc'" in driver.find_element(By.CSS_SELECTOR, "p.error").text


def test_upload_page_shows_progress_then_what_was_indexed(desk: Server, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By  # noqa: PLC0415

    note = tmp_path / "obsidian-note.md"
    note.write_text("# Obsidian note\n\nObsidian is volcanic glass that forms when lava cools quickly.\n")
    driver = browser
    driver.get(f"{desk.base}/upload")
    before = int(driver.find_element(By.ID, "chunk-count").text.replace(",", ""))
    driver.find_element(By.ID, "upload-files").send_keys(str(note))
    driver.find_element(By.CSS_SELECTOR, "#upload-form button").click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#upload-result .done"), 120)
    result = driver.find_element(By.ID, "upload-result").text
    assert result.startswith("Added 1, updated 0, unchanged 0, failed 0")
    assert int(driver.find_element(By.ID, "chunk-count").text.replace(",", "")) > before
    _shot(driver, "08-upload")
    hits = httpx.get(f"{desk.base}/v1/search", params={"q": "obsidian volcanic glass", "k": 1}).json()
    assert hits[0]["document_id"] == "obsidian-note"


def test_a_100_claim_report_paints_whole_and_its_first_paint_is_measured(desk: Server, browser: Any) -> None:
    from selenium.webdriver.common.by import By  # noqa: PLC0415

    driver = browser
    started = time.perf_counter()
    driver.get(f"{desk.base}/runs/{BIG_RUN}")
    loaded = time.perf_counter() - started
    paint = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "new PerformanceObserver(() => {}).observe({type: 'paint', buffered: true});"
        "setTimeout(() => {"
        "const p = performance.getEntriesByName('first-contentful-paint')[0];"
        "const n = performance.getEntriesByType('navigation')[0];"
        "done({fcp: p ? p.startTime : null, response: n.responseEnd - n.requestStart,"
        " dom: n.domContentLoadedEventEnd});}, 500);"
    )  # fmt: skip
    claims = driver.find_elements(By.CSS_SELECTOR, "#report .report-section .content li")
    assert len(claims) == 100
    assert len(driver.find_elements(By.CSS_SELECTOR, "#report li.card")) == 100
    conflict = driver.find_element(By.CSS_SELECTOR, "#report .conflicts")
    assert "Two sources give different limits." in conflict.text
    assert (
        "gin_pending_list_limit" in claims[0].text and "\\_" not in driver.find_element(By.ID, "report").text
    )
    (SHOTS / "first-paint.json").write_text(json.dumps({**paint, "selenium_get_seconds": loaded}, indent=1))
    _shot(driver, "09-report-100-claims")
