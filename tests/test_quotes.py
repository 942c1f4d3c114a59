"""What a report may quote: visible text, windows that stand alone, requests split into what they ask.

Real Markdown as the converters write it (Docling's escapes and links, a manual's list introduced by a colon,
a PDF chunk that starts mid-sentence), checked against the rules a reader would apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations

import pytest

from sleuth.agent.report import Claim, EvidenceRecord, render_markdown
from sleuth.agent.research.admission import (
    EXTENDED_CHARS,
    Admission,
    extended,
    new_evidence,
    weights,
)
from sleuth.agent.research.assembly import claim_line
from sleuth.agent.research.citation import Citation
from sleuth.agent.research.claim_text import one_line
from sleuth.agent.research.code_lines import code_tail
from sleuth.agent.research.evidence import Evidence, Ledger, Passage
from sleuth.agent.research.guards import GuardCounts, guard_claims, verify_quotes
from sleuth.agent.research.judged_forms import judged_forms, question_asked
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.plan import ExtractivePlanner, Question, guard_plan, section_questions, topic
from sleuth.agent.research.quote_spans import joined
from sleuth.agent.research.quotes import (
    QuoteJudge,
    Readable,
    Window,
    antecedent,
    is_pointer,
    labels_only,
    readable,
    trailing_code,
    windows,
)
from sleuth.agent.research.request import by_default, classify, clauses, subject_of, understand
from sleuth.agent.research.routing import route
from sleuth.agent.research.state import RunState
from sleuth.agent.research.synthesis import _about_the_same, claim_of, conflicts, groups
from sleuth.agent.research.text import measures
from sleuth.agent.templates import TemplateLibrary
from sleuth.ingest import TokenCounter, chunk_markdown
from sleuth.ingest.term_lines import is_term_line
from sleuth.ingest.visible import visible_text
from sleuth.retrieval.encoders import Encoders
from tests.reports import report_of

DOCLING = (
    "## 24.1. Routine Vacuuming\n\n"
    "PostgreSQL databases require periodic maintenance known as *vacuuming*. The "
    "[VACUUM](sql-vacuum.html) command reclaims storage; `autovacuum` runs it, and "
    "vacuum\\_failsafe\\_age sets when it becomes urgent.\n\n"
    "For more information see [Chapter 70](storage.html).\n\n"
    "PostgreSQL provides various methods for authenticating users:\n\n"
    "- Trust authentication, which simply trusts the users.\n"
    "- Password authentication, which requires that users send a password.\n\n"
    "| Setting | Default |\n|---|---|\n| `work_mem` | 4MB |\n"
)


#: A judge for what reads no text (the windows of a passage, the ranking by hits).
UNUSED = QuoteJudge(lambda texts: [], lambda query, texts: [])


def admitting(
    judge: QuoteJudge = UNUSED,
    *,
    next_chunks: Mapping[str, str] | None = None,
    options: ResearchOptions | None = None,
    ledger: int = 50,
    long: bool = False,
) -> Admission:
    """An admission over an empty ledger of ``ledger`` places, the chunk after each chunk id of
    ``next_chunks`` being its text (the rest of a list or sentence a passage runs on into)."""
    after = dict(next_chunks or {})
    return Admission(
        options or ResearchOptions(),
        RunState(Ledger(ledger)),
        judge=judge,
        following=lambda ids: {k: text for k, text in after.items() if k in ids},
        long=long,
    )


def quoted(reader: Readable, *, split_start: bool = False, split_end: bool = False) -> list[str]:
    """The quotable windows of ``reader``, as text."""
    cut = windows(reader, split_start=split_start, split_end=split_end)
    return [reader.text[w.start : w.end] for w in cut]


def _hit(doc: str, rank: int) -> Passage:
    """A search hit of ``doc`` at ``rank`` (its text does not matter where only ranks are read)."""
    return Passage(chunk_id=f"{doc}-{rank}", document_id=doc, title=doc, text="Some text.", rank=rank)


def _near(doc: str, rank: int, similarity: float) -> Passage:
    """A search hit of ``doc`` at ``rank`` whose dense cosine to the question is ``similarity``."""
    return _hit(doc, rank).model_copy(update={"similarity": similarity})


def _judged(doc: str, rank: int, score: float) -> Evidence:
    """The quote of ``doc``'s hit at ``rank``, as the judge scored it (its text does not matter)."""
    return Evidence(
        id=f"E{doc}{rank}",
        chunk_id=f"{doc}-{rank}",
        document_id=doc,
        title=doc,
        quote=f"{doc} {rank}.",
        score=score,
    )


def test_visible_text_reads_as_the_document_reads() -> None:
    v = visible_text(DOCLING)
    assert "[VACUUM]" not in v.text and "sql-vacuum.html" not in v.text and "\\_" not in v.text
    assert "The VACUUM command reclaims storage; autovacuum runs it, and vacuum_failsafe_age" in v.text
    assert "known as vacuuming." in v.text and "Routine Vacuuming" in v.text and "##" not in v.text
    assert "work_mem | 4MB" in v.text
    i = v.text.index("VACUUM command")
    assert DOCLING[v.source_offset(i) : v.source_offset(i) + 6] == "VACUUM"  # mapped back to the source
    kinds = [b.kind for b in v.blocks]
    assert kinds == ["heading", "paragraph", "paragraph", "paragraph", "item", "item", "row", "row"]
    # An icon font's glyph (a private-use character: Django's console tabs) reads as nothing.
    icons = "Enter the command:\n\n\uf17c \uf17a &#xf17a;$ py -m pip install Django"
    shown = visible_text(icons)
    assert shown.text == "Enter the command:\n\n  $ py -m pip install Django"
    at = shown.text.index("py -m")
    assert icons[shown.source_offset(at) :].startswith("py -m")
    # Docling's "...\&gt;" is a Windows prompt, "...\>", not an escaped "&" before "gt;".
    prompt = visible_text("...\\&gt; py -m pip install -e django\\").text
    assert prompt == "...\\> py -m pip install -e django\\"
    # A star with no partner is the text's own: a C declaration inside bold, as converters write it; a
    # star between an emphasis's two markers too (converters never nest emphasis).
    assert visible_text("- **FILE *yyin**\n    - is the file").text == "• FILE *yyin\n• is the file"
    declared = visible_text("*YY_BUFFER_STATE* **yy_create_buffer** *( FILE *file, int size )*").text
    assert declared == "YY_BUFFER_STATE yy_create_buffer ( FILE *file, int size )"
    emphasised = visible_text("known as *vacuuming*, and *a* or _b_ here").text
    assert emphasised == "known as vacuuming, and a or b here"
    # A page's own backticks are text: m4 quotes with them, and Docling leaves them bare ("`a', `" is no code
    # span: code opens and closes on no space), where its code spans are read as ever.
    m4 = visible_text("cases: 'define(`a', `a')a' is the simplest example; run `m4 -P` or ``a`'b``.").text
    assert m4 == "cases: 'define(`a', `a')a' is the simplest example; run m4 -P or a`'b."
    # Code that holds ticks Docling writes between longer runs, padded where a tick opens or closes it.
    padded = visible_text("the string `` `foo' `` is quoted, and ``define(`a', `b')`` defines a.").text
    assert padded == "the string `foo' is quoted, and define(`a', `b') defines a."


def test_windows_never_pointers_never_bare_intros_nor_headers() -> None:
    text = readable(DOCLING)
    quotes = quoted(text)
    assert not any(q.startswith("For more information") for q in quotes)
    assert not any(q.strip() == "Routine Vacuuming" for q in quotes)
    intro = next(q for q in quotes if q.startswith("PostgreSQL provides various methods"))
    assert "Trust authentication" in intro and "Password authentication" in intro  # the list comes along
    assert "work_mem | 4MB" in quotes
    # A sentence that ends on "e.g.," introduces its example as one ending on a colon does (GNU m4's
    # notation had stood in a direct answer as "... giving descriptive names to the arguments, e.g.,").
    eg = quoted(
        readable(
            "This chapter describes the notation used for the builtin macros in detail. As each macro is "
            "described, a prototype call is shown, giving names to the arguments, e.g.,\n\n"
            "```\nComposite: example (string, [count = 1])\n```\n"
        )
    )
    assert not any(q.endswith("e.g.,") for q in eg)
    # A paragraph the converter split after a comma keeps its sentence (no example follows it).
    split = quoted(
        readable("The checkpointer writes pages at intervals set by checkpoint_timeout,\n\nwhich may grow.\n")
    )
    assert "The checkpointer writes pages at intervals set by checkpoint_timeout," in split
    assert any(q.endswith("e.g.,\nComposite: example (string, [count = 1])") for q in eg)
    assert is_pointer("Isolation levels are described in Table 13.1.")
    assert is_pointer(
        "For more information on how to use the built in generic views, consult the next topic on generic "
        "class-based views."
    )
    assert is_pointer(
        "A discussion on prefetch limits, and configuration settings for a worker that only reserves one "
        "task at a time is found here: Prefetch Limits."
    )
    assert not is_pointer("A discussion on prefetch limits is what the workers guide lacks.")
    assert not is_pointer("See the PRAGMA foreign_keys command to enable foreign key constraints at runtime.")
    # A sentence that opens by sending the reader elsewhere, or whose predicate is only where it is said, is
    # a pointer however much it names (Apache's rewrite flags, its custom error pages, SQLite's shared cache).
    for elsewhere in (
        "See URL Encoding and Decoding for the full picture of how Apache encodes and decodes URIs during "
        "rewriting.",
        "For more information about REDIRECT_ variables in the context of error documents, see Custom Error "
        "Responses.",
        "The internal protocol used to serialize access to the shared-cache by connections 2 and 3 is "
        "described in the remainder of this section.",
        "See the ENGINE setting below on how to specify other database types.",
    ):
        assert is_pointer(elsewhere), elsewhere
    # ... nor does an intro after a pointer open on the pointer (Django's databases settings).
    engine = readable(
        "See the ENGINE setting below on how to specify other database types. This example is for "
        "PostgreSQL:\n\n```\nDATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql'}}\n```\n"
    )
    assert [q[:31] for q in quoted(engine)] == ["This example is for PostgreSQL:"]
    for fact in (
        "This optimization can be set independently of exclusive lock mode using the journal_mode pragma as "
        "described in section 7.6 below.",
        # a place that is no part of a document, advice that says why, a sentence that goes on
        "The interior of the island, including the Crocker Range and the Muller Mountains, is covered in "
        "dense tropical rainforest.",
        "Consult the host's firewall rules for outbound SMTP, because many cloud providers block port 25.",
        "Refer to the error log for the exact reason the request failed; mod_security records the rule.",
        "See that the configuration file and every included snippet are readable for the reload to succeed.",
    ):
        assert not is_pointer(fact), fact
    assert not is_pointer(
        "The isolation levels are described in Table 13.1: Read Committed is the default level, and "
        "Serializable is the strictest level PostgreSQL offers."
    )
    # A sentence that ends by announcing what its quote does not hold says nothing (SQLAlchemy's FAQ: its
    # examples stand under headings further down); the example's own intro is quoted with its code.
    announced = readable(
        "Techniques to do so within specific debugging scenarios include the following. As an example, we "
        "will use the UUID datatype:\n\n```\nstmt = select(t)\nprint(stmt)\n```\n"
    )
    # A sentence about the code above it ("The above example ...") says nothing without it.
    chord = readable(
        "The chord primitive adds a callback to be called when all of the tasks have finished:\n\n"
        "```\n>>> res = chord(tasks, xsum.s())()\n>>> res.get()\n```\n\n"
        "The above example creates 10 tasks that all start in parallel. A chord's body can be immutable.\n"
    )
    assert not any(q.startswith("The above example") for q in quoted(chord))
    assert "A chord's body can be immutable." in quoted(chord)
    # "There are a few settings which ..." names none of them (Django's upload guide; the settings stand
    # on another page); a sentence that names them, or counts, says something.
    vague = readable(
        "There are a few settings which control Django's file upload behavior.\n\n"
        "There are 206 bones in the adult human body.\n\n"
        "There are several ways to run it: locally and in a container.\n\n"
        "There are some cases where VACUUM cannot run inside a transaction.\n\n"
        "There are several ways that you can configure it, including dictConfig.\n"
    )
    assert quoted(vague) == [
        "There are 206 bones in the adult human body.",
        "There are several ways to run it: locally and in a container.",
        "There are some cases where VACUUM cannot run inside a transaction.",
        "There are several ways that you can configure it, including dictConfig.",
    ]
    assert quoted(announced) == [
        "As an example, we will use the UUID datatype:\nstmt = select(t)\nprint(stmt)"
    ]


def test_a_short_intro_comes_with_the_sentence_that_says_what_it_exemplifies() -> None:
    """SQLite's foreign-key page: "For example:" alone names nothing; the sentence before it says what the
    example shows, and the example holds the answer ("PRAGMA foreign_keys = ON"). An intro that points back
    at what it is about ("In that case ...:") comes with the sentence it points at too."""
    cases = [
        (
            "Foreign key constraints are disabled by default. It must still be enabled by the application at "
            "runtime, using the [PRAGMA foreign\\_keys](pragma.html#pragma_foreign_keys) command. For "
            "example:\n\n```\nsqlite> PRAGMA foreign_keys = ON;\n```\n\n"
            "The application can also use the pragma to query.",
            # (back to what "It" is)
            "Foreign key constraints are disabled by default. It must still be enabled by the application at "
            "runtime, using the PRAGMA foreign_keys command. For example:\nsqlite> PRAGMA foreign_keys = ON;",
        ),
        (
            "The easiest way to enable SSL is to start the server in adhoc-mode. In that case Werkzeug will "
            "generate an SSL certificate for you:\n\n"
            "```\nrun_simple('localhost', 4000, ssl_context='adhoc')\n```\n",
            "The easiest way to enable SSL is to start the server in adhoc-mode. In that case Werkzeug will "
            "generate an SSL certificate for you:\nrun_simple('localhost', 4000, ssl_context='adhoc')",
        ),
    ]
    for markdown, intro in cases:
        text = readable(markdown)
        assert [text.text[w.start : w.end] for w in windows(text) if w.kind == "intro"] == [intro]


def test_a_step_that_introduces_its_code_is_quoted_with_it() -> None:
    """A numbered step that ends on a colon over its example (a list with code, as conversion writes it) is
    quoted with the code, and the code keeps its lines in the claim."""
    step = readable(
        "2. Dispose of the pool in the child.\n\n"
        "3. Call Engine.dispose() directly before the child process is created:\n\n"
        "```\nengine = create_engine(url)\n# before it starts, dispose\nengine.dispose()\np.start()\n```\n"
    )
    (intro,) = [q for q in quoted(step) if q.startswith("Call Engine.dispose()")]
    assert one_line(intro).endswith(
        "created:\nengine = create_engine(url)\n# before it starts, dispose\nengine.dispose()\np.start()"
    )


def test_a_colon_at_a_chunk_boundary_reads_on_into_the_next_chunk() -> None:
    first = "Some methods need a running server:"
    second = "- Peer authentication\n- Ident authentication\n"
    text = readable(first, second)
    (window,) = [w for w in windows(text) if w.kind == "intro"]
    assert window.continues and "Ident authentication" in text.text[window.start : window.end]
    # Every window that runs into the next chunk says so (its quote is checked against both chunks).
    short = readable(
        "By default, inspectdb creates unmanaged models. That is, managed = False tells Django not to manage "
        "each table:",
        "```\nclass Person(models.Model):\n    pass\n```",
    )
    running = [w for w in windows(short) if w.end > len(short.visible.text)]
    assert running and all(w.continues for w in running)


def test_fragments_at_a_split_are_not_quoted() -> None:
    text = readable(
        "translation on the WMT 2014 benchmark. The model reaches 28.4 BLEU on English-to-German."
    )
    quotes = quoted(text, split_start=True)
    assert quotes == ["The model reaches 28.4 BLEU on English-to-German."]
    cut = readable(
        "The model reaches 28.4 BLEU. It improves on the previous best results by over 2 BLEU on the"
    )
    tail = quoted(cut, split_end=True)
    assert all(q.endswith(".") for q in tail)


def test_a_quote_knows_the_page_it_stands_on(counter: TokenCounter) -> None:
    markdown = (
        "<!-- page: 4 -->\n# Results\n\n" + "The first result holds on page four. " * 3 + "\n\n"
        "<!-- page: 5 -->\nThe second result stands on page five.\n"
    )
    (chunk,) = chunk_markdown(markdown, counter, document_id="paper", max_tokens=256)
    assert chunk.page_start == 4
    assert chunk.page_at(chunk.content.index("second result")) == 5
    assert chunk.page_at(chunk.content.index("first result")) == 4


def test_short_requests_are_one_ask_and_long_ones_are_split() -> None:
    short = understand("How does WAL ensure durability?")
    assert short.asks == ["How does WAL ensure durability?"] and not short.long
    assert short.subject == "WAL durability"
    # Two things done to one object are two parts, the second done to what the first names.
    both = understand("How do I create a full-text search table with FTS5 and query it?")
    assert both.asks[1] == "How do I create a full-text search table with FTS5?"
    assert both.asks[2].startswith("How do I query it? (")
    assert len(understand("How do I install and configure it?").asks) == 1
    assert len(understand("How do I configure a reverse proxy for Django and should it cache?").asks) == 1
    # An abbreviation ends no sentence: a FanOutQA question was read as a three-sentence request.
    senators = understand(
        "Name the U.S. Senators who represent the states in the Pacific region, as defined by the U.S. "
        "Census Bureau."
    )
    assert not senators.long and len(senators.asks) == 1
    # ... but a line break ends a sentence, and so may "etc." or a lone capital.
    listed = understand(
        "Our stack:\n- it must support Postgres, MySQL, etc.\n- it must run on ARM servers without a JVM\n\n"
        "We tried plan B. Which database backends does Django support officially?"
    )
    assert "it must run on ARM servers without a JVM" in " | ".join(listed.constraints)
    assert not any("etc. - it must" in c for c in listed.constraints)
    ticket = understand(
        "Hi team,\n\nWe run a regional newspaper's CMS on Django 3.2 behind nginx. After moving to a new "
        "server all our CSS is gone and uploaded photos return 404. We must not turn DEBUG on in production. "
        "Could you explain what the customer missed for static files versus uploaded media? And which "
        "settings control where uploads are stored?\n\nYou are a senior Django support engineer. Keep the "
        "answer short.\n\nThanks, Maria"
    )
    assert ticket.long
    assert any("static files versus uploaded media" in a for a in ticket.asks)
    assert any("settings control where uploads are stored" in a for a in ticket.asks)
    assert any("must not turn DEBUG on" in c for c in ticket.constraints)
    assert not any("Keep the answer short" in q or "Thanks" in q for q in ticket.searches)
    assert classify("You are a senior Django support engineer.") == "instruction"
    assert "Django" in ticket.subject
    # A "which" that relates asks nothing; one that asks does.
    assert (
        classify("Right now someone runs flask run in a tmux session, which we know is wrong.") == "context"
    )
    assert classify("It lists the order in which the hooks run.") == "context"
    assert classify("We are not sure which worker class suits us.") == "ask"


def test_a_list_of_questions_in_one_sentence_is_one_search_each() -> None:
    enumerated = clauses(
        "Could you summarise (1) how Django numbers its releases, what an LTS release is, (2) how "
        "deprecations work, and (3) the recommended procedure for upgrading a project?"
    )
    assert enumerated == [
        "How Django numbers its releases, what an LTS release is?",
        "How deprecations work?",
        "The recommended procedure for upgrading a project?",
    ]
    listed = clauses(
        "Please tell me: what setting points Django at a custom user model, which base classes I can "
        "extend (AbstractUser, AbstractBaseUser), and why changing the user model mid-project is risky."
    )
    assert listed == [
        "What setting points Django at a custom user model",
        "Which base classes I can extend (AbstractUser, AbstractBaseUser)",
        "Why changing the user model mid-project is risky",
    ]
    topics = clauses(
        "Could you write the installation instructions based on the docs for Windows: installing Python, "
        "creating and activating a virtual environment, installing Django, and checking it worked."
    )
    assert topics == [
        "Installing Python",
        "Creating and activating a virtual environment",
        "Installing Django",
        "Checking it worked",
    ]
    # Two questions and a list's last item after a comma and "and" are three asks; the words that lead into
    # the list are no part of its first item.
    three = clauses(
        "Please act as a mentor and explain how Django handles database transactions by default "
        "(autocommit?), how to make the view's writes all-or-nothing (per request vs per block), and the "
        "documented way to run the email sending only after the transaction has committed."
    )
    assert three == [
        "How Django handles database transactions by default (autocommit?)",
        "How to make the view's writes all-or-nothing (per request vs per block)",
        "The documented way to run the email sending only after the transaction has committed",
    ]
    paging = clauses(
        "How do I use it in a function-based view and in a class-based ListView, what happens when someone "
        'requests page 9999 or page "abc", and can I avoid an orphan last page?'
    )
    assert paging == [
        "How do I use it in a function-based view and in a class-based ListView?",
        'What happens when someone requests page 9999 or page "abc"?',
        "Can I avoid an orphan last page?",
    ]
    # After a question and a colon, an item that names nothing is searched with what the question is about.
    signing = clauses(
        "Please explain what the recommended way is to get these zones signed and kept signed with the least "
        "ongoing work: what has to go into each zone statement, and what BIND needs from the zone for it "
        "to work.",
        subject="zones hand files key signed",
    )
    assert signing == [
        "What has to go into each zone statement (zones signed)",
        "What BIND needs from the zone for it to work",
    ]
    # One question with two verbs, or a list inside brackets, stays whole.
    assert clauses("How does WAL ensure durability and why is it fast?") == [
        "How does WAL ensure durability and why is it fast?"
    ]
    inner = "How to configure the cache with memcached (which backend class, what the setting looks like)?"
    assert clauses(inner) == [inner]
    # A colon inside a word ("\figref{fig:xyz}", a URL) opens no list: cut there, an ask read "Xyz} whose
    # arguments are labels, not words?".
    latex = (
        "Second, our LaTeX sources use many custom commands like \\figref{fig:xyz} whose arguments are "
        "labels, not words; how can we make aspell skip the parameters of such commands?"
    )
    assert clauses(latex) == [latex]
    # A clause that says when ("When the user clicks ..., what line do we send ...") asks nothing alone: it
    # stays with its question; "When does ..." asks.
    clicked = (
        '(2) When the user clicks "Add to dictionary" in our UI, what line do we send to aspell to add the '
        "word to the personal dictionary, and how do we make sure the personal dictionary is saved to disk?"
    )
    assert clauses(clicked) == [clicked]  # (two questions, no list of three: one ask, as written)
    # ... after a colon too
    assert clauses(
        "Please tell us: when the user clicks Add, what line do we send to aspell, which file is it written "
        "to, and how is it saved?"
    ) == [
        "When the user clicks Add, what line do we send to aspell?",
        "Which file is it written to?",
        "How is it saved?",
    ]
    assert clauses(
        "If a worker dies, which tasks are lost, what happens to the queue, and how do we retry?"
    ) == [
        "If a worker dies, which tasks are lost?",
        "What happens to the queue?",
        "How do we retry?",
    ]
    assert clauses("When does the cache expire, what sets its size, and how do I clear it?")[0] == (
        "When does the cache expire?"
    )
    request = understand(
        "Hello, we run Django 3.2 in production, thirty tables so far, and the product owner wants users to "
        "log in with their email address. Some blog posts say a profile model is enough. Please tell me: "
        "what setting points Django at a user model, which base classes I can extend, and why changing the "
        "model is risky."
    )
    assert any(a.startswith("Which base classes I can extend (") for a in request.asks)  # carries the subject


def test_a_long_requests_subject_is_what_it_asks_about() -> None:
    # The story around the questions repeats its own words (order, email); the subject is what is asked.
    report = understand(
        "Bug report from our QA lead: when a customer places an order we save the order, then the order "
        "lines, then send the customer a confirmation email. Twice the email went out but the order lines "
        "were missing, and one customer got the email twice.\n\nPlease explain how Django handles database "
        "transactions by default. What happens if I catch a database exception inside a transaction?"
    )
    assert report.long
    assert {"database", "transactions"} <= set(report.subject.split())


def test_tables_quote_as_they_read() -> None:
    table = (
        "| Flag | String | Description |\n|---|---|---|\n"
        "| ***Access Control*** | ***Access Control*** | ***Access Control*** |\n"
        "| [[F]](#flag_f) | Forbidden | Return 403 (implies [L]) |\n"
        "| [[QSA]](#flag_qsa) | Query string append | Append original query string to substitution |\n"
        "| Syntax: | `DeflateAlterETag AddSuffix&#124;NoChange` &amp; more |\n"
    )
    v = visible_text(table)
    assert v.text.splitlines()[1:3] == ["Access Control", "[F] | Forbidden | Return 403 (implies [L])"]
    quotes = [v.text[w.start : w.end] for w in windows(readable(table)) if w.kind == "row"]
    assert "Syntax: | DeflateAlterETag AddSuffix|NoChange & more" in quotes  # character references read
    assert "Flag | String | Description" not in quotes  # a header row of labels answers nothing alone
    assert "[QSA] | Query string append | Append original query string to substitution" in quotes
    # A term and the description indented under it (htpasswd's options; Apache's module index, a definition
    # list) are one quote: the description alone names nothing, the term alone says nothing.
    items = readable(
        "- ***username***\n    - The username to create or update in *passwdfile* .\n"
        "- [mod_ratelimit](mod_ratelimit.html)\n    - Bandwidth Rate Limiting for Clients\n"
        "- Peer authentication\n- Ident authentication, which needs an ident server.\n"
    )
    assert [one_line(q) for q in quoted(items)] == [
        "username — The username to create or update in passwdfile .",
        "mod_ratelimit — Bandwidth Rate Limiting for Clients",
        "Ident authentication, which needs an ident server.",
    ]
    # Several names over one description (git-stash's options as Docling converts git's manual pages): the
    # quote names them all, never the description alone or under its last name only.
    options = readable(
        "## OPTIONS\n\n- **-u**\n- **--include-untracked**\n- **--no-include-untracked**\n"
        "    - When used with the `push` and `save` commands, all untracked files are also stashed and then "
        "cleaned up with `git clean` .\n- **--only-untracked**\n"
        "    - This option is only valid for the `show` command.\n"
    )
    assert [one_line(q) for q in quoted(options)] == [
        "-u, --include-untracked, --no-include-untracked — When used with the push and save commands, all "
        "untracked files are also stashed and then cleaned up with git clean.",
        "--only-untracked — This option is only valid for the show command.",
    ]
    # Short items that are not names are no aliases: the note is about pandas only.
    plain = readable(
        "- numpy\n- scipy\n- pandas\n    - Only needed for the CSV export, which few users run.\n"
    )
    assert "pandas — Only needed for the CSV export, which few users run." in [
        one_line(plain.text[w.start : w.end]) for w in windows(plain)
    ]
    # A description too long to quote whole is quoted sentence by sentence, each from its term on while
    # that fits: "Defaults to zero." says what defaults to zero only with "gc.bigPackThreshold".
    more = " ".join(f"Sentence number {n} of a long description says something." for n in range(12))
    setting = readable(
        "- **gc.bigPackThreshold**\n    - If non-zero, all packs larger than this limit are kept. Defaults "
        f"to zero. {more}\n"
    )
    quotes = [one_line(q) for q in quoted(setting)]
    assert (
        "gc.bigPackThreshold — If non-zero, all packs larger than this limit are kept. Defaults to zero. "
        "Sentence number 0 of a long description says something." in quotes
    )
    assert not any(q.startswith("Defaults to zero") for q in quotes)
    assert len(quotes) == len(set(quotes))
    # So is a description that fits in a quote only without its term; the term alone is no quote.
    fits = " ".join(
        f"When the value is number {n}, the branch is rebased in the mode number {n}." for n in range(8)
    )
    assert 570 < len(fits) < 600
    rebase = readable(f"- **branch.&lt;name&gt;.autoSetupRebase**\n    - {fits}\n")
    quotes = [one_line(q) for q in quoted(rebase)]
    assert quotes[0] == (
        "branch.<name>.autoSetupRebase — When the value is number 0, the branch is rebased in the mode "
        "number 0."
    )
    assert "branch.<name>.autoSetupRebase" not in quotes


@pytest.mark.parametrize(
    ("passage", "leaning", "first", "last"),
    [
        (
            "Variable renewable energy sources fluctuate, such as wind power and solar power. "
            "In contrast, controllable renewable energy sources include dammed hydroelectricity, bioenergy, "
            "or geothermal.",
            "In contrast",
            "Variable",
            "geothermal.",
        ),
        # It points back after an opening phrase (Apache's RewriteRule flags).
        (
            "The [L] flag causes mod_rewrite to stop processing the rule set. "
            "In most contexts, this means that if the rule matches, no further rules will be processed.",
            "In most contexts",
            "The [L] flag",
            "will be processed.",
        ),
        # Its opening phrase points back (Django's class-based views).
        (
            "We want the books of one publisher, paginated. In order to do this, we need to have two "
            "different querysets.",
            "In order to do this",
            "We want the books",
            "two different querysets.",
        ),
        # ... or in an aside after its first words (Django's file uploads).
        (
            "You can write custom handlers that customize how Django handles files. You could, for example, "
            "use custom handlers to enforce user-level quotas or compress data on the fly.",
            "You could, for example",
            "You can write",
            "on the fly.",
        ),
        # ... also when it opens a paragraph: the last sentence of the paragraph before comes with it.
        (
            "This captures your on_commit() callbacks in a list. You can overcome this limitation with "
            "captureOnCommitCallbacks().\n\nAnother way to overcome the limitation is to use "
            "TransactionTestCase instead of TestCase.",
            "Another way",
            "You can overcome",
            "instead of TestCase.",
        ),
        # A chain of sentences about "he" goes back to the one that names him (a Wikipedia lead), while
        # the quote fits.
        (
            "Louis XIV was King of France from 14 May 1643 until his death in 1715. He is a symbol of the "
            "Age of Absolutism in Europe. He presided over a great expansion of the French colonial empire. "
            "His reign of 72 years and 110 days remains the longest of any sovereign monarch in history.",
            "His reign",
            "Louis XIV was",
            "in history.",
        ),
        # A pronoun after an opening phrase points back too.
        (
            "Donald John Trump is an American politician who is the 47th president of the United States. "
            "A member of the Republican Party, he served as the 45th president from 2017 to 2021.",
            "A member of",
            "Donald John Trump",
            "2017 to 2021.",
        ),
        # ... also after a one-word opening: "it" is the gevent pool, not every pool (Celery's workers guide).
        (
            "The gevent pool does not implement soft time limits. Additionally, it will not enforce the hard "
            "time limit if the task is blocking.",
            "Additionally,",
            "The gevent pool",
            "is blocking.",
        ),
        # A definite description names its subject only through the noun the sentence before used (a
        # Wikipedia lead: which band?) ...
        (
            "Led Zeppelin were an English rock band formed in London in 1968. The band comprised vocalist "
            "Robert Plant, guitarist Jimmy Page, bass-guitarist John Paul Jones and drummer John Bonham.",
            "The band",
            "Led Zeppelin",
            "John Bonham.",
        ),
        # ... also after an opening phrase.
        (
            "Amazon.com, Inc. is an American multinational technology company engaged in e-commerce. "
            "Founded in 1994 by Jeff Bezos in Bellevue, Washington, the company started as an online book "
            "marketplace.",
            "Founded in 1994",
            "Amazon.com",
            "book marketplace.",
        ),
        # "Another way" is another than the one before (Django's on-commit callbacks in tests).
        (
            "You can overcome this limitation by using TestCase.captureOnCommitCallbacks(). "
            "Another way to overcome the limitation is to use TransactionTestCase instead of TestCase.",
            "Another way",
            "You can overcome",
            "instead of TestCase.",
        ),
        # "Then" goes on from the step before it, through "It" to what "it" is (Apache's stopping page).
        (
            "Sending the TERM or stop signal to the parent causes it to immediately attempt to kill off all "
            "of its children. It may take it several seconds to complete killing off its children. Then the "
            "parent itself exits.",
            "Then the parent",
            "Sending the TERM",
            "itself exits.",
        ),
        # "But" says what it contrasts only with the sentence before (SQLite's type affinity).
        (
            "SQLite uses a more general dynamic type system. But SQLite does use the declared type of a "
            "column as a hint that you prefer values in that format.",
            "But SQLite",
            "SQLite uses",
            "in that format.",
        ),
        # "For example" illustrates the sentence before it (CMake's cmake_minimum_required).
        (
            "The FATAL_ERROR option is accepted but ignored by CMake 2.6 and higher. For example, the "
            "CMAKE_MINIMUM_REQUIRED_VERSION variable won't be set when the call comes before project().",
            "For example",
            "The FATAL_ERROR",
            "before project().",
        ),
        # "The former" and "the latter" are the things the sentence before named (Sphinx's Docker images).
        (
            "Two images are published, sphinxdoc/sphinx and sphinxdoc/sphinx-latexpdf. Former one is used "
            "for standard usage of Sphinx, and latter one is mainly used for PDF builds using LaTeX.",
            "Former one",
            "Two images",
            "using LaTeX.",
        ),
    ],
)
def test_a_sentence_that_leans_on_the_one_before_is_quoted_with_it(
    passage: str, leaning: str, first: str, last: str
) -> None:
    text = readable(passage)
    quotes = quoted(text)
    assert not any(q.startswith(leaning) for q in quotes)
    assert any(q.startswith(first) and q.endswith(last) for q in quotes)


def test_planned_questions_read_as_questions() -> None:
    template = TemplateLibrary().load("technical_due_diligence")
    question = understand("How does WAL ensure durability?")
    assert topic(question) == "WAL durability"
    risks = section_questions(template.section("technical_risks"), question)
    assert risks == ["What are the limitations, known problems and technical risks of WAL durability?"]
    market = understand("the graphene battery market")
    planned = [q.text for q in ExtractivePlanner().plan(market, TemplateLibrary().load("market_brief"))]
    assert "How large is the market for the graphene battery market and how fast is it growing?" in planned
    assert not any("What is How" in q for q in planned)
    # A long request's asks are its questions for the sections with no aspect of their own (a brief's key
    # findings and details); a section with one (what is unknown) is still asked about.
    brief = TemplateLibrary().load("brief")
    ticket = understand(
        "Hi, we are building a public catalogue of library books with Django 3.2 and the list page needs "
        "paging.\n\nHow do I use the paginator in a class-based ListView? What happens when someone requests "
        "page 9999? Can I avoid an orphan last page?\n\nThanks!"
    )
    plan = guard_plan(ExtractivePlanner().plan(ticket, brief), ticket, brief, limit=12)
    assert [q.origin for q in plan][:2] == ["query", "ask"]
    planned = [q.sections for q in plan if q.origin not in ("query", "ask", "constraint")]
    assert planned == [["open_questions"]]


def test_a_short_ask_that_points_back_is_asked_with_the_sentence_before_it() -> None:
    request = understand(
        "Quick one: I'm building a public catalogue of 120,000 library books with Django 3.2. The list page "
        'needs paging, and the designer wants "page 3 of 400" plus prev/next links. What does Django provide '
        "for this? Also any performance concerns with counting 120k rows on every request?\n\nThanks!"
    )
    assert request.long
    leaning = [a for a in request.asks if a.endswith("What does Django provide for this?")]
    # The ask carries what "this" is, and the sentence it leaned on is not searched a second time alone.
    assert leaning and "needs paging" in leaning[0]
    assert not any(a.startswith("The list page") and a != leaning[0] for a in request.asks)
    # An ask that says enough on its own is left as it is.
    assert "Also any performance concerns with counting 120k rows on every request?" in request.asks
    # An ask that opens by pointing back ("Which hook does that, and ...") is asked with the sentence before
    # it; a long thank-you is no ask though it says "help us".
    hooks = understand(
        "Hi there,\n\nWe cannot install any server-side hooks. Second, we want our test suite to run before "
        "anything is pushed, and the push should be aborted if tests fail. Which hook does that, and can we "
        "keep the hook scripts in the repository itself so everyone uses the same ones?\n\nThanks a lot, "
        "this would really help us write the runbook."
    )
    opened = [a for a in hooks.asks if a.startswith("Second, we want our test suite")]
    assert opened and "Which hook does that" in opened[0]
    assert not any("runbook" in q for q in hooks.searches)
    # ... and within one sentence: a clause that points back is asked with what the clause before it is
    # about, not with the request's subject, nor with the role the sentence gives ("act as ...").
    within = understand(
        "We are moving our company handbook, four hundred pages of Word files, to Sphinx. Our writers are no "
        "developers.\n\nCould you act as our docs consultant and tell me whether Sphinx can produce PDF "
        "output as well as HTML, what it needs installed for that, and how translations are handled?"
    )
    pdf = [a for a in within.asks if a.startswith("What it needs installed for that")]
    assert pdf and "PDF" in pdf[0] and "consultant" not in pdf[0]
    # ... but a thank-you that goes on to ask is an ask.
    assert classify("Thanks in advance, we need to know which hook runs before a push.") == "ask"
    # "a list of" is a noun, no ask to list: a ticket's context is no ask (nor its report's title).
    context = "We pass each template a user object, an order dict and a list of line items."
    assert classify(context) != "ask"
    assert classify("Please list the settings that remove blank lines.") == "ask"
    assert classify("Please give me a list of the settings that remove blank lines.") == "ask"
    assert classify("I need a full list of every filter Jinja ships with.") == "ask"


def test_questions_listed_after_a_lead_in_are_each_asked() -> None:
    request = understand(
        "Good morning,\n\nI'm porting an old ksh script to bash. It keeps a lookup table from host names to "
        "addresses, and the script runs on minimal containers.\n\n"
        "A few things I couldn't figure out from the man page:\n"
        "- How do I declare an associative array in bash so that the keys are strings?\n"
        "- How do I loop over all the keys of the array?\n"
        "- And how do I get the number of elements it holds?\n\nThank you in advance!"
    )
    # The lead-in asks nothing itself (searched, it finds installation notes about "figuring out" hosts).
    assert not any(a.startswith("A few things") for a in request.searches)
    assert request.asks[:2] == [
        "How do I declare an associative array in bash so that the keys are strings?",
        "How do I loop over all the keys of the array?",
    ]
    # A question that points back at the question before it stays a question of its own (one search for
    # the two blends them), and says what "it" is about.
    assert len(request.asks) == 3
    third = request.asks[2]
    assert third.startswith("And how do I get the number of elements it holds? (") and "array" in third


def test_an_ask_that_goes_on_from_the_one_before_says_what_it_is_about() -> None:
    """Searched alone, "Also what does Django use by default out of the box?" found the admin's select boxes
    and the cache backends; it asks about the passwords of the sentence before."""
    request = understand(
        "We inherited a Django site; the passwords were imported from an old PHP system as unsalted MD5.\n\n"
        "How does Django store passwords, and can I switch the default to Argon2? "
        "Also what does Django use by default out of the box?\n\nThanks!"
    )
    last = request.asks[-1]
    assert last.startswith("Also what does Django use by default out of the box? (") and "passwords" in last
    # ... an ask that names its own topic is searched as written
    request = understand(
        "We use git worktrees for hotfix branches and our developers stash a lot.\n\n"
        "How do we create a worktree for a hotfix branch? "
        "Also, if we keep using stash, how do we recover a stash that someone dropped by mistake?"
    )
    assert (
        request.asks[-1]
        == "Also, if we keep using stash, how do we recover a stash that someone dropped by mistake?"
    )
    # ... and so is one that names what the ask before it does not, or that follows background, not an ask
    asks = understand("We run a crawler. What does AUTOTHROTTLE do? Also, is HTTP caching supported?").asks
    assert asks[-1] == "Also, is HTTP caching supported?"
    told = understand(
        "How does RDB snapshotting work? Our ops team migrates on Saturday night. Also, what is the default "
        "save interval? We run Redis 7 on three nodes."
    )
    assert "Also, what is the default save interval?" in told.asks


def test_a_customer_request_read_for_its_needs_and_its_questions() -> None:
    """Scrapy's manual, a data engineer's request (unseen: a helper's held-out set)."""
    request = understand(
        "Hi, I'm a data engineer. Our warehouse loader picks files up from an S3 bucket.\n\n"
        "Two problems. First, I'd like the results written in chunks of 50,000 items. Which feed options do "
        "that?\n\nThe second is product photos. We also need the product images stored in the same bucket "
        "under an images/ prefix, and the front-end team needs them to be publicly readable. We don't want "
        "to re-download the same photo on every nightly run either; how long does Scrapy keep considering a "
        "downloaded image fresh, and can we change that?"
    )
    # A need asks how to meet it: it held the ACL setting the request asked for, and had been context.
    assert any(a.startswith("We also need the product images stored") for a in request.asks)
    # ... a deadline or a condition asks nothing
    assert classify("We need the answer by Friday.") == "context"
    assert classify("The change needs to be done without downtime.") == "constraint"
    assert classify("Thanks a lot in advance, we really need the answer before our release.") == "pleasantry"
    assert classify("We need the URLs of external links to appear at the bottom of the page.") == "ask"
    # The clause before a question that asks nothing is asked with it, never alone (as "... either?").
    assert not any(a.startswith("We don't want") and ";" not in a for a in request.asks)
    assert any(
        a.startswith("We don't want to re-download") and "how long does Scrapy" in a for a in request.asks
    )
    # Words that count the questions are no subject ("(Scrapy night cron job Second)").
    assert "First" not in request.subject and "Second" not in request.subject
    assert "second" in subject_of("We must limit the requests per second per client on our nginx server.")
    # A sentence may open on a letter that numbers it.
    lettered = understand(
        "Our workflow is painful and slow.\n\nI want the notes to cover two things. (a) How can a developer "
        "keep a local copy of the pages a spider fetched? (b) How can they run one callback against one URL "
        "from the command line?"
    )
    assert [a[:3] for a in lettered.asks] == ["(a)", "(b)"]
    # A clause that tells the reader what to do asks, and is asked alone.
    listed = (
        "Please confirm the default port of Redis, which file holds its settings, and how do we reload it?"
    )
    assert len(clauses(listed)) == 3


def test_an_ask_is_shown_as_the_request_wrote_it() -> None:
    # The note on an unanswered ask had read "What delay does it start from ...? (First rather picking
    # fixed)": the subject added to search it is no part of what its reader asked.
    request = understand(
        "We use Scrapy nightly. How long does Scrapy keep a downloaded image fresh? Can we change that? "
        "Which setting sets the retry count (the number of extra attempts)?"
    )
    searched = request.asks[1]
    assert searched.startswith("Can we change that? (")
    assert request.as_written(searched) == "Can we change that?"
    # (brackets the request wrote stay)
    assert request.as_written(request.asks[-1]) == request.asks[-1]
    assert request.asks[-1].endswith("(the number of extra attempts)?")
    # (also where the request breaks its line inside them)
    broken = understand(
        "We run Scrapy nightly on one VM. It crawls a dozen sites.\n\nWhich setting sets the retry count "
        "(the number of\nextra attempts)? How long does a request wait?"
    )
    assert broken.long and broken.asks[0].endswith("(the number of extra attempts)?")
    assert broken.as_written(broken.asks[0]) == broken.asks[0]


def test_the_other_answer_to_a_question_is_no_question_of_its_own() -> None:
    # "Do we need to add the code ourselves?", searched alone with the request's subject, had filled a report
    # with the contributing guide's coding conventions (Scrapy's manual, unseen).
    asked = (
        "Does Scrapy retry a request that got a 429 out of the box, or do we need to add the code ourselves?"
    )
    assert understand(asked).asks == [asked]
    request = understand(
        "We crawl competitors nightly and got 429s last week.\n\nThird, when we get a 429 back, does Scrapy "
        "retry that request automatically out of the box, or do we need to add the code ourselves? Our "
        "developers disagree on this."
    )
    assert not any(a.startswith("Do we need to add the code") for a in request.asks)
    # ... while "or" before a question word joins two questions
    assert (
        len(understand("Which setting limits retries, or what else stops a request from being retried?").asks)
        == 3
    )


def test_a_question_that_points_at_the_background_before_it_is_asked_with_it() -> None:
    """Sphinx's manual (a helper's held-out set): a technical writer's request."""
    request = understand(
        "I'm the technical writer at a small firm. Our manual is built with Sphinx.\n\n"
        "Please act as a Sphinx/LaTeX consultant and help me with three things. First, the manual is full of "
        "Unicode. Which engine should we switch to?\n\nThird, a cosmetic point: the chapter title pages in "
        "the PDF use a decorative style with the chapter number in a big box. Which part of the LaTeX "
        "configuration produces that look and how do we turn it off? When we tried, we got hundreds of "
        "warnings."
    )
    # The count of the questions asks nothing, also with background between it and them.
    assert not any("three things" in a for a in request.asks)
    # "that look" is the decorative style the sentence before describes.
    assert any(a.startswith("Third, a cosmetic point") and a.endswith("turn it off?") for a in request.asks)
    # A sentence that opens on a condition and ends with a stop tells what happened.
    assert not any(a.startswith("When we tried") for a in request.asks)


def test_an_item_that_opens_on_background_is_asked_with_it() -> None:
    """Sphinx's manual (a helper's held-out set): alone, "We need the URLs of external links to appear ..."
    found the reST syntax of links; the item's first sentence says what they are for (printed copies)."""
    request = understand(
        "Our manual is built with Sphinx and published as HTML.\n\nSecond, the printed copy is useless if "
        "readers can't see where the hyperlinks go. We need the URLs of external links to appear somewhere "
        "on the page in the PDF, ideally at the bottom of the page.\n\nThird: every sub-directory ends up "
        "as one big template. Our translators work per page. Is there an option for one template per "
        "document?"
    )
    assert (
        request.asks[0].startswith("Second, the printed copy is useless")
        and "We need the URLs" in (request.asks[0])
    )
    assert request.asks[1].startswith("Third: every sub-directory") and request.asks[1].endswith("document?")
    assert len(request.asks) == 2
    # (a constraint that opens an item stays one: "can't" rules something in or out on its own)
    assert request.constraints == [
        "Second, the printed copy is useless if readers can't see where the hyperlinks go."
    ]
    # Not across a further item, nor beyond two sentences of background, nor before a list of asks.
    far = understand(
        "We run Sphinx nightly on a runner.\n\nFirst, the runner is slow. It has two cores. Nobody knows "
        "why. Which builder is fastest?\n\nSecond, links break. Asks: (1) which builder checks links; (2) "
        "how long it waits."
    )
    assert not any(a.startswith(("First", "Second")) for a in far.asks)
    assert any(a.startswith("Which builder is fastest") for a in far.asks)
    # An item told by "Last thing:" or "Another problem:" as by its number (Tornado's manual, a helper's
    # held-out set: "What do we need to raise, and where?" had been searched alone).
    last = understand(
        "We moved our Tornado API onto one VM.\n\nFirst issue: every request comes from 127.0.0.1. I need "
        "the real client address to show up.\n\nLast thing: during a load test the service failed with "
        "errors about too many open files. We run it under supervisord. What do we need to raise, and where?"
    )
    assert last.asks[-1].startswith("Last thing: during a load test") and last.asks[-1].endswith("where?")


def test_a_question_about_both_problems_is_asked_with_them() -> None:
    """GNU Mailutils (a helper's held-out set): "How do I fix both?" was the request's only ask, and every
    passage was judged against those five words."""
    request = understand(
        "I use readmsg to pull messages out of a folder by a phrase, but searching for invoice overdue "
        "misses mails that say 'Invoice Overdue', and when several messages do match I only ever get the "
        "first one printed. How do I fix both?"
    )
    assert request.asks == [request.text]


def test_a_wish_for_a_state_of_things_is_an_ask() -> None:
    """aiohttp's manual (a helper's held-out set): "I'd like every request on the session to raise an
    exception for error statuses" and "I'd like setup and teardown of that task written as one unit" had
    been background, never searched."""
    for wish in (
        "I'd like every request on the session to raise an exception for error statuses by default.",
        "I'd like setup and teardown of that task written as one unit, where teardown runs only if setup "
        "succeeded.",
        "We also want the application itself to refuse oversized requests.",
    ):
        assert classify(wish) == "ask", wish
    for told in ("I'd like to thank everyone who helped.", "I would like the answer by Friday."):
        assert classify(told) != "ask", told


def test_items_named_by_their_number_and_wishes_for_an_action_are_asks() -> None:
    """Tornado's manual (a helper's held-out set): "Problem one:", "Problem two:" open items as "First," does,
    and a wish for an action ("I'd like to cap ...") or for a thing that would do it ("Something that wraps
    ... would be ideal.") asks, where nothing after it in its paragraph asks how; the request had been read
    as one ask."""
    request = understand(
        "We have a Tornado service that polls forty carrier APIs.\n\n"
        "Problem one: all outbound HTTP must go through a proxy. Which client do I need to switch to?\n\n"
        "Problem two: we open far too many parallel connections. I'd like to cap the number of simultaneous "
        "fetches per event loop, with the rest simply waiting in line.\n\n"
        "Problem three is about testing: a fake carrier runs on localhost:1443. Something that wraps the "
        "normal DNS resolution with a mapping of exceptions would be ideal."
    )
    assert [a.split(":")[0] for a in request.asks] == [
        "Problem one",
        "Problem two",
        "Problem three is about testing",
    ]
    # ... never a wish that a question after it asks how to meet (its background), nor a courtesy
    watch = understand(
        "Our cron job mails a report every night through the company relay.\n\nLastly, the first test run "
        "never arrived and I'd like to watch the SMTP conversation. Which debug setting shows just the "
        "protocol exchange?"
    )
    assert len(watch.asks) == 1 and watch.asks[0].startswith("Lastly,")
    assert classify("I'd like to thank everyone who helped.") != "ask"


def test_asks_of_a_mail_administrator_read_as_meant() -> None:
    """GNU Mailutils (a helper's held-out set): "Related to that, ...; what decides the file permissions?"
    asks its own question (merged with the need before it, neither was answered); "I need delivery to report
    a temporary failure instead" is a need without an article; "What do the keys and values in that database
    need to look like for those two cases?" means the two cases the constraint before it names."""
    request = understand(
        "We run imap4d on Debian for 120 staff.\n\nOur old server kept IMAP folders under a subdirectory "
        "called imap in each user's home, and we need imap4d to map the folder root there instead. Related "
        "to that, the coordinators want folders they create to be writable by their Unix group; what decides "
        "the file permissions of mailboxes created over IMAP?\n\nMost accounts should get one standard "
        "limit, and a handful of internal accounts must have no limit at all. What do the keys and values "
        "in that database need to look like for those two cases?"
    )
    assert request.asks[0].endswith("there instead.")
    assert request.asks[1].startswith("Related to that") and request.asks[1].endswith("over IMAP?")
    assert request.asks[2].startswith("Most accounts should get") and request.asks[2].endswith("two cases?")
    assert classify("I need delivery to report a temporary failure instead in that situation.") == "ask"
    for told in ("I need access to the server.", "We need time to think about it."):
        assert classify(told) != "ask", told


def test_questions_that_point_at_the_background_before_them_are_asked_with_it() -> None:
    """aiohttp's manual: "Which setting in aiohttp produces that limit, what is its default value, and where
    do we raise it?" had been searched without the 413 the sentence before it tells of; "Related: when the
    pod receives SIGTERM, how long does the server wait ...?" had asked "When the pod receives SIGTERM?"."""
    request = understand(
        "We run an aiohttp upload service on Debian.\n\nThe first trial went badly. Anything bigger than a "
        'megabyte is rejected with "413 Request Entity Too Large" before our handler runs. Which setting in '
        "aiohttp produces that limit, what is its default value, and where do we raise it?\n\nRelated: when "
        "the pod receives SIGTERM, how long does the server wait for remaining connections before it "
        "disconnects them the hard way, and is that configurable?"
    )
    assert request.asks[0].startswith("Anything bigger than a megabyte") and request.asks[0].endswith(
        "produces that limit?"
    )
    assert request.asks[1].startswith("What is its default value?")
    assert not any(a.startswith("When the pod receives SIGTERM?") for a in request.asks)
    # Not a sentence to the assistant, nor one in another paragraph.
    other = understand(
        "Our reporting page fires 1,500 queries.\n\nI'd like you to play the role of a performance engineer. "
        "Explain why this happens with the Django ORM, which QuerySet methods fix it, and what else helps."
    )
    assert other.asks[0].startswith("Explain why this happens")


def test_what_is_no_ask_stays_none() -> None:
    """A review's cases: wishes and needs about the answer itself, a procedure told after a condition, a
    condition on the assistant's answer, "either ... or" (no pointer back), a list that opens on "when to"."""
    for told in (
        "We need the summary to fit on one page.",
        "I need it to work on Windows as well.",
        "We need everyone to sign off before release.",
        "I'd like the answer kept short.",
        "We would like the report written in German.",
        "We would like everything done without downtime.",
        "If a user forgets it, the admin can reset it, give them a temporary one, and log the change.",
        "If you quote the manual, include the section number.",
    ):
        assert classify(told) != "ask", told
    either = understand(
        "Our sessions are stored in the database.\n\nPlease explain how Django's cache framework can store "
        "sessions instead. Should we use either Redis or Memcached?"
    )
    assert len(either.asks) == 2
    after = understand(
        "The upstream smarthost goes down for maintenance for an hour every week. After that, how long does "
        "Postfix keep the deferred messages before it bounces them?"
    )
    assert after.asks == [after.text]  # ("after that" points back; "Related to that" only links)
    assert (
        len(clauses("Please cover the following: when to rotate the keys, key sizes, and safe storage.")) == 3
    )
    # An item's background is never another paragraph's, and a need asked with the item keeps it.
    apart = understand(
        "We build docs nightly.\n\nThe first trial went badly. Anything over a megabyte is rejected.\n\n"
        "Which setting produces that limit, what is its default, and where do we raise it?"
    )
    assert apart.asks[0].startswith("Which setting produces that limit")
    second = understand(
        "Our extension collects steps.\n\nSecond, with -j auto Sphinx falls back to serial reading. We need "
        "the extension to declare that it's parallel safe. What does setup() have to return for that?"
    )
    assert second.asks == [second.text.split("\n\n")[1]]


def test_a_need_for_a_way_and_a_bid_after_a_condition_are_asks() -> None:
    """Sphinx's manual: "We need a way to tell the checker ..." asks how (linkcheck_ignore had never been
    looked for); "If there is a helper tool ..., mention it as well." asks for the tool (sphinx-intl)."""
    assert classify("We need a way to tell the checker to not even try certain URL patterns.") == "ask"
    assert classify("We need some simple way of pinning the versions.") == "ask"
    assert classify("We need a way forward by Friday.") != "ask"
    assert (
        classify("If there is a helper tool that refreshes the PO files from templates, mention it as well.")
        == "ask"
    )
    assert classify("When we ran it, name resolution failed on the runner.") != "ask"
    assert classify("When we tried, we got hundreds of warnings.") != "ask"


def test_a_sentence_that_counts_the_questions_after_it_asks_nothing() -> None:
    request = understand(
        "Hello, I lead QA for a payments service. Our pytest suite has grown to about 2,500 tests.\n\n"
        "We would like to understand three things from the official pytest documentation. First, how can we "
        "select only a subset of tests, for example by marking the slow ones? Second, how do we register our "
        "own markers so that a typo fails the run? Third, how can a fixture be created once per session?"
    )
    # Searched, the count of the questions found a page's "Target audience" for the direct answer.
    assert [a.split(",")[0] for a in request.asks] == ["First", "Second", "Third"]
    # ... but the same words asked as the request's only question are asked.
    alone = understand(
        "We run pytest on a large suite and the runs are slow.\n\nWe would like to understand three things "
        "about pytest fixtures and their scopes."
    )
    assert any("three things" in a for a in alone.asks)
    # A count inside an ask is no count of the questions ("Explain the two main things that slow down ...").
    asked = understand(
        "Our database is 2 TB.\n\nExplain the two main things that slow down VACUUM on large tables. "
        "How do I tune autovacuum for a 2 TB table?"
    )
    assert asked.asks[0].startswith("Explain the two main things")


def test_a_role_that_goes_on_to_ask_is_an_ask() -> None:
    # The role is said to the assistant; what follows it is the request's main question.
    assert classify("You are an expert Django consultant.") == "instruction"
    assert classify("Please answer as a Django trainer with short examples.") == "instruction"
    request = understand(
        "Our company has a 15-year-old Oracle database used by an ERP system we cannot modify. Management "
        "wants a small Django intranet app that edits some of that data.\n\nAs a consultant, please tell me "
        "how Django supports integrating with an existing database: is there a tool that generates models "
        "from the existing tables, how to tell Django not to manage the tables (no migrations creating or "
        "dropping them), and any Oracle-specific notes in the database docs I should know about (version "
        "support, etc.)."
    )
    # The role is not searched with the ask it precedes.
    ticket = understand(
        "We run the shop on Django 3.2 and our pages got slow. The database is PostgreSQL 13. You are our "
        "Django performance consultant, which setting keeps database connections open between requests?"
    )
    assert ticket.long
    assert "Which setting keeps database connections open between requests?" in ticket.asks
    # A list after a colon whose last item follows ", and" is as many asks as items; one that names nothing
    # carries what the question before the colon is about.
    assert [a.split(" (")[0] for a in request.asks] == [
        "Is there a tool that generates models from the existing tables",
        "How to tell Django not to manage the tables",
        "Any Oracle-specific notes in the database docs I should know about",
    ]
    assert "database" in request.asks[0] and "Django" in request.asks[0]


def test_a_quote_takes_in_the_sentences_after_it_in_its_paragraph() -> None:
    passage = readable(
        "## Paginator\n\n"
        "Optional. Use this when you don't want to have a last page with very few items. If the last page "
        "would normally have a number of items less than or equal to orphans, then those items are added to "
        "the previous page.\n\n"
        "Required. The maximum number of items to include on a page.\n\n"
        "Provides a filter named RATE_LIMIT to limit client bandwidth. The throttling is applied to each "
        "HTTP response while it is transferred to the client. The connection speed to be simulated is "
        "specified, in KiB/s, using the environment variable rate-limit. An initial burst "
        + "of data, in KiB, may be passed at full speed before throttling, " * 6
        + "as the next sentence says."
    )
    cut = windows(passage)
    text = passage.text
    first = next(w for w in cut if text[w.start : w.end].startswith("Optional."))
    longer = extended(text, first, cut)
    assert text[longer.start : longer.end].endswith("added to the previous page.")  # the same paragraph
    last = next(w for w in cut if text[w.start : w.end].startswith("If the last page"))
    assert extended(text, last, cut) == last  # never across a paragraph
    # As many sentences as fit in one quote: the value is in the third; the paragraph runs on past the limit.
    rate = next(w for w in cut if text[w.start : w.end].startswith("Provides a filter"))
    quoted = text[rate.start : extended(text, rate, cut).end]
    assert quoted.endswith("environment variable rate-limit.") and len(quoted) <= EXTENDED_CHARS


_HTTP2 = (
    "## Basic Configuration\n\n"
    "When you have a httpd built with mod_http2 you need some basic configuration for it becoming active. "
    "The first thing, as with every Apache module, is that you need to load it:\n\n"
    "```\nLoadModule http2_module modules/mod_http2.so\n```\n\n"
    "The second directive you need to add to your server configuration is\n\n"
    "```\nProtocols h2 http/1.1\n```\n\n"
    "This allows h2, the secure variant, to be the preferred protocol on your server connections. When you "
    "want to enable all HTTP/2 variants, you simply write:\n\n"
    "```\nProtocols h2 h2c http/1.1\n```\n\n"
    "## Clients\n\n"
    "Almost all modern browsers support HTTP/2, but only over SSL connections."
)


def test_windows_of_one_passage_that_each_answer_are_quoted_as_one_span() -> None:
    """Three windows of one paragraph that answer how to enable HTTP/2 are one quote, in the author's order;
    a window under the floor, and one past a heading, stay quotes of their own."""
    reader = readable(_HTTP2)
    text = reader.text
    cut = windows(reader)

    def at(opening: str) -> Window:
        return next(w for w in cut if text[w.start : w.end].startswith(opening))

    second, secure, variants = at("The second directive"), at("This allows h2"), at("When you want")
    load, clients = at("The first thing"), at("Almost all modern browsers")
    scored = [
        ((0, variants), 6.4),
        ((0, secure), 4.5),
        ((0, second), 3.9),
        ((0, clients), 2.0),
        ((0, load), -3.0),
    ]
    out = joined(scored, [reader], floor=-1.0)
    spans = [text[w.start : w.end] for (_, w), _ in out]
    assert spans[0].startswith("The second directive") and spans[0].endswith("Protocols h2 h2c http/1.1")
    assert [score for _, score in out] == [6.4, 2.0, -3.0]  # the best one's score; the others as they were
    assert spans[1].startswith("Almost all modern browsers")  # past a heading: a quote of its own
    assert spans[2].startswith("The first thing")  # under the floor: not taken in
    # Sentences of prose are each a fact of their own (routed, checked against other sources): never joined.
    survey = readable("Voltra holds 38 percent of the market. Kessel Cells builds its batteries in Zenda.")
    facts = windows(survey)
    assert len(facts) == 2
    assert len(joined([((0, facts[0]), 3.0), ((0, facts[1]), 2.0)], [survey], floor=-1.0)) == 2
    # Code of several lines inside a span would be joined into the claim's one line as other code (its
    # comment swallowing the lines after it): the quote ends with it, or does not take it in.
    fork = readable(
        "To avoid this, make sure the parent's connections are not transferred to the child process:\n\n"
        "```\nengine = create_engine(url)\n# before process starts, ensure engine.dispose() is called\n"
        "engine.dispose()\np.start()\n```\n\n"
        "The latter strategy is more appropriate for an initializer in a forked Python process."
    )
    steps = joined([((0, w), 2.0) for w in windows(fork)], [fork], floor=-1.0)
    assert [fork.text[w.start : w.end].endswith("p.start()") for (_, w), _ in steps] == [True, False]
    # The same span whatever the order of the scores: a window inside it is never quoted again on its own.
    pool = readable(
        "The pool holds connections for reuse.\n\nSet its size with pool_size.\n\nTo set it, write:\n\n"
        "```\nengine = create_engine(url, pool_size=5)\n```\n"
    )
    parts = windows(pool)
    for scores in ((0.9, 0.85, 0.8), (0.9, 0.8, 0.85)):
        spans = joined([((0, w), x) for w, x in zip(parts, scores, strict=True)], [pool], floor=-1.0)
        assert [(w.start, w.end) for (_, w), _ in spans] == [(0, len(pool.text))]
    # A line that is no statement (a page's language menu) heads no other quote.
    menu = readable("Available Languages: en | fr | ja | ko | tr\n\nThis document explains the core server.")
    line, statement = Window(0, 43, "sentence"), Window(45, len(menu.text), "sentence")
    assert len(joined([((0, statement), 2.0), ((0, line), 1.0)], [menu], floor=-1.0)) == 2
    # Nothing joins what would not fit in one quote.
    far = [((0, Window(0, 10, "sentence")), 1.0), ((0, Window(700, 720, "sentence")), 1.0)]
    assert [w for (_, w), _ in joined(far, [readable("x" * 800)], floor=-1.0)] == [w for (_, w), _ in far]


def _extended_from(passage: Readable, opening: str) -> str:
    """The quote of the window of ``passage`` that opens on ``opening``, extended as admission extends it."""
    cut = windows(passage)
    found = next(w for w in cut if passage.text[w.start : w.end].startswith(opening))
    return passage.text[found.start : extended(passage.text, found, cut).end]


def test_a_bracket_that_goes_on_after_the_output_is_part_of_its_sentence() -> None:
    """GNU Mailutils' wicket: "Now, running mailutils wicket smtp://bar@gnu.org will show:" + its output +
    "(where user is your login name). This means ...": the bracket had opened a quote of its own, a
    fragment; it ends the intro's sentence."""
    reader = readable(
        "Now, running mailutils wicket smtp://bar@gnu.org will show:\n\n```\nsmtp://bar@gnu.org: "
        "/home/user/.mailutils-tickets:2\n```\n\n(where user is your login name). This means that this URL "
        "matches the line 2 in your .mailutils-tickets file."
    )
    quotes = quoted(reader)
    assert any(
        q.startswith("Now, running") and q.endswith("(where user is your login name).") for q in quotes
    )
    assert not any(q.startswith("(where") for q in quotes)


def test_a_version_note_alone_is_no_quote() -> None:
    """aiohttp's and Sphinx's references: "New in version 3.7." had been a claim of its own ("bool default is
    False — New in version 3.7.") and the antecedent of "This extension is meant to help ..."."""
    assert quoted(readable("sock_read\n\nMaximal number of seconds for reading.\n\nNew in version 3.3.")) == [
        "sock_read\n\nMaximal number of seconds for reading."
    ]
    extlinks = quoted(
        readable(
            "New in version 1.0.\n\nThis extension is meant to help with many external links. It does so "
            "by providing aliases to base URLs."
        )
    )
    assert extlinks and all(q.startswith("This extension is meant") for q in extlinks)
    # (a note that says what changed says something, as does a deprecation)
    changed = "Changed in version 3.4: The linkcheck builder retries links when servers apply rate limits."
    assert quoted(readable(changed)) == [changed]
    assert any(
        q.startswith("Deprecated since version 3.2.")
        for q in quoted(readable("The foo() function returns open handles. Deprecated since version 3.2."))
    )
    # An intro's walk back stops at a version note and at a pointer.
    for opening in ("New in version 1.0.", "See the ENGINE setting below for other database types."):
        intro = readable(
            f"{opening} This is very useful for printed copies. The setting can have these values:\n\n"
            "- 'no' - do not display URLs\n- 'footnote' - display URLs in footnotes"
        )
        assert not any(q.startswith(opening) for q in quoted(intro)), opening


def test_a_quote_takes_in_the_sentence_after_it_that_leans_on_it() -> None:
    """GNU Mailutils' login delay: "The pop3d utility keeps each user's last login time in a special DBM file,
    called login statistics database ... By default, the login statistics database is called
    /var/run/pop3-login.db." The second sentence leans on the first, so its window opens there too, and the
    quote of the first never took it in: the path was never quoted."""
    passage = readable(
        "The pop3d utility keeps each user's last login time in a special DBM file, called login statistics "
        "database, so to be able to use this feature, Mailutils must be compiled with DBM support. By "
        "default, the login statistics database is called /var/run/pop3-login.db. You can change its name "
        "using stat-file configuration statement:\n\n```\nlogin-delay 60;\nstat-file /tmp/pop.login.db;\n```"
        "\n\nThe login delay facility will be enabled only if pop3d can write the database."
    )
    assert _extended_from(passage, "The pop3d utility").endswith("is called /var/run/pop3-login.db.")


def test_a_quote_takes_in_the_pointer_to_a_name_in_code_that_closes_its_paragraph() -> None:
    # Django's "Running tests in parallel": the option to use is only in the pointer after the sentence.
    passage = readable(
        "##### Running tests in parallel\n\n"
        "As long as your tests are properly isolated, you can run them in parallel to gain a speed up on "
        "multi-core hardware. See [`test --parallel`](../../ref/django-admin.html#cmdoption-test-parallel)"
        " .\n\n"
        "Transactions are rolled back at the end of each test, so tests never see each other's rows. For "
        "more information see the next chapter.\n\n"
        "Each test case gets its own database, created before the first test runs. See "
        "[`TestCase`](#testcase) . It wraps each test in a transaction."
    )
    quoted = _extended_from(passage, "As long as")
    assert quoted.endswith("See test --parallel.") and "](" not in quoted
    # A pointer that names nothing in code adds nothing; one followed by more of its paragraph is no close.
    assert _extended_from(passage, "Transactions").endswith("each other's rows.")
    # (a sentence after it that leans back on the quote is taken in, with the pointer between them as its
    # own window quotes it: "It" is the test case)
    assert _extended_from(passage, "Each test case").endswith("It wraps each test in a transaction.")
    # A closing sentence that introduces code ("... as follows:") is no pointer: without its code it says
    # nothing (GNU Awk's "Then the split() function is called as follows:" closed a quote on SUBSEP).
    awk = readable(
        "(Recall that the default value of `SUBSEP` is the character with code 034.) Sooner or later, the "
        "`for` statement finds that index. Then the `split()` function is called as follows:\n\n"
        '```\nsplit("1\\034foo", separate, "\\034")\n```\n'
    )
    cut = windows(awk)
    recall = next(w for w in cut if awk.text[w.start : w.end].startswith("(Recall"))
    # ... and a sentence keeps the bracket that closes after its stop.
    assert awk.text[recall.start : recall.end].endswith("code 034.)")
    assert not _extended_from(awk, "(Recall").endswith(":")
    # A name in quotes is a name too (HAProxy's "force-tlsv12": where to set the minimum version is only in
    # its pointer); a title in quotes is not.
    tls = readable(
        "This option enforces use of TLSv1.2 only on SSL connections instantiated from this listener. See "
        'also "ssl-min-ver" and "ssl-max-ver".\n\nSession caching keeps the sessions of every listener in '
        'shared memory. See "Tuning".'
    )
    assert _extended_from(tls, "This option").endswith('and "ssl-max-ver".')
    assert _extended_from(tls, "Session caching").endswith("in shared memory.")


def test_a_description_under_a_name_may_open_in_lower_case() -> None:
    # rsyslog's property options: a term line (a name) over its description, several of which open in lower
    # case; they are descriptions, not fragments a chunk boundary cut, and "With this option, ..." leans on
    # the sentence before it.
    passage = readable(
        "**date-rfc3164-buggyday**\n\n"
        "similar to date-rfc3164, but emulates a common coding error: RFC 3164 demands that a space is "
        "written for single-digit days. With this option, a zero is written instead.\n\n"
        "**date-rfc3339**\n\nformat as RFC 3339 date\n\n"
        "**date-unixtimestamp**\n\nFormat as a unix timestamp (seconds since epoch)\n\n"
        "**date-year**\n\njust the year part (4-digit) of a timestamp"
    )
    quoted = [passage.text[w.start : w.end] for w in windows(passage)]
    assert "date-rfc3339\n\nformat as RFC 3339 date" in quoted
    assert "date-year\n\njust the year part (4-digit) of a timestamp" in quoted
    assert "With this option, a zero is written instead." not in quoted  # never without what it is about
    assert any(
        q.startswith("date-rfc3164-buggyday") and q.endswith("a zero is written instead.") for q in quoted
    )
    # A short description is no term of the line after it.
    assert not any(q.startswith("format as RFC 3339 date") for q in quoted)
    # A lower-case opening after a paragraph that is no name is still a fragment.
    cut = readable("Some words about the subject here\n\nand then the rest of the sentence goes on here.")
    assert not any(cut.text[w.start :].startswith("and then") for w in windows(cut))


def test_a_first_hit_is_read_to_its_last_paragraph(encoders: Encoders) -> None:
    """An ask's first hit is read whole: the answer in the last of a long chunk's paragraphs is judged (the
    term weights pick the sentences that repeat the question's words, and at eight windows the reading
    stopped before it)."""
    text = (
        "## Arrays\n\n"
        "The shell provides one-dimensional indexed and associative array variables. Any variable may be "
        "used as an indexed array. There is no maximum limit on the size of an array. Indexed arrays are "
        "referenced using integers and are zero-based. Unless otherwise noted, indices must be non-negative "
        "integers.\n\n"
        "An indexed array is created automatically if any variable is assigned to using the syntax\n\n"
        "```\nname[subscript]=value\n```\n\n"
        "The subscript is treated as an arithmetic expression that must evaluate to a number. Negative "
        "subscripts count back from the end of the array. Subscripts beyond the end leave gaps that are "
        "never filled.\n\n"
        "The syntax\n\n```\ntypeset -a name[subscript]\n```\n\nis also accepted; the subscript is "
        "ignored.\n\n"
        "Associative arrays are created using\n\n```\ntypeset -A name\n```\n"
    )
    passage = Passage(chunk_id="arrays", document_id="arrays", title="Arrays", text=text, rank=0)
    assert len(windows(readable(text))) > 8
    asked = "How do I declare an associative array with string keys?"
    question = Question("q3", asked, ["answer"], origin="ask")
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    admission = admitting(judge)
    query_weights = weights(encoders.embed_query(question.text)[1])
    judged = admission.candidates(question, [passage], query_weights)
    assert any(e.quote.startswith("Associative arrays are created using") for e in judged)


def test_a_question_asked_with_the_sentence_it_leans_on_is_judged_by_itself_too(encoders: Encoders) -> None:
    """The cross-encoder, trained on short queries, ranks the answer second under a ticket's whole ask
    and first under its question; the passage was found by the whole ask (Jinja's whitespace control)."""
    text = (
        "## Whitespace Control\n\n"
        "In the default configuration a single trailing newline is stripped if present.\n\n"
        "If an application configures Jinja to `trim_blocks`, the first newline after a template tag is "
        "removed automatically (like in PHP). The `lstrip_blocks` option can also be set to strip tabs and "
        "spaces from the beginning of a line to the start of a block.\n\n"
        "With both `trim_blocks` and `lstrip_blocks` enabled, you can put block tags on their own lines, and "
        "the entire block line will be removed when rendered, preserving the whitespace of the contents.\n\n"
        "For example, without the `trim_blocks` and `lstrip_blocks` options, this template:\n\n"
        "```\n<div>\n    {% if True %}\n        yay\n    {% endif %}\n</div>\n```\n"
    )
    passage = Passage(chunk_id="ws", document_id="templates", title="Templates", text=text, rank=0)
    asked = (
        "Our plain-text e-mails are full of stray blank lines where the {% if %} and {% for %} tags sit on "
        "their own lines. Which settings remove those lines?"
    )
    assert question_asked(asked) == "Which settings remove those lines?"
    assert question_asked("What is the capital of France?") is None
    assert question_asked("We run Django 3.2. Why?") is None  # too short to say anything alone
    # ... or naming nothing but what it asks for (Scrapy's "... must end on its own after a given number of
    # seconds. Which setting does that?": alone, DOWNLOAD_DELAY's sentence answered it)
    assert (
        question_asked("The nightly job must end after a number of seconds. Which setting does that?") is None
    )
    assert question_asked("We run a crawler. Which option enforces that?") is None
    assert question_asked("We run a service. What does SIGHUP do?") == "What does SIGHUP do?"
    question = Question("q4", asked, ["answer"], origin="ask")
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    admission = admitting(judge)
    judged = admission.candidates(question, [passage], weights(encoders.embed_query(asked)[1]))
    assert judged[0].quote.startswith("With both trim_blocks and lstrip_blocks enabled")


def test_an_ask_is_judged_by_the_part_that_asks_too(encoders: Encoders) -> None:
    """A clause that sets the scene before the question ("...; what decides the file permissions ...?") or
    a need after its item's background: the judge reads the whole and the part that asks, the better score
    counting. Under the whole text alone the cross-encoder had put a Sieve action that files into a folder
    with permissions (-3.6) over the IMAP namespace statement that answers (-9.9; GNU Mailutils)."""
    namespace = Passage(
        chunk_id="n",
        document_id="Namespace",
        title="Namespace",
        text=(
            "## Namespace\n\n"
            "Each entity includes the prefix, under which the mailboxes can be found, hierarchy delimiter, "
            "and a directory on the file system on the server, which actually holds the mailboxes.\n\n"
            "The mailbox-mode statement configures the file mode for the mailboxes created within that "
            "namespace (provided that the directory permissions allow the user to create mailboxes).\n"
        ),
        rank=0,
    )
    actions = Passage(
        chunk_id="a",
        document_id="Built-in-Actions",
        title="Built-in Actions",
        text=(
            "## Built-in Actions\n\n"
            "For example, the following instruction creates the mailbox ~/shared which will be world "
            'readable and writable for the group: fileinto :permissions "g=rw,o=r" "~/shared"\n'
        ),
        rank=1,
    )
    scene = (
        "Related to that, the coordinators want folders they create to be readable and writable by their "
        "Unix group so that the assistants in the same group can file messages into them; what decides the "
        "file permissions of mailboxes created over IMAP?"
    )
    asked = "what decides the file permissions of mailboxes created over IMAP?"
    assert question_asked(scene) == asked
    assert judged_forms(scene) == [scene, asked]
    question = Question("q5", scene, ["answer"], origin="ask")
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    judged = admitting(judge).candidates(
        question, [namespace, actions], weights(encoders.embed_query(scene)[1])
    )
    assert judged[0].quote.startswith("The mailbox-mode statement")
    # The part that asks: a need after its item's background ...
    need = (
        "Finally, we'll run it as a standalone daemon rather than from inetd. I need to know how many "
        "simultaneous client connections it will accept out of the box and which statement raises that limit."
    )
    assert question_asked(need) == need.split(". ", 1)[1]
    # ... never one that names nothing but its asking ("raise what?": Tornado's too many open files), nor what
    # follows a colon (what a question asks about: "Which is faster: COPY or INSERT?").
    assert question_asked("We run it under supervisord. What do we need to raise, and where?") is None
    assert (
        question_asked("They keep a running counter of pages in the spider; can that survive the restarts?")
        is None
    )
    assert question_asked("Which is faster for bulk loads: COPY or INSERT with multiple rows?") is None
    assert question_asked("") is None and judged_forms("") == [""]


def test_a_question_about_what_happens_when_nothing_is_set_is_judged_as_asking_the_default(
    encoders: Encoders,
) -> None:
    """Celery's result_expires: "If I never configure anything, how long ..." asks for its default, and the
    manual says "Default: Expire after 1 day."; judged only as worded, that line came third of the section's
    windows in a run and a passage gives two."""
    assert by_default("What compression level does mod_deflate use when I don't set one?") == (
        "What compression level does mod_deflate use by default?"
    )
    assert by_default("What permissions does omfile use if I don't set fileCreateMode?") == (
        "What permissions does omfile use by default (fileCreateMode)?"
    )
    assert by_default("How do I set the timeout?") is None
    text = (
        "#### result\\_expires\n\nDefault: Expire after 1 day.\n\n"
        "Time (in seconds, or a timedelta object) for when after stored task tombstones will be deleted.\n\n"
        "A built-in periodic task will delete the results after this time (`celery.backend_cleanup`), "
        "assuming that `celery beat` is enabled. The task runs daily at 4am.\n\n"
        "A value of `None` or 0 means results will never expire (depending on backend specifications).\n"
    )
    passage = Passage(
        chunk_id="re",
        document_id="configuration",
        title="Configuration and defaults",
        section_path="Configuration and defaults > Task result backend settings > result_expires",
        text=text,
        rank=0,
    )
    asked = "If I never configure anything, how long do task results stay in the result backend?"
    question = Question("q5", asked, ["answer"], origin="query")
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    admission = admitting(judge)
    judged = admission.candidates(question, [passage], weights(encoders.embed_query(asked)[1]))
    # Judged as worded, the default line led "A value of None or 0 means results will never expire" by 0.05
    # (a real run's other passages then put it third); judged as asking the default, it leads by a point
    # (over any quote without it: the record quoted whole, heading to description, holds it too).
    assert "Default: Expire after 1 day." in judged[0].quote
    without = [e.score for e in judged if "Default: Expire after 1 day." not in e.quote]
    assert judged[0].score - max(without) > 0.5


def test_a_document_ranks_where_its_best_hit_does() -> None:
    hits = [
        _hit("a", 0),
        _hit("b", 1),
        _hit("a", 2),
        _hit("d", 3),
        _hit("a", 7),
        _hit("c", 8),
        _hit("b", 40),
    ]
    options = ResearchOptions(backbone_documents=2)
    kept = admitting(options=options, ledger=10).top_documents(hits)
    # The two top documents by their best hit, their best two hits each: b's hit at rank 40 is no reason
    # to drop b, and a's third hit is not read; the search's first five hits are, whatever their document.
    assert [(p.document_id, p.rank) for p in kept] == [("a", 0), ("b", 1), ("a", 2), ("d", 3), ("b", 40)]


def test_two_windows_of_one_thought_take_one_slot_of_their_passage() -> None:
    """SQLite's FTS5 overview: its opening paragraph, judged as two windows that share a sentence, is one
    claim; it had spent both of the passage's slots, and "To use FTS5, the user creates an FTS5 virtual
    table ..." (what the question asked) was never quoted."""
    text = (
        "FTS5 is an SQLite virtual table module that provides full-text search functionality. "
        "In their most elementary form, full-text search engines allow the user to search documents. "
        "The search functionality provided by Google is, among other things, a full-text search engine.\n\n"
        "To use FTS5, the user creates an FTS5 virtual table with one or more columns."
    )
    hit = Passage(chunk_id="fts5-0", document_id="fts5", title="FTS5", text=text, rank=0)
    reader = readable(text)
    question = Question(
        "q1", "How do I create a full-text search table with FTS5?", ["answer"], origin="query"
    )
    second = text.index("In their")
    third = text.index("The search")
    windows = [
        (Window(0, third - 1, "sentence"), 4.0),  # the first two sentences
        (Window(second, text.index("\n"), "sentence"), 3.5),  # the last two: one sentence shared
        (Window(text.index("To use"), len(text), "sentence"), 2.0),
    ]
    items = [new_evidence(question, hit, reader, w, score) for w, score in windows]
    options = ResearchOptions(backbone_documents=0, backbone_hits=1, answer_floor=1.0)
    admission = admitting(options=options)
    kept = admission.admit(question, items, [hit], on_topic=True)
    assert any(e.quote.startswith("To use FTS5") for e in kept)


def test_each_of_the_first_hits_of_a_long_requests_search_is_quoted_by_its_own_best() -> None:
    """One page fills the search's first hits; each hit is cited by its best quote (not only the page's
    best), and a chunk read beside a hit for context does not take the hit's place."""
    hits = [_hit("a", 0), _hit("a", 1), _hit("a", 2), _hit("b", 3), _hit("a", 9)]
    beside = Passage(chunk_id="a-next", document_id="a", title="a", text="Some text.", rank=0, neighbour=True)
    passages = [hits[0], beside, *hits[1:]]
    question = Question("q1", "a long request", ["answer"], origin="query")
    scores = {"a-next": 9.0, "a-0": 1.0, "a-1": 0.5, "a-2": -3.0, "b-3": -8.0, "a-9": 2.0}
    whole = Window(0, len("Some text."), "sentence")
    items = sorted(
        (new_evidence(question, p, readable(p.text), whole, scores[p.chunk_id]) for p in passages),
        key=lambda e: -e.score,
    )
    options = ResearchOptions(backbone_documents=1, answer_floor=5.0)
    admission = admitting(options=options, long=True)
    kept = admission.admit(question, items, passages, on_topic=True)
    backbone = {e.chunk_id for e in kept if e.backbone}
    # a's best quote (a-next, a's best by far) and each of the first five hits by its own.
    assert backbone == {"a-next", "a-0", "a-1", "a-2", "b-3"}


def test_a_value_under_the_name_of_its_setting_is_quoted_with_the_name() -> None:
    passage = readable(
        "#### DATA\\_UPLOAD\\_MAX\\_MEMORY\\_SIZE\n\nDefault: `2621440` (i.e. 2.5 MB).\n\n"
        "The maximum size in bytes that a request body may be before a SuspiciousOperation is raised.\n\n"
        "## Routine Vacuuming\n\nPostgreSQL databases require periodic maintenance known as vacuuming.\n"
    )
    quotes = quoted(passage)
    # "Default: 2621440" says whose default only with the setting's name; a prose heading is left out.
    assert "DATA_UPLOAD_MAX_MEMORY_SIZE\n\nDefault: 2621440 (i.e. 2.5 MB)." in quotes
    assert "PostgreSQL databases require periodic maintenance known as vacuuming." in quotes
    assert one_line(quotes[0]) == "DATA_UPLOAD_MAX_MEMORY_SIZE — Default: 2621440 (i.e. 2.5 MB)."
    # The description under the record's fields is the record, heading to description: what it is, and its
    # default, which the question asks as often.
    assert one_line(quotes[1]) == (
        "DATA_UPLOAD_MAX_MEMORY_SIZE — Default: 2621440 (i.e. 2.5 MB). The maximum size in bytes that a "
        "request body may be before a SuspiciousOperation is raised."
    )
    # Not a paragraph under a paragraph that is no field: a record is heading, fields, description.
    prose = quoted(
        readable(
            "#### CONN\\_MAX\\_AGE\n\nThe lifetime of a database connection, in seconds, is set here for "
            "every connection of the process.\n\nUse 0 to close connections after each request.\n"
        )
    )
    assert "Use 0 to close connections after each request." in prose
    # A variable named in capitals (GNU Awk's) names what its description is about; a manual page's
    # section in capitals does not.
    awk = quoted(
        readable(
            "##### FIELDWIDTHS\n\nA space-separated list of columns that tells `gawk` how to split input "
            "with fixed columnar boundaries.\n\n## DESCRIPTION\n\nThe awk utility executes programs.\n"
        )
    )
    assert one_line(awk[0]).startswith("FIELDWIDTHS — A space-separated list of columns")
    # A heading that gives a name's spellings, short and long, names it too (Apache's RewriteRule flags).
    flag = quoted(
        readable(
            "## L|last\n\nThe [L] flag causes `mod_rewrite` to stop processing the rule set. In most "
            "contexts, this means that if the rule matches, no further rules will be processed.\n"
        )
    )
    assert one_line(flag[0]).startswith("L|last — The [L] flag causes mod_rewrite to stop processing")
    assert "The awk utility executes programs." in awk


def test_a_phrase_under_a_title_is_quoted_with_the_title() -> None:
    # An article's short description says whose capital it is only with the article's title; a sentence
    # under it that names its subject needs no title.
    passage = readable(
        "# Seoul\n\n*Capital and largest city of South Korea*\n\n"
        "Seoul, officially Seoul Special Metropolitan City, is the capital of South Korea.\n"
    )
    quotes = quoted(passage)
    assert "Seoul\n\nCapital and largest city of South Korea" in quotes
    assert "Seoul, officially Seoul Special Metropolitan City, is the capital of South Korea." in quotes
    assert one_line(quotes[0]) == "Seoul — Capital and largest city of South Korea"
    # (a phrase that ends on its own bracket is no sentence either)
    trump = quoted(
        readable(
            "# Donald Trump\n\n*President of the United States (2017–2021; since 2025)*\n\n"
            "Donald John Trump is an American politician who is the 47th president of the United States.\n"
        )
    )
    assert one_line(trump[0]) == "Donald Trump — President of the United States (2017–2021; since 2025)"
    # ... while a sentence that ends on its stop inside a bracket is a sentence, quoted without its title.
    grew = "The city doubled in size within a decade, and its port grew with it (see the census below.)"
    aside = quoted(readable(f"# Growth\n\n{grew} Its harbour is the deepest in the region.\n"))
    assert aside[0] == grew


def test_an_option_with_all_its_forms_or_a_signature_is_quoted_with_its_description() -> None:
    # Texinfo's option tables and function definitions, as Docling writes them (the flex manual).
    passage = readable(
        "- **'** **`-i, --case-insensitive, %option case-insensitive`** **'**\n"
        "    - instructs `flex` to generate a *case-insensitive* scanner.\n"
        "- **Function:** ***YY\\_BUFFER\\_STATE*** **yy\\_scan\\_string** ***( const char *str )***\n"
        "    - scans a NUL-terminated string.\n"
    )
    quotes = quoted(passage)
    assert "'-i, --case-insensitive, %option case-insensitive'\n• instructs flex" in quotes[0]
    assert "yy_scan_string ( const char *str )\n• scans a NUL-terminated string." in quotes[1]
    assert len(quotes) == 2  # neither the term nor the description alone


def test_a_sentence_that_announces_the_list_after_it_is_quoted_with_the_list() -> None:
    passage = readable(
        "The following routines are available for scanning in-memory strings.\n\n"
        "- yy_scan_string scans a NUL-terminated string.\n"
        "- yy_scan_bytes scans len bytes.\n"
    )
    quotes = quoted(passage)
    assert quotes[0].startswith("The following routines") and quotes[0].endswith("scans len bytes.")
    # Alone, the sentence only points at the list.
    assert "The following routines are available for scanning in-memory strings." not in quotes
    # ... and when the list stands in the next chunk, the passage is read on into it.
    split = Passage(
        chunk_id="a",
        document_id="d",
        title="Multiple Input Buffers",
        text="The following routines are available for scanning in-memory strings.",
        rank=0,
        next_chunk_id="b",
    )
    following = {"b": "- yy_scan_string scans a NUL-terminated string.\n- yy_scan_bytes scans len bytes.\n"}
    admission = admitting(next_chunks=following, ledger=10)
    reader = admission.readers([split])[0]
    cut = windows(reader)
    assert cut[0].continues and reader.text[cut[0].start : cut[0].end].endswith("scans len bytes.")


def test_a_chunks_opening_that_leans_back_is_quoted_from_what_it_leans_on(encoders: Encoders) -> None:
    # Apache's "Stopping and Restarting": the chunker set "Then the parent itself exits." at the head of a
    # chunk; alone it says nothing of which process exits. The quote runs from the sentence that names it,
    # in the chunk before, verbatim across the boundary, and is checked against both chunks' text.
    before = (
        "## Stop Now\n\nSignal: TERM\n\n"
        "Sending the TERM or stop signal to the parent causes it to immediately attempt to kill off all of "
        "its children. It may take it several seconds to complete killing off its children."
    )
    opening = (
        "Then the parent itself exits. Any requests in progress are terminated, and no further requests "
        "are served.\n\n## Graceful Restart\n\nSignal: USR1\n\nThe USR1 or graceful signal causes the parent "
        "process to advise the children to exit after their current request."
    )
    passage = Passage(
        chunk_id="b",
        document_id="stopping",
        title="Stopping and Restarting",
        text=opening,
        rank=0,
        prev_chunk_id="a",
    )
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    asked = "What does the parent process do when it receives the TERM signal?"
    question = Question("q1", asked, ["answer"], origin="query")
    admission = admitting(judge, next_chunks={"a": before})
    judged = admission.candidates(question, [passage], weights(encoders.embed_query(asked)[1]))
    quotes = {e.quote: e for e in judged}
    assert "Then the parent itself exits." not in {q[: len("Then the parent itself exits.")] for q in quotes}
    across = next(e for q, e in quotes.items() if "Then the parent itself exits." in q)
    assert across.quote.startswith("Sending the TERM or stop signal to the parent")
    assert (across.chunk_id, across.continued_in) == ("a", "b")
    assert across.quote in readable(before, opening).text  # what citation checks it against
    # Whatever order the term weights shortlist its windows in, none opens on that sentence alone.
    readers = admission.readers([passage])
    cut = [windows(readers[0])]
    found, _, _, short = admission.with_antecedents([passage], readers, cut, [list(reversed(cut[0]))])
    assert [p.chunk_id for p in found] == ["b", "a"]
    assert not any(w.start == 0 and w.kind == "sentence" for w in short[0])
    # A chunk that opens on its own subject ("This module ...") leans on its page, not on the chunk before.
    page = Passage(
        chunk_id="d",
        document_id="h2",
        title="mod_proxy_http2",
        text="This module relies on libnghttp2 to provide the core http/2 engine.",
        rank=0,
        prev_chunk_id="c",
    )
    other = admitting(
        judge, next_chunks={"c": "Each request is proxied to the backend using a separate HTTP/2 request."}
    )
    asked = "Which library provides the HTTP/2 engine?"
    found = other.candidates(
        Question("q2", asked, ["answer"], origin="query"), [page], weights(encoders.embed_query(asked)[1])
    )
    assert [e.chunk_id for e in found] == ["d"]
    # Nor one whose pronoun is its own subject's or a placeholder.
    previous = visible_text("Keep-alive connections are reused for later requests.")
    for own in (
        "When a client uses Keep-Alive, it sends one request after another.",
        "It is possible to nest array fields.",
        "It's important to realize that a field class is not its value.",
    ):
        assert antecedent(previous, own, room=500) is None
    assert antecedent(previous, "However, the server closes them after a timeout.", room=500) == 0
    # A chunk that ends on a term is what the next chunk's description is about (GNU Awk's strftime).
    term = visible_text("**strftime([format [, timestamp [, utc-flag] ] ])**")
    assert antecedent(term, "Format the time specified by timestamp and return the result.", room=500) == 0


def test_a_list_that_finishes_the_sentence_above_it_is_quoted_with_that_sentence(encoders: Encoders) -> None:
    # Apache's mod_speling: "If, after scanning the directory," over three items that each finish it. An item
    # alone ("no matching document was found, Apache will proceed as usual ...") is half a sentence, and the
    # lead-in alone says nothing: the lead-in is quoted with its list, in one chunk or across two.
    lead_in = (
        "A list is built with all document names which were matched using this strategy.\n\n"
        "If, after scanning the directory,"
    )
    items = (
        "- no matching document was found, Apache will proceed as usual and return an error (404 - document "
        "not found).\n"
        '- only one document is found that "almost" matches the request, then it is returned in the form '
        "of a redirection response (301 - Moved Permanently).\n"
        "- more than one document with a close match was found, then the list of the matches is returned to "
        "the client, and the client can select the correct candidate (300 - Multiple Choices).\n"
    )
    quotes = quoted(readable(lead_in + "\n\n" + items))
    assert not any(q.startswith(("no matching", "only one")) or q.endswith("directory,") for q in quotes)
    (whole,) = [q for q in quotes if q.startswith("If, after scanning the directory,")]
    assert "(404 - document not found)" in whole and "(301 - Moved Permanently)" in whole
    # Items that open on a name, or under a lead-in that ends its sentence, stand alone as before.
    named = quoted(readable("The modules are:\n\n- mod_speling corrects misspelled URLs.\n"))
    assert "mod_speling corrects misspelled URLs." in named
    # Across a chunk boundary: the list opens the chunk, its lead-in ends the chunk before.
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    admission = admitting(judge, next_chunks={"a": lead_in})
    opening = Passage(
        chunk_id="b", document_id="mod_speling", title="mod_speling", text=items, rank=0, prev_chunk_id="a",
        section_path="Apache Module mod_speling > Summary",
    )  # fmt: skip
    readers = admission.readers([opening])
    cut = [windows(readers[0])]
    found, mine, _, short = admission.with_antecedents([opening], readers, cut, [list(cut[0])])
    assert [p.chunk_id for p in found] == ["b", "a"]
    assert not any(w.kind == "item" for w in short[0])  # no item alone, the first nor the others
    (window,) = short[1]
    across = mine[1].text[window.start : window.end]
    assert across.startswith("If, after scanning the directory,\n\n")
    assert "no matching document was found" in across and across.endswith("(300 - Multiple Choices).")
    # A list too long to quote with its lead-in: the items left out stand alone rather than nowhere.
    longer = items + "".join(
        f"- a document number {n} is found that is much like the others here.\n" for n in range(9)
    )
    cut = [q for q in quoted(readable(lead_in + "\n\n" + longer)) if "document number 8" in q]
    assert cut == ["a document number 8 is found that is much like the others here."]


def test_an_api_fields_type_alone_is_no_quote() -> None:
    # Click's API reference (Sphinx): "Return type • Dict[str, Any]" had stood in a report's details as a
    # claim, a type without the name it is the type of. Its description and parameters are quotable.
    method = readable(
        "**to_info_dict(ctx)**\n\nGather information that could be useful for a tool generating "
        "user-facing documentation.\n\n- **Parameters**\n    - **ctx** ( *Context* ) - A Context "
        "representing this command.\n- **Return type**\n    - Dict[str, Any]\n"
    )
    quotes = quoted(method)
    assert not any(q.startswith("Return type") for q in quotes)
    assert any(q.startswith("Parameters") for q in quotes) and any("Gather information" in q for q in quotes)
    assert not quoted(readable("Type: string list\n"))
    assert quoted(readable("Type of the connection is given by the driver and may change at any time.\n"))


def test_a_chunk_that_opens_on_code_is_quoted_with_the_paragraph_before_it(encoders: Encoders) -> None:
    # Apache's custom error page: the search's fourth hit for "How do I show my own page for 404 Not Found
    # errors?" is a chunk of five ErrorDocument lines and nothing else; the paragraph that says what they
    # configure ends the chunk before. Alone the code has no window; with that paragraph it is one quote,
    # verbatim across the two chunks, its lines kept as lines.
    before = (
        "## Configuration\n\nCustom error documents are configured using the `ErrorDocument` directive, "
        "which may be used in global, virtualhost, or directory context. It may be used in .htaccess "
        "files if `AllowOverride` is set to FileInfo."
    )
    code = (
        '```\nErrorDocument 500 "Sorry, our script crashed. Oh dear"\n'
        "ErrorDocument 500 /cgi-bin/crash-recover\n"
        "ErrorDocument 404 /errors/not_found.html\n"
        "ErrorDocument 401 /subscription/how_to_subscribe.html\n```"
    )
    opening = Passage(
        chunk_id="b", document_id="custom-error", title="Custom Error Responses", text=code, rank=3,
        prev_chunk_id="a", section_path="Custom Error Responses > Configuration",
    )  # fmt: skip
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    admission = admitting(judge, next_chunks={"a": before})
    readers = admission.readers([opening])
    cut = [windows(readers[0])]
    assert cut == [[]]
    found, mine, _, short = admission.with_antecedents([opening], readers, cut, [[]])
    assert [p.chunk_id for p in found] == ["b", "a"]
    (window,) = short[1]
    quote = mine[1].text[window.start : window.end]
    assert quote.startswith("Custom error documents are configured using the ErrorDocument directive")
    assert quote.endswith("ErrorDocument 401 /subscription/how_to_subscribe.html")
    asked = "How do I show my own page for 404 Not Found errors?"
    judged = admission.candidates(
        Question("q1", asked, ["answer"], origin="query"), [opening], weights(encoders.embed_query(asked)[1])
    )
    (example,) = judged
    assert (example.chunk_id, example.continued_in) == ("a", "b")
    assert example.code_at is not None and example.quote[example.code_at :].startswith("ErrorDocument 500")
    assert example.quote in readable(before, code).text  # what citation checks it against
    # A short intro that names nothing ends the chunk before: the sentence above it comes along, as in one
    # chunk (Django's compilemessages: "Includes fuzzy translations into compiled files." / "Example usage:").
    usage = admitting(
        judge, next_chunks={"a": "- **--use-fuzzy, -f**\n\nIncludes fuzzy translations.\n\nExample usage:"}
    )
    compile_code = "```\ndjango-admin compilemessages --locale=pt_BR\n```"
    commands = Passage(
        chunk_id="b", document_id="django-admin", title="django-admin", text=compile_code, rank=0,
        prev_chunk_id="a",
    )  # fmt: skip
    read = usage.readers([commands])
    _, both, _, listed = usage.with_antecedents([commands], read, [windows(read[0])], [[]])
    (window,) = listed[1]
    assert (
        both[1].text[window.start : window.end].startswith("Includes fuzzy translations.\n\nExample usage:")
    )
    # ... never a pointer (Django's databases settings, the example in the next chunk).
    engine = admitting(
        judge,
        next_chunks={
            "a": "See the ENGINE setting below on how to specify other database types. This example is for "
            "PostgreSQL:"
        },
    )
    read = engine.readers([commands])
    _, both, _, listed = engine.with_antecedents([commands], read, [windows(read[0])], [[]])
    (window,) = listed[1]
    assert both[1].text[window.start : window.end].startswith("This example is for PostgreSQL:")
    # A chunk before that ends on a heading says nothing of the code: no quote.
    bare = admitting(judge, next_chunks={"a": "## Configuration"})
    assert (
        bare.candidates(
            Question("q2", asked, ["answer"], origin="query"),
            [opening],
            weights(encoders.embed_query(asked)[1]),
        )
        == []
    )


def test_a_last_paragraph_is_quoted_alone_and_with_the_example_that_opens_the_next_chunk() -> None:
    # Flask's deployment page: the chunker set the paragraph's example, a console session, at the head of
    # the next chunk. The passage is read on into it, and the sentence is quotable alone and with it.
    sentence = "It can also be a function call (with any arguments) if you're using the app factory pattern."
    split = Passage(
        chunk_id="a",
        document_id="gunicorn",
        title="Gunicorn",
        text=f"The syntax is {{module_import}}:{{app_variable}}. {sentence}",
        rank=0,
        next_chunk_id="b",
    )
    session = "$ gunicorn -w 4 'hello:create_app()'\nStarting gunicorn 20.1.0\nBooting worker with pid: x"
    admission = admitting(next_chunks={"b": f"```\n{session}\n```\n"}, ledger=10)
    reader = admission.readers([split])[0]
    quotes = {reader.text[w.start : w.end]: w for w in windows(reader)}
    with_example = next(q for q in quotes if q.endswith("pid: x"))
    assert quotes[with_example].continues and any(q.endswith("factory pattern.") for q in quotes)
    # The claim shows the session as code, not as "...; Starting gunicorn 20.1.0; ..." on one line.
    prose, code = code_tail(with_example)
    assert prose.endswith("factory pattern.") and code == session


def test_a_claim_shown_whole_takes_in_the_groups_whose_quotes_it_says() -> None:
    # CMake's guide: "Tests can be run in parallel ... -j8" joined its fuller form (with the sentence after
    # its code), and the claim that shows it says "The environment variable CTEST_PARALLEL_LEVEL ..." too:
    # that sentence is no claim of its own, in whatever order the three quotes come.
    env = "The environment variable CTEST_PARALLEL_LEVEL can alternatively be set to avoid passing -j."
    intro = "Tests can be run in parallel by passing -j arguments to ctest(1):\n$ ctest -R Qt -j8"
    quotes = [env, intro, f"{intro}\n\n{env}"]
    items = [
        Evidence(id=f"E{k}", chunk_id="c", document_id="guide", title="User Interaction Guide", quote=q)
        for k, q in enumerate(quotes)
    ]
    for order in permutations(items):
        assert len(groups(list(order))) == 1


def test_a_relative_clause_after_code_is_no_quote_of_its_own() -> None:
    # CMake's CMAKE_MESSAGE_CONTEXT: "Which results in the following output:" goes on from the code above.
    passage = readable(
        'Messages can carry a context:\n\n```\nmessage("hi")\n```\n\n'
        "Which results in the following output:\n\n```\n-- [foo] hi\n```\n"
    )
    assert not any(q.startswith("Which") for q in quoted(passage))
    assert any(q.startswith("Messages can carry a context:") for q in quoted(passage))


def test_a_definition_list_under_a_lead_in_reads_term_by_term() -> None:
    # CMake's presets manual writes a field list as items of one depth, term then description.
    fields = (
        "This object consists of the following fields:\n\n• major\n• An optional integer representing the "
        "major version.\n• minor\n• An optional integer representing the minor version."
    )
    assert one_line(fields) == (
        "This object consists of the following fields: • major — An optional integer representing the major "
        "version. • minor — An optional integer representing the minor version."
    )
    # A list whose last item is a sentence is no definition list.
    platforms = "Supported platforms:\n• Linux\n• macOS\n• Windows support is experimental."
    assert one_line(platforms) == "Supported platforms: • Linux; • macOS; • Windows support is experimental."
    # An admonition's label is no term.
    note = "Note\n\nPreferred setting of this variable is DEB-DEFAULT."
    assert one_line(note) == "Note: Preferred setting of this variable is DEB-DEFAULT."


def test_a_sentence_an_example_interrupts_is_quoted_to_its_end() -> None:
    # CMake's CXX_STANDARD page: the sentence goes on after its code, in a paragraph of its own that opens in
    # lower case; without it the quote stops before its point ("will not result in an error").
    passage = readable(
        "A previous standard flag will be added instead. This means that using:\n\n"
        "```\nset_property(TARGET tgt PROPERTY CXX_STANDARD 11)\n```\n\n"
        "with a compiler which does not support `-std=gnu++11` will not result in an error or warning, but "
        "will instead add the `-std=gnu++98` flag if supported. This decay behavior may be controlled.\n"
    )
    intro = next(q for q in quoted(passage) if "This means that using:" in q)
    assert intro.endswith("flag if supported.")
    assert one_line(intro) == (
        "A previous standard flag will be added instead. This means that using: set_property(TARGET tgt "
        "PROPERTY CXX_STANDARD 11) with a compiler which does not support -std=gnu++11 will not result in "
        "an error or warning, but will instead add the -std=gnu++98 flag if supported."
    )
    assert not any(q.startswith("with a compiler") for q in quoted(passage))  # no sentence of its own


def test_a_list_cut_short_keeps_two_items_or_is_not_quoted_with_its_intro() -> None:
    # CMake's CMP0077: "the OLD behavior" alone, under "When option() sees a normal variable:", says the
    # opposite of what the policy does now: two items are quoted with their intro, up to an example's length.
    def intro_quotes(times: int) -> list[str]:
        old = "The OLD behavior for this policy is to proceed even when a normal variable exists. " * times
        new = "The NEW behavior for this policy is to do nothing when a normal variable exists. " * times
        passage = readable(f"When option() sees a normal variable of the given name:\n\n- {old}\n- {new}\n")
        return [q for q in quoted(passage) if q.startswith("When option()")]

    assert intro_quotes(4) and all("The NEW behavior" in q for q in intro_quotes(4))
    # A long table's intro keeps its first rows, as before (the two-item rule is a list's).
    rows = "\n".join(f"| opt{i} | does thing number {i} for the server configuration |" for i in range(12))
    table = readable(f"The following options are available:\n\n| name | meaning |\n|---|---|\n{rows}\n")
    assert any(q.startswith("The following options are available:") for q in quoted(table))


def test_a_question_alone_is_no_quote() -> None:
    # A FAQ: its question says nothing; with its answer after it, the two are one quote.
    passage = readable(
        "How can I use more than 8192 rules?\n\n"
        "Flex is compiled with an upper limit of 8192 rules per scanner. Recompile flex with a larger "
        "limit.\n\nIs there a repository for flex scanners?\n\nNot that we know of.\n"
    )
    quotes = quoted(passage)
    assert not any(q.endswith("?") for q in quotes)
    assert any(q.startswith("Flex is compiled with an upper limit of 8192 rules") for q in quotes)
    # A FAQ's list of its questions neither.
    index = readable("- [Why do flex scanners call fileno?](f.html)\n- [When was flex born?](b.html)\n")
    assert windows(index) == []


def test_a_long_numbered_section_is_quoted_sentence_by_sentence() -> None:
    # SQLite's limits.html as Docling converts it: each limit is one numbered list item several sentences
    # long, and the value stands in its last sentences (too far into the item to fit one quote).
    item = (
        "10. Maximum Depth Of Trigger Recursion SQLite limits the depth of recursion of triggers in order to "
        "prevent a statement involving recursive triggers from using an unbounded amount of memory. Prior to "
        "SQLite version 3.6.18 (2009-09-11), triggers were not recursive and so this limit was meaningless. "
        "Beginning with version 3.6.18, recursive triggers were supported but had to be explicitly enabled "
        "using the PRAGMA recursive_triggers statement. Beginning with version 3.7.0 (2009-09-11), recursive "
        "triggers are enabled by default but can be manually disabled using PRAGMA recursive_triggers . The "
        "SQLITE_MAX_TRIGGER_DEPTH is only meaningful if recursive triggers are enabled. The default maximum "
        "trigger recursion depth is 1000.\n"
    )
    passage = readable(item)
    quotes = quoted(passage, split_start=True)
    assert "The default maximum trigger recursion depth is 1000." in quotes
    # An item is never a fragment of a split paragraph: its first sentence is quotable too.
    assert any(q.startswith("Maximum Depth Of Trigger Recursion SQLite limits") for q in quotes)
    # A sentence that names its subject by pointing back ("this limit") is quoted with the one before it.
    limit = readable(
        "The SQLITE_MAX_FUNCTION_ARG parameter determines the maximum number of parameters that can be "
        "passed to an SQL function. The default value of this limit is 100. SQLite should work with "
        "functions that have thousands of parameters."
    )
    quotes = quoted(limit)
    assert not any(q.startswith("The default value of this limit") for q in quotes)
    assert any(q.startswith("The SQLITE_MAX_FUNCTION_ARG") and q.endswith("is 100.") for q in quotes)
    # ... and so does a FAQ's answer that names its question so (Click's "Why not argparse?").
    answer = readable(
        "Why does Click not auto correct the environment? The answer to this question is that Click "
        "attempts to support different environments consistently and to be very robust."
    )
    assert not any(q.startswith("The answer to this question") for q in quoted(answer))


def test_a_sentence_that_runs_into_code_is_quoted_with_the_code() -> None:
    # Apache's HTTP/2 guide: the directive is the end of the sentence, set as a code block.
    passage = readable(
        "The second directive you need to add to your server configuration is\n\n"
        "```\nProtocols h2 http/1.1\n```\n\n"
        "This allows h2, the secure variant, to be the preferred protocol on your server connections.\n\n"
        "8.1. False corruption reports due to database shrinkage\n"
    )
    quotes = quoted(passage)
    assert any(q.startswith("The second directive") and q.endswith("Protocols h2 http/1.1") for q in quotes)
    assert not any(q.rstrip().endswith("configuration is") for q in quotes)
    assert not any(q.startswith("8.1.") for q in quotes)  # a numbered heading left in the text
    # What a lead-in brings along never ends on a colon: what that introduces is what answers (git's
    # update-hook howto quotes the manual, whose quoted sentence introduces the hook's parameters).
    intro = readable(
        "Quoting from the relevant section of the documentation:\n\n"
        "    Before each ref is updated, if $GIT_DIR/hooks/update file exists\n"
        "    and executable, it is called with three parameters:\n"
    )
    assert quoted(intro) == []
    # A short sentence is quoted with the one after it, and with what that one introduces (Django's
    # inspectdb: the model's code says what "managed = False" looks like); where that is not there, up to
    # its colon (it says something of its own).
    said = (
        "By default, inspectdb creates unmanaged models. That is, managed = False in the model's Meta class "
        "tells Django not to manage each table's creation, modification, and deletion:"
    )
    code = "class Person(models.Model):\n    class Meta:\n        managed = False"
    assert f"{said}\n{code}" in quoted(readable(f"{said}\n\n```\n{code}\n```\n"))
    assert said in quoted(readable(said))
    # As a claim it reads as the sentence it is, not as a term over a description.
    (claim,) = [one_line(q) for q in quotes if q.startswith("The second directive")]
    assert claim == (
        "The second directive you need to add to your server configuration is Protocols h2 http/1.1"
    )
    arrays = readable("Associative arrays are created using\n\n```\ndeclare -A name\n```\n")
    assert [one_line(q) for q in quoted(arrays)] == ["Associative arrays are created using declare -A name"]


def test_a_quote_with_a_value_or_a_name_the_other_lacks_is_its_own_claim() -> None:
    def quote(text: str, score: float, doc: str, *, backbone: bool = False) -> Evidence:
        return Evidence(
            id=f"E{abs(hash(text)) % 10**8}",
            chunk_id=f"{doc}-1",
            document_id=doc,
            title=doc,
            quote=text,
            score=score,
            backbone=backbone,
        )

    answer = quote("The default maximum trigger recursion depth is 1000.", 5.4, "limits", backbone=True)
    longer = quote(
        "Recursion limit on foreign key actions. The SQLITE_MAX_TRIGGER_DEPTH and SQLITE_LIMIT_TRIGGER_DEPTH "
        "settings determine the maximum allowable depth of trigger program recursion.",
        -1.2,
        "foreignkeys",
    )
    # The longer quote shares most of the answer's words but not its value: two claims, the value kept.
    claims = [claim_of(g).text for g in groups([answer, longer])]
    assert claims[0] == answer.quote and len(claims) == 2
    shared = quote(
        'rc = sqlite3_open("file::memory:?cache=shared", &db); opens a shared in-memory database.', 2, "a"
    )
    named = quote(
        "Two distinct shareable in-memory databases: "
        'rc = sqlite3_open("file:memdb1?mode=memory&cache=shared", &db); '
        "opens a named shared in-memory database.",
        1,
        "a",
    )
    assert len(groups([shared, named])) == 2  # a URI one quote gives is not in the other
    # A quote standing whole in a longer one of the group (the sentence a backbone quote took in after its
    # own) is that claim, whichever came first.
    core = quote("Enforcement of foreign key constraints is normally off by default.", 3.0, "compile")
    wider = quote(
        "Each connection can turn enforcement on and off at run-time using the foreign_keys pragma. "
        "Enforcement of foreign key constraints is normally off by default.",
        1.0,
        "compile",
    ).model_copy(
        update={
            "core": "Each connection can turn enforcement on and off at run-time using the foreign_keys "
            "pragma."
        }
    )
    (group,) = groups([core, wider])
    assert claim_of(group).text == wider.quote
    same = quote("The default maximum trigger recursion depth is 1000 levels.", 1.0, "compile")
    (group,) = groups([answer, same])  # the same fact from two documents: one claim, two anchors
    assert claim_of(group).evidence_ids == [answer.id, same.id]
    # What a quote took in after the sentence judged counts too: the FAQ's "To enable it, run PRAGMA
    # foreign_keys=ON" is not said by another page's sentence on the same default.
    off = quote("Foreign key constraint enforcement is turned off by default in SQLite.", 4.0, "quirks")
    faq = quote(
        "Foreign key constraint enforcement is turned off by default. To enable foreign key constraint "
        "enforcement, run PRAGMA foreign_keys=ON or compile with -DSQLITE_DEFAULT_FOREIGN_KEYS=1 .",
        3.0,
        "faq",
    ).model_copy(update={"core": "Foreign key constraint enforcement is turned off by default."})
    assert [claim_of(g).text for g in groups([off, faq])] == [off.quote, faq.quote]
    # Two quotes of one paragraph that overlap (each took in the sentences after its own) are one claim.
    first = quote(
        "FTS5 is a virtual table module. In their most elementary form, search engines find documents.",
        3.0,
        "f",
    ).model_copy(update={"core": "FTS5 is a virtual table module."})
    second = quote(
        "In their most elementary form, search engines find documents. Google is one of them.", 2.0, "f"
    ).model_copy(update={"core": "In their most elementary form, search engines find documents."})
    assert len(groups([first, second])) == 1
    # A claim is the best quote or a fuller one that holds it, never a quote that merely shares its words.
    best = quote("Django's default behavior is to run in autocommit mode.", 7.5, "transactions")
    alike = quote(
        "Savepoints are not useful in autocommit mode, the default behavior of Django, with rollback.",
        7.4,
        "transactions",
    )
    grouped = groups([best, alike])
    assert claim_of(grouped[0]).text == best.quote
    # ... but a quote that names all the best one does and more is the claim: the limit and its value.
    limit = quote(
        "There is a limit, set using sqlite3_limit() and SQLITE_LIMIT_ATTACHED , to the number of databases "
        "that can be attached to a single database connection.",
        3.0,
        "lang_attach",
    )
    values = quote(
        "The number of attached databases is limited to SQLITE_MAX_ATTACHED which is set to 10 by default "
        "and cannot be increased above 125; it can be lowered at run-time using the sqlite3_limit() "
        "interface with SQLITE_LIMIT_ATTACHED.",
        2.0,
        "limits",
    )
    (group,) = groups([limit, values])
    assert claim_of(group).text == values.quote
    # A caption two manuals share is no claim both make: it joins neither page's examples to the other's.
    caption = quote("An IP address of a host allowed access", 4.0, "mod_access_compat", backbone=True)
    allow = quote(
        "A full IP address: Allow from 10.1.2.3 Allow from 192.168.1.104 192.168.1.205 "
        "An IP address of a host allowed access",
        2.0,
        "mod_access_compat",
    )
    require = quote(
        "When Require ip ip-address is specified, then the request is allowed access if the IP address "
        "matches. A full IP address: Require ip 10.1.2.3 An IP address of a host allowed access",
        3.0,
        "mod_authz_host",
    ).model_copy(
        update={
            "core": "When Require ip ip-address is specified, then the request is allowed access if the IP "
            "address matches."
        }
    )
    shown = [claim_of(g).text for g in groups([caption, allow, require])]
    assert len(shown) == 2 and require.quote in shown


def test_a_quote_that_points_at_its_heading_names_it_in_its_claim() -> None:
    # The chunk began after the sentence that named the hook: only the heading says which hook it is.
    def quote(text: str, path: str, doc: str) -> Evidence:
        return Evidence(id=f"E{doc}", chunk_id=doc, document_id=doc, title=doc, quote=text, section_path=path)

    hook = quote(
        "If this hook exits with a non-zero status, git push will abort without pushing anything.",
        "HOOKS > pre-push",
        "githooks",
    )
    push = quote(
        "If any commits are missing the push will be aborted and exit with non-zero status.",
        "OPTIONS",
        "push",
    )
    (one, other) = groups([hook, push])  # about two things, though their words are the same
    assert claim_of(one).text == (
        "pre-push — If this hook exits with a non-zero status, git push will abort without pushing anything."
    )
    assert claim_of(other).text == push.quote  # a section's title ("OPTIONS") names nothing
    assert guard_claims([claim_of(one)], {hook.id: hook}, GuardCounts()) == [claim_of(one)]
    # The heading names a thing the quote describes without naming it.
    named = quote("This directive sets the timeout.", "Directives > SSLSessionCacheTimeout", "ssl")
    assert claim_of(groups([named])[0]).text == "SSLSessionCacheTimeout — This directive sets the timeout."
    domain = quote(
        "The domain to be used when setting the CSRF cookie.", "Settings > CSRF_COOKIE_DOMAIN", "s"
    )
    assert claim_of(groups([domain])[0]).text == f"CSRF_COOKIE_DOMAIN — {domain.quote}"
    # A quote that names it, or opens with the term it describes, needs no heading.
    plain = quote(
        "SSLSessionCacheTimeout is 300 seconds by default.", "Directives > SSLSessionCacheTimeout", "s"
    )
    assert claim_of(groups([plain])[0]).text == plain.quote
    term = quote("SSLSessionCache\n• The cache type.", "Directives > SSLSessionCacheTimeout", "ssl")
    assert claim_of(groups([term])[0]).text == "SSLSessionCache — The cache type."
    # A section's title is no name in code, however hyphenated.
    trend = quote("Unemployment fell for the third year in a row.", "Economy > Long-term trends", "econ")
    assert claim_of(groups([trend])[0]).text == trend.quote
    prefix = quote(
        "If make install is invoked, this directory is prepended onto all install directories. See "
        "CMAKE_INSTALL_PREFIX_INITIALIZED_TO_DEFAULT for how a project might choose its own default.",
        "CMAKE_INSTALL_PREFIX",
        "v",
    )  # a longer name that holds the heading's is no mention of it
    assert claim_of(groups([prefix])[0]).text.startswith("CMAKE_INSTALL_PREFIX — If make install")
    policy = quote("The NEW behavior for this policy is to issue a FATAL_ERROR.", "Policies > CMP0032", "p")
    assert claim_of(groups([policy])[0]).text == f"CMP0032 — {policy.quote}"  # (CMake's policy pages)
    # ... nor a numbered one ("10.5" is no dotted name: GNU Awk's "Reading the User Database").
    users = quote(
        "Because this function uses getline, it first saves FS.", "10.5 Reading the User Database", "u"
    )
    assert not claim_of(groups([users])[0]).text.startswith("10.5")
    fixed = quote(
        "It is useful to illustrate the use of FIELDWIDTHS.", "4.6.1 Processing Fixed-Width Data", "f"
    )
    assert claim_of(groups([fixed])[0]).text == fixed.quote
    # A heading that holds a name in code names it: Django's deployment checklist.
    deploy = quote(
        "Be sure to run it against your production settings file.", "Run manage.py check --deploy", "d"
    )
    assert claim_of(groups([deploy])[0]).text == f"Run manage.py check --deploy — {deploy.quote}"
    # A signature as the heading names its quote by the name, not the parameters (Jinja's API reference),
    # unless the quote says the name as a word of its own ("renders" and "login-based" do not) or opens with
    # its own term.
    signed = [
        (
            "A compiled template that can be rendered.",
            "API > High Level API > class jinja2.Template(source, block_start_string='{%', autoescape=False)",
            "jinja2.Template — A compiled template that can be rendered.",
        ),
        ("Call render() with the context.", "API > Template.render(*args, **kwargs)", None),
        ("This method renders the template.", "API > Template.render(*args, **kwargs)", "Template.render — "),
        ("It lets you pass any login-based tests.", "Testing > login(**credentials)", "login — "),
        (
            "It acts as a dummy browser.",
            "Testing > class Client(enforce_csrf_checks=False)[source]",
            "Client — ",
        ),
        (
            "keep_trailing_newline\n\nPreserve the trailing newline when rendering templates.",
            "API > class jinja2.Environment([options])",
            "keep_trailing_newline — Preserve",
        ),
        # ... but by the whole signature over a parameter whose default only the signature gives.
        (
            "cache_timeout (int) - the cache timeout in seconds for the headers.",
            "Serve Shared Static Files > class werkzeug.middleware.shared_data.SharedDataMiddleware(app, "
            "exports, disallow=None, cache=True, cache_timeout=43200)",
            "class werkzeug.middleware.shared_data.SharedDataMiddleware(app, exports, disallow=None, "
            "cache=True, cache_timeout=43200) — cache_timeout (int) - the cache timeout",
        ),
        (
            "exports (dict) - list or dict of exported files and folders.",
            "Serve Shared Static Files > class werkzeug.middleware.shared_data.SharedDataMiddleware(app, "
            "exports, disallow=None, cache=True, cache_timeout=43200)",
            "werkzeug.middleware.shared_data.SharedDataMiddleware — exports (dict)",
        ),
        (
            "disallow (list) - a list of fnmatch() rules.",
            "Serve Shared Static Files > class werkzeug.middleware.shared_data.SharedDataMiddleware(app, "
            "exports, disallow=None, cache=True, cache_timeout=43200)",
            "werkzeug.middleware.shared_data.SharedDataMiddleware — disallow (list)",
        ),
    ]
    for text, path, opening in signed:
        evidence = quote(text, path, "api")
        claim = claim_of(groups([evidence])[0])
        assert claim.text.startswith(opening or text), (text, claim.text)
        assert guard_claims([claim], {evidence.id: evidence}, GuardCounts()) == [claim]
    # Apache's directive sections: "Description: | Enables HTTP persistent connections" names no directive.
    row = quote("Description: | Enables HTTP persistent connections", "Core > KeepAlive Directive", "core")
    assert claim_of(groups([row])[0]).text.startswith("KeepAlive Directive — Description:")
    # "This directive", "This module": the kind the section's heading, or in a page's own sections the page's
    # title, says; a kind no heading says points at a sentence before it and is read as it stands.
    for text, path, opening in (
        ("This directive allows access to be restricted.", "mod_access_compat > Deny Directive", "Deny"),
        (
            "This Multi-Processing Module (MPM) implements a non-threaded, pre-forking web server.",
            "Apache MPM prefork > Summary",
            "Apache MPM prefork — This",
        ),
        ("This module implements Digest.", "Apache Module mod_auth_digest > Summary", "Apache Module"),
        ("These modules implement Digest.", "Apache Module mod_auth_digest > Summary", None),
        ("This method is similar to clean_fields().", "Model instance reference > Validating objects", None),
        # ... after a preposition too, and a manual's "option" is its "setting"; never a listing's title.
        (
            "With this option you can configure the maximum amount of resident memory.",
            "Workers Guide > Max memory per child setting",
            "Max memory per child setting — With",
        ),
        ("This directive is evaluated early.", "Apache Module mod_ssl > Overview > Directives", None),
        # An option's forms name it: "Number of child processes ..." alone is no answer to "which option".
        (
            "Number of child processes processing the queue.",
            "Command Line Interface > worker > -c, --concurrency <concurrency>",
            "-c, --concurrency <concurrency> — Number",
        ),
        ("This module does not apply here.", "Apache Module mod_ssl > Overview > Summary", None),
        ("This means the directive is ignored.", "mod_access_compat > Deny Directive", None),
    ):
        this = quote(text, path, "mod")
        claim = claim_of(groups([this])[0])
        assert claim.text.startswith(opening or text), (text, claim.text)
        assert guard_claims([claim], {this.id: this}, GuardCounts()) == [claim]
    # rsyslog's parameters are headed by their names in lower case; its module pages are titled
    # "name: what it is", and what the module is for stands under "Purpose".
    page = "omprog: Program integration Output module"
    output = quote(
        "Full path of a file where the output of the program will be saved.", f"{page} > output", "o"
    )
    assert claim_of(groups([output])[0]).text == f"output — {output.quote}"
    purpose = quote(
        "Executes the configured program and feeds log messages to it via stdin.", f"{page} > Purpose", "o"
    )
    claim = claim_of(groups([purpose])[0])
    assert claim.text == f"omprog — {purpose.quote}"
    assert guard_claims([claim], {purpose.id: purpose}, GuardCounts()) == [claim]
    # Deeper, a section is a part of the module: "Default is 6 (info)." is no default of impstats.
    deep = quote("Default is 6 (info).", "impstats: Statistics > Module Parameters > Severity", "i")
    assert claim_of(groups([deep])[0]).text == f"Severity — {deep.quote}"  # a parameter's name, capitalised
    # A one-word heading under a section that lists no named things is a section's title.
    part = quote("Default is 6 (info).", "impstats: Statistics > Configuration > Severity", "i")
    assert claim_of(groups([part])[0]).text == part.quote
    # A name in lower case the quote uses as a name names it; after an article it is a common noun.
    used = quote("django-admin collectstatic", "Commands > collectstatic", "c")
    assert claim_of(groups([used])[0]).text == used.quote
    big = quote(
        "When shipping logs in bulk, maxbytes specifies the largest request.", "Params > maxbytes", "e"
    )
    assert claim_of(groups([big])[0]).text == big.quote
    named = quote("The omprog module executes the configured program.", f"{page} > Purpose", "o")
    assert claim_of(groups([named])[0]).text == named.quote
    # A section's capitalised title is no name, nor a page's title that is no name before a colon.
    note = quote("Executes the program once per message.", "Note: performance > Purpose", "n")
    assert claim_of(groups([note])[0]).text == note.quote
    # At the top of a page titled by a name in code and what it does, "this <kind>" is that name, whatever
    # kind the title says; a quote that names it, or says no kind, is read as it stands.
    autodoc = "sphinx.ext.autodoc - Include documentation from docstrings"
    this = quote("This extension can import the modules you are documenting.", autodoc, "a")
    claim = claim_of(groups([this])[0])
    assert claim.text == f"sphinx.ext.autodoc — {this.quote}"
    assert guard_claims([claim], {this.id: this}, GuardCounts()) == [claim]
    for text in ("The autodoc extension can import modules.", "You can also enable the napoleon extension."):
        alone = quote(text, autodoc, "a")
        assert claim_of(groups([alone])[0]).text == alone.quote
    titled = quote("This extension can import modules.", "Documenting code - A tutorial", "t")
    assert claim_of(groups([titled])[0]).text == titled.quote


def test_a_quote_about_a_person_by_pronoun_only_names_the_person() -> None:
    # A Wikipedia lead's sentence whose chunk says "him" and never "Carlos Slim": read alone, about nobody.
    def quote(text: str, title: str, path: str | None = None) -> Evidence:
        return Evidence(
            id=f"E{len(text)}",
            chunk_id=title,
            document_id=title,
            title=title,
            quote=text,
            section_path=path or title,
        )

    slim = quote(
        "As of July 2025, the Bloomberg Billionaires Index ranked him as the 18th-richest person in the "
        "world.",
        "Carlos Slim",
    )
    claim = claim_of(groups([slim])[0])
    assert claim.text == f"Carlos Slim — {slim.quote}"
    assert guard_claims([claim], {slim.id: slim}, GuardCounts()) == [claim]
    # A quote that names the person by surname only ("Buffett's" is Buffett) is named in full: a report on
    # the richest people lists people ...
    for text, title in (
        (
            "According to Forbes, Buffett's estimated net worth stood at US$148.9 billion, making him the "
            "ninth-richest person in the world.",
            "Warren Buffett",
        ),
        ("During her career, Comăneci won nine Olympic medals.", "Nadia Comăneci"),
        ("Musk has been the wealthiest person in the world since 2025.", "Elon Musk"),
        (
            "When these efforts failed, Fidel Castro and his brother led an assault on a Cuban post.",
            "Cuban Revolution",
        ),
    ):
        surname = quote(text, title)
        assert claim_of(groups([surname])[0]).text == f"{title} — {text}"
    # ... a thing's first sentence that says "it" is named too ...
    harvard = quote(
        "Founded in 1636, and named Harvard College in 1639, it is the oldest institution of higher "
        "learning in the United States.",
        "Harvard University",
    )
    assert claim_of(groups([harvard])[0]).text == f"Harvard University — {harvard.quote}"
    # ... and one that says "him" a sentence before it names him is, read from the start, about nobody.
    gates = quote(
        "Forbes magazine ranked him as the world's wealthiest person for 18 out of 24 years. Gates became "
        "the first centibillionaire in 1999.",
        "Bill Gates",
    )
    assert claim_of(groups([gates])[0]).text == f"Bill Gates — {gates.quote}"
    # ... nor under a page's title set in title case: "Of" is no particle of a name.
    features = quote(
        "SQLite provides a number of enhancements to the SQL language.", "Distinctive Features Of SQLite"
    )
    assert claim_of(groups([features])[0]).text == features.quote
    # ... but not one whose first sentence names the subject in full.
    for text, title in (
        ("Warren Buffett is an American investor; his company is Berkshire Hathaway.", "Warren Buffett"),
        ("Mary Ann Evans, known by her pen name George Eliot, was an English novelist.", "George Eliot"),
    ):
        other = quote(text, title)
        assert claim_of(groups([other])[0]).text == other.quote
    # ... and a section's title is nobody's name ("Options" of a manual page titled otherwise, "AUTHORS").
    for path in ("Options", "AUTHORS"):
        manual = quote("He wrote the first version of this program in 1989.", "bash(1)", path)
        assert claim_of(groups([manual])[0]).text == manual.quote


def test_a_quote_hidden_under_a_claim_is_said_by_it() -> None:
    # A reader sees one quote per claim: a fuller quote that says other words, or a command the claim does
    # not show, is a claim of its own, not an anchor nobody reads.
    def quote(text: str, score: float, doc: str) -> Evidence:
        return Evidence(
            id=f"E{abs(hash(text)) % 10**8}", chunk_id=f"{doc}-1", document_id=doc, quote=text, score=score
        )

    caption = quote("An IP address of a host allowed access", 3.0, "mod_access_compat")
    require = quote(
        "When Require ip ip-address is specified, then the request is allowed access if the IP address "
        "matches.",
        2.0,
        "mod_authz_host",
    )
    assert [claim_of(g).text for g in groups([caption, require])] == [caption.quote, require.quote]
    # Two sections of one page are two things, however alike their words.
    ip = require.model_copy(update={"section_path": "mod_authz_host > Require ip", "backbone": True})
    dns = quote(
        "When Require forward-dns host-name is specified, all IP addresses corresponding to host-name are "
        "allowed access. In contrast to the host provider, this provider does not rely on reverse DNS.",
        3.7,
        "mod_authz_host",
    ).model_copy(update={"section_path": "mod_authz_host > Require forward-dns"})
    assert len(groups([ip, dns])) == 2 and not _about_the_same(ip, dns)
    # ... while a shorter quote of the same fact still stands as the claim's second anchor.
    worth = quote("The market was worth 4.2 billion florins in 2024. Sales grew by 18 percent.", 3.0, "a")
    survey = quote("The market was valued at 4.2 billion florins in 2024.", 2.0, "b")
    (group,) = groups([worth, survey])
    assert claim_of(group).evidence_ids == [worth.id, survey.id]
    source = quote(
        "After setting up and activating the virtual environment, run the following command:\n"
        "...\\> py -m pip install -e django\\\nThis will make Django's code importable.",
        3.0,
        "install",
    )
    windows = quote(
        "In the command prompt, ensure your virtual environment is active, and execute the following "
        "command:\n...\\> py -m pip install Django",
        2.0,
        "windows",
    )
    assert len(groups([source, windows])) == 2


def test_two_quotes_that_share_a_sentence_are_one_claim_read_as_one_span() -> None:
    shared = "The denial of service problem only comes into play when the pattern length gets into millions."
    figures = (
        "The length of the LIKE or GLOB pattern is limited to SQLITE_MAX_LIKE_PATTERN_LENGTH bytes. The "
        "default value of this limit is 50000."
    )
    advise = (
        "Nevertheless, since most useful LIKE or GLOB patterns are at most a few dozen bytes in "
        "length, paranoid application developers may want to reduce this parameter to a few hundred."
    )
    limit, advice = _checked(
        f"{figures} {shared} {advise}", ("L", f"{figures} {shared}", 1.0), ("A", f"{shared} {advise}", 3.0)
    )
    (group,) = groups([advice, limit])  # the better scored says no figure and no name the other gives
    # (one span, from the quote that opens first: the figures and the advice both read)
    assert claim_of(group).text == f"{figures} {shared} {advise}"
    maintenance = "A server in maintenance is shown with the PAUSED state in the status page."
    command = (
        "pause server <pool>/<server>\n\nPut the server in maintenance. No traffic reaches it and no health "
        "check is performed on it until it is resumed."
    )
    restriction = "This command is restricted to admin sockets."
    pause, restricted = _checked(
        f"{command} {maintenance}\n\n{restriction}",
        ("P", f"{command} {maintenance}", 1.0),
        ("R", f"{maintenance}\n\n{restriction}", 3.8),
    )
    (group,) = groups([restricted, pause])
    assert claim_of(group).text == (
        "pause server <pool>/<server> — Put the server in maintenance. No traffic reaches it and no health "
        f"check is performed on it until it is resumed. {maintenance} {restriction}"
    )


def test_two_terms_described_alike_are_two_claims() -> None:
    # zsh's parameters: the two descriptions share their words, but are about two things; the claim that
    # answers "which parameter caps the history file" must not read HISTSIZE's description.
    def quote(text: str, score: float) -> Evidence:
        return Evidence(id=f"E{text[:4]}", chunk_id="params", document_id="params", quote=text, score=score)

    local = "If this is made local, it is not implicitly set to 0, but may be explicitly set locally."
    savehist = quote(
        f"SAVEHIST\n• The maximum number of history events to save in the history file. {local}", 5.0
    )
    histsize = quote(
        "HISTSIZE <S>\n• The maximum number of events stored in the internal history list. If you use the "
        "HIST_EXPIRE_DUPS_FIRST option, setting this value larger than the SAVEHIST size will give you the "
        f"difference as a cushion for saving duplicated history events. {local}",
        4.0,
    )
    claims = [claim_of(g).text for g in groups([savehist, histsize])]
    assert claims == [one_line(savehist.quote), one_line(histsize.quote)]


def test_a_bullet_the_page_wrote_as_text_is_no_part_of_its_item() -> None:
    # Texinfo's "@itemize @minus" lists (GNU Awk's feature history) write "<li>- If ...": Docling's "- - If".
    v = visible_text(
        '- Variable additions:\n    - - If `PROCINFO["sorted_in"]` exists, loops sort the indices.'
    )
    assert v.text.splitlines()[-1] == '• If PROCINFO["sorted_in"] exists, loops sort the indices.'
    assert visible_text("- -v sets a variable.").text == "• -v sets a variable."  # an option stays


def test_a_footnote_mark_is_not_visible_text() -> None:
    # DocBook manuals (Debian's aptitude guide) mark footnotes by a bracketed number linking within the page.
    v = visible_text("invoked even after immediate resolution [[11]](#ftn.idm1938) . It can resolve more.")
    assert v.text == "invoked even after immediate resolution. It can resolve more."
    kept = visible_text("See [RFC 9110](#rfc) and [[2]](https://example.org/2).").text
    assert kept == "See RFC 9110 and [2]."  # a named link, and a mark pointing out of the page, stay
    # Texinfo (GNU Awk's manual) writes the mark as a bare number linking to the footnote.
    texinfo = visible_text("after the `BEGIN` rules are run. [38](#FOOT38) However, if an `END` rule exists")
    assert texinfo.text == "after the BEGIN rules are run. However, if an END rule exists"
    # A bare number linking elsewhere in the page is what the sentence says.
    assert visible_text("Repeat step [3](#step-3) twice.").text == "Repeat step 3 twice."
    assert visible_text("See step [3](#step-3-notes) now.").text == "See step 3 now."
    # An admonition's icon, as Docling leaves it (its label and an image placeholder), is no text either.
    row = visible_text("| [Important]  <!-- image -->   | If you do not resolve them, aptitude will act. |")
    assert row.text == "If you do not resolve them, aptitude will act."
    # An icon at a line's start is no indent: the sentence after it is a paragraph, not code.
    note = visible_text("[Warning] <!-- image --> Never run this command as root, whatever it says.")
    assert [b.kind for b in note.blocks] == ["paragraph"]
    # A permalink beside a term or a heading (Texinfo's and Sphinx's "¶") is no text either.
    term = readable("- **`HISTSIZE`** [**¶**](#index-HISTSIZE)\n    - The most commands to keep.\n")
    assert [one_line(q) for q in quoted(term)] == ["HISTSIZE — The most commands to keep."]


def test_a_short_questions_first_hits_each_give_their_best_quote() -> None:
    # SQLite's limits page is the search's first hit twice: its second section holds the answer the judge
    # scores under the answer floor (a value, said in other words than the question). A search's first page
    # shows it, so the report cites it too; a hit further down does not get the same right.
    passages = [_hit("limits", 0), _hit("limits", 1), _hit("pragma", 2), _hit("limits", 7)]
    items = [
        _judged("limits", 0, 5.0),
        _judged("pragma", 2, 1.0),
        _judged("limits", 1, -2.5),
        _judged("limits", 7, -2.5),
    ]
    question = Question(
        id="q1", text="How deep can triggers recurse by default?", sections=[], origin="query"
    )
    admission = admitting(ledger=10)
    kept = {e.id: e.backbone for e in admission.admit(question, items, passages, on_topic=True)}
    assert kept == {"Elimits0": True, "Epragma2": True, "Elimits1": True}


def test_a_questions_search_on_topic_is_cited_however_high_its_best_quote_scores() -> None:
    # FanOutQA's "When were each of the New Seven Wonders of the World constructed?": the page that names
    # the wonders scores 6.1 and must not push out the pages of the other hops (Petra at -2.7, on the topic
    # by the absolute floor); the documents of the first hits are cited whatever the judge says (John F.
    # Kennedy's page, the second hit for the leaders of the Cuban Missile Crisis, at -7.6). Where the
    # search found no topic by its own measure (a cosine under ``topic_similarity``), the judge's word is
    # not enough: the cheese market in a brief on the battery market, or a top document the judge
    # finds off the topic (-7.8).
    passages = [
        _near("wonders", 0, 0.78),
        _near("kennedy", 1, 0.67),
        _near("petra", 6, 0.64),
        _near("cheese", 7, 0.58),
        _near("colosseum", 8, 0.59),
    ]
    items = [
        _judged("wonders", 0, 6.1),
        _judged("cheese", 7, -2.5),
        _judged("petra", 6, -2.7),
        _judged("kennedy", 1, -7.6),
        _judged("colosseum", 8, -7.8),
    ]
    question = Question(id="q3", text="When were the wonders built?", sections=[], origin="query")
    admission = admitting(ledger=10)
    kept = {e.id: e.backbone for e in admission.admit(question, items, passages, on_topic=True)}
    assert kept == {"Ewonders0": True, "Epetra6": True, "Ekennedy1": True}
    # Off the corpus's topics, nothing is cited by rank alone.
    off = admitting(ledger=10)
    assert all(not e.backbone for e in off.admit(question, items, passages, on_topic=False))


def test_an_answer_on_the_first_page_of_the_search_is_never_left_out_for_want_of_a_place() -> None:
    # Apache, "By default, how many requests can a client send over one persistent connection?": the
    # directive's record ("MaxKeepAliveRequests 100") is the search's eighth hit, judged 0.82; the question's
    # places had gone to better-scored passages, most of them the backbone's. A reader of that search sees it
    # on its first page, so the report cites it. Places still bound what the search found less surely: a hit
    # whose cosine says the search found no topic there (the cheese market), a hit further down.
    # (document, search rank, the hit's cosine, its best quote's judge score)
    hits = [
        ("core", 0, 0.77, 5.0),
        ("quickref", 1, 0.72, 3.0),
        ("dbd", 2, 0.72, 2.0),
        ("record", 7, 0.72, 0.82),
        ("cheese", 6, 0.58, 0.5),
        ("tuning", 9, 0.71, 0.4),
    ]
    passages = [_near(doc, rank, cosine) for doc, rank, cosine, _ in hits]
    items = [_judged(doc, rank, score) for doc, rank, _, score in hits]
    question = Question(id="q1", text="How many requests per connection?", sections=[], origin="query")
    options = ResearchOptions(evidence_per_question=3, backbone_documents=3)
    admission = admitting(options=options, ledger=10)
    kept = {e.id: e.backbone for e in admission.admit(question, items, passages, on_topic=True)}
    assert kept == {"Ecore0": True, "Equickref1": True, "Edbd2": True, "Erecord7": False}


def test_an_asks_quote_that_answers_better_than_a_first_hits_is_cited_too() -> None:
    # git's manual, asked "Which hook runs before anything is pushed, and aborts the push?": the ask's first
    # hit is cited by its best quote at -3.4 (a tutorial's "You can run the full test suite ..."); the
    # githooks page, the fourth hit, says "If this hook exits with a non-zero status, git push will abort"
    # at -1.06, under the absolute floor. A report that cites the first never drops the better one.
    passages = [_hit("tutorial", 0), _hit("push", 1), _hit("faq", 2), _hit("githooks", 3), _hit("notes", 4)]
    items = [
        _judged("push", 1, -1.0),
        _judged("githooks", 3, -1.06),
        _judged("tutorial", 0, -3.4),
        _judged("notes", 4, -5.0),
    ]
    question = Question(id="q2", text="Which hook aborts a push?", sections=[], origin="ask")
    options = ResearchOptions(backbone_documents=0)
    admission = admitting(options=options, ledger=10, long=True)
    kept = {e.id: e.backbone for e in admission.admit(question, items, passages, on_topic=True)}
    assert kept == {"Epush1": True, "Etutorial0": True, "Egithooks3": False}


def test_a_long_requests_direct_answer_answers_each_ask_first() -> None:
    """Three asks are not answered by three quotes on the first one: the summary takes each ask's best
    claim in the order asked (when on topic), then the most direct of the rest."""
    from sleuth.agent.report import Claim  # noqa: PLC0415
    from sleuth.agent.research.synthesis import summarize  # noqa: PLC0415

    asks = [
        "How do I make a script stop as soon as a command fails?",
        "How can a failure inside a pipeline count?",
        "Can bash treat an unset variable as an error?",
    ]

    def piece(n: int, ask: str, relevance: float) -> Evidence:
        return Evidence(
            id=f"E{n}", chunk_id=f"c{n}", document_id=f"d{n}", quote=f"Quote {n}.", question=ask,
            relevance=relevance,
        )  # fmt: skip

    pieces = [
        piece(1, asks[2], 4.0),
        piece(2, asks[2], 3.5),
        piece(3, asks[2], 3.0),
        piece(4, asks[0], 1.5),
        piece(5, asks[1], -7.0),  # the pipeline ask's best is off topic: no slot of its own
        piece(6, asks[1], -2.0),
    ]
    evidence = {e.id: e for e in pieces}
    findings = {"key_findings": [Claim(text=e.quote, evidence_ids=[e.id]) for e in pieces]}
    spec = TemplateLibrary().load("brief").section("answer")
    by_relevance = summarize(spec, findings, [], evidence)
    assert [c.evidence_ids[0] for c in by_relevance] == ["E1", "E2", "E3"]
    per_ask = summarize(spec, findings, [], evidence, asks=asks, floor=-4.0)
    assert [c.evidence_ids[0] for c in per_ask] == ["E4", "E6", "E1"]
    off = summarize(spec, findings, [], evidence, asks=asks, floor=0.0)
    assert [c.evidence_ids[0] for c in off] == ["E4", "E1", "E2"]
    # Four asks have room for four answers (the brief's direct answer holds three claims).
    fourth = "What does pipefail change?"
    pieces.append(piece(7, fourth, 1.0))
    evidence["E7"] = pieces[-1]
    findings["key_findings"].append(Claim(text="Quote 7.", evidence_ids=["E7"]))
    four = summarize(spec, findings, [], evidence, asks=[*asks, fourth], floor=-4.0)
    assert [c.evidence_ids[0] for c in four] == ["E4", "E6", "E1", "E7"]
    # A claim routed to the summary that answers an ask worse than a findings claim does not keep the ask
    # from its best answer (git: a tutorial's "You can run the full test suite ..." beside githooks'
    # "pre-push — If this hook exits with a non-zero status, git push will abort ...").
    routed = piece(8, asks[0], -3.4)
    evidence["E8"] = routed
    with_routed = summarize(spec, findings, [routed], evidence, asks=asks, floor=-4.0)
    assert [c.evidence_ids[0] for c in with_routed][:2] == ["E8", "E4"]


def test_the_best_answer_on_the_searchs_first_page_stands_in_the_summary() -> None:
    """GNU m4: for "How do I get m4 to emit #line markers ...?" the judge put a walkthrough of how m4 parses
    a line (the search's twelfth hit) first, and "-s, --synclines — ... directives of the form '#line
    linenum "file"'" (its second) ninth: the summary held three walkthroughs."""
    from sleuth.agent.report import Claim  # noqa: PLC0415
    from sleuth.agent.research.synthesis import summarize  # noqa: PLC0415

    quotes = {
        "E1": (11, 0.4, "The macro expands to the empty string, but changes the quoting characters."),
        "E2": (None, -0.4, "Thus, if a.m4 contains 'len(', m4 a.m4 b.m4 outputs '3' with traditional m4."),
        "E3": (
            14,
            -0.6,
            "The final line is then parsed, beginning with two spaces that are output literally.",
        ),
        "E4": (1, -1.1, "-s, --synclines: directives of the form '#line linenum \"file\"' are inserted."),
        "E5": (3, -6.0, "The format of the m4 command is: m4 [option...] [file...]"),
    }
    evidence = {
        i: Evidence(id=i, chunk_id=i, document_id=i, quote=q, origin="query", relevance=r, search_rank=rank)
        for i, (rank, r, q) in quotes.items()
    }
    findings = {"key_findings": [Claim(text=e.quote, evidence_ids=[i]) for i, e in evidence.items()]}
    spec = TemplateLibrary().load("brief").section("answer")
    judged = summarize(spec, findings, [], evidence, floor=-4.0)
    assert [c.evidence_ids[0] for c in judged] == ["E1", "E2", "E3"]
    paged = summarize(spec, findings, [], evidence, floor=-4.0, first_page=5)
    assert [c.evidence_ids[0] for c in paged] == ["E1", "E2", "E4"]  # (E5 is below the floor)


def test_a_constraints_quote_is_no_direct_answer() -> None:
    """A long request's constraint ("I only want what GNU m4 itself offers, with each point tied to the
    manual") is searched, and what it finds answers the constraint: the manual's licence had stood among a
    build engineer's direct answers, ranked by its score for the constraint."""
    from sleuth.agent.report import Claim  # noqa: PLC0415
    from sleuth.agent.research.synthesis import summarize  # noqa: PLC0415

    quotes = {
        "E1": ("ask", -3.0, "-F file, --freeze-state=file: write out the frozen state."),
        "E2": ("constraint", 0.5, "Secondarily, this License preserves for the author a way to get credit."),
        "E3": ("ask", -4.0, "-R file, --reload-state=file: recover the internal state."),
    }
    evidence = {
        i: Evidence(id=i, chunk_id=i, document_id=i, quote=q, origin=origin, relevance=r)
        for i, (origin, r, q) in quotes.items()
    }
    findings = {"key_findings": [Claim(text=e.quote, evidence_ids=[i]) for i, e in evidence.items()]}
    spec = TemplateLibrary().load("brief").section("answer").model_copy(update={"max_claims": 2})
    assert [c.evidence_ids[0] for c in summarize(spec, findings, [], evidence)] == ["E1", "E3"]
    # An answer a constraint's search finds again, scoring higher there, stays the ask's.
    ledger = Ledger(10)
    ledger.add(evidence["E1"])
    ledger.add(evidence["E1"].model_copy(update={"origin": "constraint", "score": 3.0, "relevance": 3.0}))
    assert next(iter(ledger)).origin == "ask"


def test_a_short_questions_parts_are_each_answered_by_the_judges_best() -> None:
    """A short question that joins two ("Are foreign key constraints enforced by default, and how do I turn
    enforcement on?") has each part answered first by the quote the judge scores best for that part,
    whichever search found it: the ledger keeps a quote once, under the first question that found it (the
    question as written), and a part's own search had been left with the CHECK-constraints page."""
    from sleuth.agent.report import Claim  # noqa: PLC0415
    from sleuth.agent.research.synthesis import summarize  # noqa: PLC0415

    whole = "Are foreign key constraints enforced by default, and how do I turn enforcement on?"
    parts = [
        "Are foreign key constraints enforced by default?",
        "How do I turn enforcement on? (foreign key)",
    ]
    quotes = {
        "E1": (whole, 5.0, "Foreign key constraints are disabled by default."),
        "E2": (whole, 4.5, "Foreign key constraints are immediate by default."),
        "E3": (whole, 4.0, "The application can also use a PRAGMA foreign_keys statement."),
        "E4": (parts[0], 2.0, "Enforcement of CHECK constraints can be temporarily disabled."),
        "E5": (parts[1], 1.0, "To enable enforcement, run PRAGMA foreign_keys=ON."),
    }
    evidence = {
        i: Evidence(id=i, chunk_id=i, document_id=i, quote=q, question=asked, relevance=r)
        for i, (asked, r, q) in quotes.items()
    }
    findings = {"key_findings": [Claim(text=e.quote, evidence_ids=[i]) for i, e in evidence.items()]}
    spec = TemplateLibrary().load("brief").section("answer")
    # By the search that found each quote, the first part gets the CHECK constraints.
    found_by = summarize(spec, findings, [], evidence, asks=parts, floor=-4.0)
    assert [c.evidence_ids[0] for c in found_by][:2] == ["E4", "E5"]
    judged = {
        parts[0]: {"E1": 6.0, "E2": 2.0, "E3": -3.0, "E4": -6.0, "E5": -1.0},
        parts[1]: {"E1": 1.0, "E2": -5.0, "E3": 3.0, "E4": -2.0, "E5": 7.0},
    }
    by_part = summarize(spec, findings, [], evidence, asks=parts, floor=-4.0, answers=judged)
    assert [c.evidence_ids[0] for c in by_part] == ["E1", "E5", "E2"]
    # Three claims routed to the summary, found by the question as written, fill it: the parts' better
    # answers stay in the findings, the summary holds its three.
    routed = [
        Evidence(id=f"R{n}", chunk_id=f"r{n}", document_id=f"r{n}", quote=f"Routed {n}.", question=whole)
        for n in range(3)
    ]
    judged = {part: {**scores, "R0": 0.0, "R1": 0.0, "R2": 0.0} for part, scores in judged.items()}
    evidence |= {e.id: e for e in routed}
    full = summarize(spec, findings, routed, evidence, asks=parts, floor=-4.0, answers=judged)
    assert len(full) == 3


def test_the_entry_a_question_names_opens_its_direct_answer() -> None:
    """ "What is the default value of the Timeout directive?": Timeout's own record ("TimeOut Directive >
    Default: TimeOut 60") opens the direct answer, though the judge scored IdentityCheckTimeout's "The
    default value of 30 seconds is recommended by RFC 1413" higher. The entry is known by its heading, in
    any of the forms manuals give it; a question that names no one thing has none."""
    from sleuth.agent.report import Claim  # noqa: PLC0415
    from sleuth.agent.research.asked_entry import asked_entry, in_entry  # noqa: PLC0415
    from sleuth.agent.research.synthesis import summarize  # noqa: PLC0415

    assert asked_entry("What is the default value of the Timeout directive?") == "timeout"
    assert asked_entry("What does the L flag do in a RewriteRule?") == "l"
    assert asked_entry("What is the default length of the `truncate` filter?") == "truncate"
    # (a word in lower case is a word: "the water filter", "the inflation target")
    assert asked_entry("How often should I replace the water filter?") is None
    assert asked_entry("Can I keep the old directives?") is None
    assert asked_entry("What is the default cascade setting of relationship()?") is None
    assert asked_entry("Does the -a option or the -b option win?") is None  # two names: none

    def under(heading: str, n: int = 1, relevance: float = 0.0) -> Evidence:
        return Evidence(
            id=f"E{n}", chunk_id=f"c{n}", document_id=f"d{n}", quote=f"Quote {n}.",
            section_path=f"Page > {heading}", relevance=relevance,
        )  # fmt: skip

    assert in_entry(under("TimeOut Directive"), "timeout")
    assert not in_entry(under("IdentityCheckTimeout Directive"), "timeout")
    assert in_entry(under("L|last"), "l")
    assert in_entry(under("AUTO_CD (-J)"), "auto_cd")
    assert in_entry(under("<Directory> Directive"), "directory")
    assert in_entry(under("truncate(s: str, length: int = 255, killwords: bool = False)"), "truncate")
    assert not in_entry(under(""), "timeout")

    pieces = [
        under("IdentityCheckTimeout Directive", 1, 5.0),
        under("RequestReadTimeout Directive", 2, 4.0),
        under("DavMinTimeout Directive", 3, 3.0),
        under("TimeOut Directive", 4, 1.0),
    ]
    evidence = {e.id: e for e in pieces}
    findings = {"key_findings": [Claim(text=e.quote, evidence_ids=[e.id]) for e in pieces]}
    spec = TemplateLibrary().load("brief").section("answer")
    opened = summarize(spec, findings, [], evidence, entry="timeout", floor=-4.0)
    assert [c.evidence_ids[0] for c in opened] == ["E4", "E1", "E2"]
    assert [c.evidence_ids[0] for c in summarize(spec, findings, [], evidence)] == ["E1", "E2", "E3"]
    # ... when it answers at all (its best claim reaches the floor)
    off = summarize(spec, findings, [], evidence, entry="timeout", floor=2.0)
    assert [c.evidence_ids[0] for c in off] == ["E1", "E2", "E3"]


def test_texinfo_terms_quoted_or_ending_in_a_sign_are_named_by_their_quotes() -> None:
    """GNU make's manual (Texinfo): an option's forms set in quotes over one description ("'-n'" /
    "'--just-print'" / "'--dry-run'" / "'--recon'") are quoted from the first form, and an automatic
    variable whose name ends in a stop ("$?") is the term of the paragraph under it, as "$<" is."""
    options = readable(
        "- **'-n'**\n- **'--just-print'**\n- **'--dry-run'**\n- **'--recon'**\n"
        '    - "No-op". Causes `make` to print the recipes that are needed to make the targets up to date, '
        "but not actually execute them.\n"
    )
    assert quoted(options) == [
        "'-n'\n• '--just-print'\n• '--dry-run'\n• '--recon'\n• \"No-op\". Causes make to print the recipes "
        "that are needed to make the targets up to date, but not actually execute them."
    ]
    variables = readable(
        "**$<**\n\nThe name of the first prerequisite.\n\n**$?**\n\nThe names of all the prerequisites "
        "that are newer than the target, with spaces between them.\n"
    )
    assert quoted(variables) == [
        "$<\n\nThe name of the first prerequisite.",
        "$?\n\nThe names of all the prerequisites that are newer than the target, with spaces between them.",
    ]


def test_a_caption_is_no_quote() -> None:
    """A figure's caption left in a Wikipedia lead ("*Electricity generated by hydropower*") matches a
    question's words and says nothing; a short sentence that ends with its stop is still quotable."""
    text = readable(
        "*Electricity generated by hydropower*\n\nHydropower supplies 15% of the world's electricity.\n\n"
        "Dams store water for later.\n"
    )
    quotes = quoted(text)
    assert "Electricity generated by hydropower" not in quotes
    assert "Hydropower supplies 15% of the world's electricity." in quotes
    assert "Dams store water for later." in quotes


def test_a_description_that_points_back_at_its_record_is_quoted_with_it() -> None:
    # Exim's option tables: one row names the option, the paragraph under it says "This option ...".
    text = readable(
        "| acl_smtp_rcpt | Use: main | Type: string | Default: unset |\n|---|---|---|---|\n\n"
        "This option defines the ACL that is run when an SMTP RCPT command is received."
    )
    assert (
        "acl_smtp_rcpt | Use: main | Type: string | Default: unset\n\nThis option defines the ACL that is "
        "run when an SMTP RCPT command is received."
    ) in quoted(text)
    assert not any(q.startswith("This option") for q in quoted(text))
    # ... also when it names the option only further on.
    later = readable(
        "| delay_warning | Use: main | Type: time list | Default: 24h |\n|---|---|---|---|\n\n"
        "When a message is delayed, Exim sends a warning message to the sender at intervals specified by "
        "this option."
    )
    assert all(q.startswith("delay_warning") for q in quoted(later))


def test_entries_of_an_index_or_a_table_of_contents_are_never_quoted() -> None:
    # Exim's concept index and its table of contents: each entry is mostly a link to where the answer is.
    text = readable(
        "- **for address testing**\n"
        "    - [The Exim command line [Command line options]](ch-the_exim_command_line.html#SECTcomlinopt)\n"
        "- [37. The dovecot authenticator](ch-the_dovecot_authenticator.html)\n"
        "- Retry rules are described in [chapter 32](ch-retry.html) and control how often Exim retries."
    )
    assert quoted(text) == ["Retry rules are described in chapter 32 and control how often Exim retries."]
    assert text.visible.linked_share(0, text.text.index("Retry")) > 0.6


def test_the_code_a_quote_ends_with_keeps_its_lines_in_the_claim() -> None:
    # Exim's plaintext authenticator: joined by "; ", the configuration would read as other configuration.
    quote = (
        "The plaintext authenticator can be configured to support this as in this example:\n"
        "fixed_login:\n  driver = plaintext\n  server_prompts = User Name : Password\n"
        "  server_condition = \\\n    ${if eq{$auth2}{secret}}"
    )
    claim = Claim(text=one_line(quote), evidence_ids=["E1"])
    assert claim.text == quote
    assert claim_line(claim, {"E1": 4}).splitlines() == [
        "- The plaintext authenticator can be configured to support this as in this example: [4]",
        "  ```",
        "  fixed_login:",
        "    driver = plaintext",
        "    server_prompts = User Name : Password",
        "    server_condition = \\",
        "      ${if eq{$auth2}{secret}}",
        "  ```",
    ]
    # A numbered list is no code.
    steps = "To upgrade the server, follow these steps:\n1. Stop the service.\n2. Install the package."
    assert "\n" not in one_line(steps)
    # A list's items still read on one line.
    assert one_line("Exim supports these drivers:\n• plaintext\n• cram_md5") == (
        "Exim supports these drivers: • plaintext; • cram_md5"
    )


def test_doing_so_leans_on_the_sentence_before_it() -> None:
    # rsyslog's queues: "Doing so would result in message loss." says what would, only with its sentence.
    passage = readable(
        "The queue cannot stop receiving messages at the high water mark, because some sources cannot be "
        "delayed. Doing so would result in message loss."
    )
    texts = [passage.text[w.start : w.end] for w in windows(passage)]
    assert "Doing so would result in message loss." not in texts
    assert any(t.endswith("delayed. Doing so would result in message loss.") for t in texts)
    # ... nor "Failure to do so ..." (Requests' timeouts: what one fails to do is in the sentence before).
    timeouts = readable(
        "Nearly all production code should use the timeout parameter in nearly all requests. Failure to do "
        "so can cause your program to hang indefinitely."
    )
    texts = [timeouts.text[w.start : w.end] for w in windows(timeouts)]
    assert not any(t.startswith("Failure to do so") for t in texts)
    assert any(t.startswith("Nearly all") and t.endswith("hang indefinitely.") for t in texts)
    # An aside in brackets comments on the sentence it follows (Django's XSS advice had stood in a report's
    # key findings as "(Quoting the attribute value would fix this case.)").
    aside = readable(
        "If var is set to 'class1 onmouseover=javascript:func()', this can result in unauthorized JavaScript "
        "execution. (Quoting the attribute value would fix this case.)"
    )
    texts = [aside.text[w.start : w.end] for w in windows(aside)]
    assert not any(t.startswith("(Quoting") for t in texts)
    assert any(t.endswith("execution. (Quoting the attribute value would fix this case.)") for t in texts)
    # GNU m4's manual: what a short sentence says "also" of, what "this macro call" and "this example" are,
    # stand in the sentence before.
    for before, after in (
        ("The trace attribute of macros is not handled.", "Currently, m4wrap and sysval also have problems."),
        ("Causes m4 to exit, with exit status code.", "After this macro call, m4 will exit with status 1."),
        ("The macro uses defn to copy it.", "Notice that this example is careful to use defn."),
        ("The output shows each expansion.", "As the last two lines show, the quotes are stripped."),
    ):
        shown = readable(f"{before} {after}")
        texts = [shown.text[w.start : w.end] for w in windows(shown)]
        assert after not in texts and f"{before} {after}" in texts
    # ... but "as well as" is "and", "too large" says nothing of the sentence before, "it is possible" no one.
    for alone in (
        "The parser reads JSON as well as YAML files.",
        "Files that are too large are rejected.",
        "Note that it is possible to run several instances.",
        "In Python, for example, lists are mutable sequences.",  # its opening phrase names its subject
    ):
        shown = readable(f"The project shipped after two long betas in the spring. {alone}")
        assert alone in [shown.text[w.start : w.end] for w in windows(shown)]
    # A long sentence that says "also" names what it adds to.
    long = readable(
        "Frozen files are sharable across architectures. The -F option also accepts a file name that is "
        "written when the run ends, whatever input files were read before it."
    )
    assert "The -F option also accepts" in "".join(long.text[w.start : w.start + 26] for w in windows(long))


def test_a_header_and_one_row_read_as_labels_and_values() -> None:
    # rsyslog's parameter tables: "type | default | mandatory | obsolete legacy directive" over one row.
    table = "type | default | mandatory | obsolete legacy directive\nbinary | off | no | none"
    assert one_line(table) == "type: binary; default: off; mandatory: no; obsolete legacy directive: none"
    described = f"{table}\nIf set to on, counters are reset after they are emitted."
    assert (
        one_line(described) == f"{one_line(table)}; If set to on, counters are reset after they are emitted."
    )
    # Two rows of data are no header and its row.
    rows = "AcceptFilter | Configures optimizations\nAcceptPathInfo | Resources accept trailing pathname"
    for data in ("TEXT | INTEGER | CAST to INTEGER\nTEXT | FLOAT | CAST to REAL", "on | off\non | on"):
        assert ": " not in one_line(data)
    # A row of names in capitals, or of capitalised phrases of three words, is data, quotable.
    assert not labels_only("REPOSITORY | repository to prune")
    assert not labels_only("Match Deny only | Request denied | Request denied")
    assert one_line(rows) == rows.replace("\n", "; ")
    # The header alone is no quote.
    passage = readable(
        "| type | default | mandatory | obsolete legacy directive |\n|---|---|---|---|\n"
        "| binary | off | no | none |\n\nIf set to on, counters are reset after they are emitted."
    )
    texts = [passage.text[w.start : w.end] for w in windows(passage)]
    assert "type | default | mandatory | obsolete legacy directive" not in texts
    assert table in texts


def test_code_after_a_sentence_and_a_blank_line_keeps_its_lines() -> None:
    # rsyslog's imuxsock: joined into one line, the "#" comment swallowed the parameter after it.
    quote = (
        "The following sample is used to turn off input rate limiting on the system log socket.\n\n"
        'module(load="imuxsock" # needs to be done just once\n'
        '         SysSock.RateLimit.Interval="0") # turn off rate limiting'
    )
    assert one_line(quote).splitlines() == [
        "The following sample is used to turn off input rate limiting on the system log socket.",
        'module(load="imuxsock" # needs to be done just once',
        '         SysSock.RateLimit.Interval="0") # turn off rate limiting',
    ]
    # Two paragraphs of prose are no code, brackets or not; nor is one line after a sentence.
    prose = (
        "The queue is kept in memory.\n\nIt spills to disk (when full).\nThe file name is set (see below)."
    )
    assert "\n" not in one_line(prose)
    single = (
        'The following command writes all messages into a file.\n\naction(type="omfile" File="/var/log/m")'
    )
    assert "\n" not in one_line(single)
    # A sentence between two blocks of code is no line of code (Django's tutorial).
    tutorial = (
        "Because pub_date is a field, it works with the filter options.\n\n"
        "This is shaping up well. Let's add some search capability:\nsearch_fields = ['question_text']"
    )
    assert code_tail(tutorial) == (tutorial, "")
    # Lines broken in a paragraph, brackets or not, are no code.
    broken = (
        "The result follows.\n\nthe value of x (see Fig. 3) was found\n"
        "to be [12] and y = 4; this holds\nfor all n"
    )
    assert code_tail(broken) == (broken, "")
    # The report's list of evidence shows the code as a block under the quote's sentence.
    record = EvidenceRecord(id="E1", document_id="imuxsock", title="imuxsock", quote=quote)
    report = report_of(record)
    md = render_markdown(report).splitlines()
    at = md.index(
        "1. imuxsock: “The following sample is used to turn off input rate limiting on the system log "
        "socket.”"
    )
    assert md[at + 1 : at + 5] == [
        "   ```",
        '   module(load="imuxsock" # needs to be done just once',
        '            SysSock.RateLimit.Interval="0") # turn off rate limiting',
        "   ```",
    ]


def test_a_due_diligence_keeps_what_no_aspect_takes_under_other_findings(encoders: Encoders) -> None:
    # A fact that answers the request better than any aspect's question goes to the template's other
    # findings: the overview above says what the thing is in a few claims (it had held every such fact, 23
    # claims for a Django upload question), and no required aspect left empty takes it (a market's price
    # had gone under "Architecture and design").
    tdd = TemplateLibrary().load("technical_due_diligence")
    assert tdd.section("other_findings").default
    request = understand("How does Django handle file uploads?")
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    text = (
        "By default, if an uploaded file is smaller than 2.5 megabytes, Django will hold the entire contents "
        "of the upload in memory."
    )
    relevance = judge.judge(request.text, [text])[0]
    fact = Evidence(id="E1", chunk_id="uploads-1", document_id="uploads", quote=text, relevance=relevance)
    routed = route(tdd, [fact], request, judge.judge, route_floor=-1.0, route_lift=2.0)
    assert [e.id for e in routed["other_findings"]] == ["E1"]
    assert not routed["overview"] and not routed["architecture"]

    # A template of the user's own whose leftover section is asked only the request but not marked default
    # takes that fact all the same (it could take nothing before: no aspect of its own to serve).
    data = tdd.model_dump()
    for section in data["sections"]:
        section["default"] = False
    mine = type(tdd).model_validate(data)
    routed = route(mine, [fact], request, judge.judge, route_floor=-1.0, route_lift=2.0)
    assert [e.id for e in routed["other_findings"]] == ["E1"]


def test_what_is_unknown_takes_only_quotes_that_say_so(encoders: Encoders) -> None:
    # Exim's brief on SMTP timeouts: the cross-encoder reads "smtp_max_unknown_commands" as an answer to
    # "What is unknown ...?"; the brief's open questions take only quotes that say something is unknown.
    brief = TemplateLibrary().load("brief")
    request = understand("How does Exim time out SMTP connections?")
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)

    def quote(text: str) -> Evidence:
        return Evidence(
            id=f"E{len(text)}", chunk_id=text[:9], document_id=text[:9], quote=text, relevance=0.0
        )

    fact = quote("The default value for smtp_max_unknown_commands is 3.")
    hedge = quote("It is not yet known whether the SMTP timeout also applies to the TLS handshake.")
    read: dict[str, int] = {}

    def recorded(question: str, contexts: list[str]) -> list[float]:
        read[question] = read.get(question, 0) + len(contexts)
        return judge.judge(question, contexts)

    routed = route(brief, [fact, hedge], request, recorded, route_floor=-10.0, route_lift=20.0)
    assert fact.id not in {e.id for e in routed["open_questions"]}
    assert hedge.id in {e.id for e in routed["open_questions"]}
    # What could never go there is not judged for it: the cross-encoder read the open questions' question
    # with the hedge alone, the other sections' with both.
    (unknown,) = section_questions(brief.section("open_questions"), request)
    assert read.pop(unknown) == 1
    assert set(read.values()) == {2}
    assert brief.section("open_questions").says_cue("This remains unclear.")
    assert not brief.section("open_questions").says_cue("smtp_max_unknown_commands is 3")
    # A word for what is not known that names a kind of thing, or the reader's condition, says nothing is
    # unknown: none of these is an open question.
    for text, said in (
        ("A request with an unknown hostname is served from the first vhost.", False),
        ("Chunked encoding sends content of unknown length.", False),
        ("Unknown PRAGMAs are silently ignored, since unknown PRAGMAs are no error.", False),
        ("Using it after it was finalized can result in undefined and undesirable behavior.", False),
        ("When in doubt, inspect the SQL. If you're unsure, run makemigrations.", False),
        ("The reply is an error message indicating that the query file is unknown.", False),  # (CMake)
        ("Options that are unknown are ignored.", False),
        ("It is unknown whether the fix helps.", True),
        ("The cause is still unknown, and disputed.", True),
        ("The behaviour is undefined if the handle is closed.", True),
        ("The order of the rows is unspecified.", True),
        ("pytest-marks | UNKNOWN | Nov 23, 2012 | 3 - Alpha | N/A", False),  # (a value in capitals)
    ):
        assert brief.section("open_questions").says_cue(text) is said, text


def test_what_is_unknown_is_unknown_of_the_request(encoders: Encoders) -> None:
    # pytest's manual, a request on flaky tests in CI: the history of the project says "it's unclear where
    # the test runner's code was at the time"; the cross-encoder reads the keyword as an answer to "What is
    # unknown ... about <the request>?", but the quote answers nothing the request asks.
    brief = TemplateLibrary().load("brief")
    query = (
        "Act as our CI/ops lead. Our Python monorepo has roughly 4,000 pytest tests and the nightly pipeline "
        "goes red two or three times a week because of a handful of intermittent failures.\n\nI need three "
        "things from you. First, how do we re-run only the tests that failed in the previous run? Second, "
        "where does pytest keep the information about the last run, and how do we wipe it? Third, how do we "
        "mark a flaky test so that it does not break the build?"
    )
    request = understand(query)
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    texts = [
        "However, it didn't seem to be around for long, as around June/July 2004, efforts started on a thing "
        "called utest, offering plain assertions. This seems like the start of something pytest-like, but "
        "unfortunately, it's unclear where the test runner's code was at the time.",
        "Whether flaky tests re-run in the previous run are counted as failed is not documented.",
    ]
    rows = [encoders.rerank(ask, texts) for ask in request.asks]  # (relevance: the best over the asks)
    history, hedge = (
        Evidence(id=f"E{n}", chunk_id=f"c{n}", document_id=f"d{n}", quote=t, relevance=r)
        for n, (t, r) in enumerate(zip(texts, [max(col) for col in zip(*rows, strict=True)], strict=True))
    )
    assert history.relevance < -1.0 <= hedge.relevance  # (what the judge makes of each, for the request)
    routed = route(
        brief, [history, hedge], request, judge.judge, route_floor=-1.0, route_lift=2.0, cue_floor=-1.0
    )
    assert [e.id for e in routed["open_questions"]] == [hedge.id]
    # (without the floor, the history's "unclear" takes it)
    routed = route(brief, [history, hedge], request, judge.judge, route_floor=-1.0, route_lift=2.0)
    assert history.id in {e.id for e in routed["open_questions"]}


def test_a_paragraph_that_opens_on_a_name_in_code_is_no_fragment() -> None:
    # pytest's "Flaky tests": the answer opens on a link to the marker, in lower case; read as the rest of a
    # sentence cut off, it was left out and the quote was "This could be considered like a manual
    # quarantine, ..." alone.
    text = readable(
        "[pytest.mark.xfail](../reference/reference.html#pytest-mark-xfail-ref) with `strict=False` can be "
        "used to mark a test so that its failure does not cause the whole build to break. This could be "
        "considered like a manual quarantine, and is rather dangerous to use permanently."
    )
    quotes = quoted(text)
    assert quotes[0].startswith("pytest.mark.xfail with strict=False can be used")
    assert not any(q.startswith("This could") for q in quotes)
    # what a chunk's edge cut off is still no quote of its own
    assert quoted(readable("translation on the next line. Workers read the queue in order.")) == [
        "Workers read the queue in order."
    ]


def test_a_description_under_its_term_line_is_quoted_with_it() -> None:
    # HAProxy's management guide sets each command on a line of its own over its description: "Mark the
    # server DOWN for maintenance." alone says nothing of which command does it.
    text = readable(
        "[**disable server**](#9.3-disable%20server) &lt;backend&gt;/&lt;server&gt;\n\n"
        "Mark the server DOWN for maintenance. In this mode, no more checks will be performed on the server "
        "until it leaves maintenance.\n\n"
        'In the statistics page, a server DOWN for maintenance will appear with a "MAINT" status.'
    )
    quotes = quoted(text)
    assert any(q.startswith("disable server <backend>/<server>\n\nMark the server DOWN") for q in quotes)
    assert not any(q.startswith("Mark the server") for q in quotes)
    claim = one_line(next(q for q in quotes if q.startswith("disable server")))
    assert claim.startswith("disable server <backend>/<server> — Mark the server DOWN for maintenance.")
    # A term's choices in brackets are no table's cells.
    state = one_line(
        "set server <backend>/<server> state [ ready | drain | maint ]\n\nForce a server's state."
    )
    assert state == "set server <backend>/<server> state [ ready | drain | maint ] — Force a server's state."
    # Several term lines over one description are its terms, all of them ("downinter <delay> — The "inter"
    # parameter sets ..." named the wrong one); a later sentence of the description that does not name its
    # term is quoted from the term on ("Round-robin is performed ..." is leastconn's, not round-robin's).
    grouped = readable(
        "inter &lt;delay&gt;\n\nfastinter &lt;delay&gt;\n\ndowninter &lt;delay&gt;\n\n"
        'The "inter" parameter sets the interval between two consecutive health checks to &lt;delay&gt; '
        "milliseconds.\n\nleastconn\n\nThe server with the lowest number of connections receives the "
        "connection. Round-robin is performed within groups of servers of the same load. Use of this "
        "algorithm is recommended where very long sessions are expected, such as LDAP or SQL."
    )
    claims = [one_line(q) for q in quoted(grouped)]
    grouped_terms = 'inter <delay>, fastinter <delay>, downinter <delay> — The "inter"'
    assert any(c.startswith(grouped_terms) for c in claims)
    # ... a sentence that names none of its terms is quoted from them, whatever its window takes in after
    # it; lines that are all names are a list, no terms over a description.
    named = readable(
        "inter &lt;delay&gt;\n\nfastinter &lt;delay&gt;\n\nSets the check interval. If left unspecified, the "
        'delay defaults to 2000 ms. Use "fastinter" to speed up checks.'
    )
    assert all(q.startswith("inter <delay>") for q in quoted(named) if "2000 ms" in q)
    assert one_line("gunicorn.conf.py\nsettings.py\nurls.py\nviews.py").startswith("gunicorn.conf.py — ")
    # A footnote's label is no term (Sphinx's "[1]" over "This is the usual layout."); a number may be one.
    assert one_line("[1]\n\nThis is the usual layout.") == "This is the usual layout."
    assert one_line("100\n\nContinue with the request.") == "100 — Continue with the request."
    assert not any(c.startswith(("Round-robin", "Use of this")) for c in claims)
    assert any(c.startswith("leastconn — The server") and c.endswith("such as LDAP or SQL.") for c in claims)
    # A paragraph further down is no description of the term; a title over a paragraph is no term either.
    assert any(q.startswith("In the statistics page") for q in quotes)
    titled = readable("Planning the migration\n\nMark every server that takes traffic before you begin.")
    assert not any(q.startswith("Planning") for q in quoted(titled))


def test_a_description_under_its_signature_is_quoted_with_it() -> None:
    # Sphinx sets a class's signature in bold over its description (Jinja's API reference): "Load templates
    # from a directory in a Python package." alone does not say which loader does it.
    text = readable(
        "**class jinja2.PackageLoader(package\\_name, package\\_path='templates', encoding='utf-8')**\n\n"
        "Load templates from a directory in a Python package.\n\n"
        "**Template.render(\\*args, \\*\\*kwargs)**\n\n"
        "This method accepts the same arguments as the dict constructor.\n\n"
        "- **cache\\_size** ( *int* ) -\n"
        "- **auto\\_reload** ( *bool* ) - Some loaders load templates from locations where the template "
        "sources may change."
    )
    quotes = quoted(text)
    loader = next(q for q in quotes if "Load templates" in q)
    assert one_line(loader).startswith("class jinja2.PackageLoader(package_name, package_path='templates', ")
    assert one_line(loader).endswith("— Load templates from a directory in a Python package.")
    assert any(q.startswith("Template.render(*args, **kwargs)\n\nThis method accepts") for q in quotes)
    # A parameter listed by its name and type with nothing said of it is no quote; its neighbour is.
    assert not any(q.rstrip().endswith("-") for q in quotes)
    assert any(q.startswith("auto_reload ( bool ) - Some loaders") for q in quotes)
    # A signature opens with the name it calls; a title, a pointer or a sentence that names a call is no
    # term line, nor one that closes with a parenthesis.
    assert is_term_line("class Client(enforce_csrf_checks=False, raise_request_exception=True)[source]")
    assert is_term_line("jinja-filters.capitalize(s: str) → str")
    for line in (
        "See also: sqlite3_data_count()",
        "When to use include()",
        "Completion = 100% * (pagecount() - remaining()) / pagecount()",
        "Joins a list with a string, like Python's str.join(list)",
        "render() draws it (see the notes)",
        "see the notes on loading (for details)",
    ):
        assert not is_term_line(line), line
    # A dash that is a value, not a missing description, stays.
    assert any(
        "loaddata --format=json -" in q for q in quoted(readable("Run django-admin loaddata --format=json -"))
    )


def test_a_quote_that_goes_on_to_say_more_is_no_repeat_of_a_shorter_one() -> None:
    # Jinja's introduction lists "A sandboxed environment can safely render untrusted templates."; the
    # sandbox page says so too and then how. Under the list's claim, the how was never read.
    listed = Evidence(
        id="E1",
        chunk_id="intro",
        document_id="intro",
        quote=(
            "It includes:\n\n• Template inheritance and inclusion.\n"
            "• Define and import macros within templates.\n"
            "• HTML templates can use autoescaping to prevent XSS from untrusted user input.\n"
            "• A sandboxed environment can safely render untrusted templates.\n• I18N support with Babel."
        ),
        score=3.0,
        backbone=True,
    )
    page = Evidence(
        id="E2",
        chunk_id="sandbox",
        document_id="sandbox",
        quote=(
            "The Jinja sandbox can be used to render untrusted templates. Access to attributes, method "
            "calls, operators, mutating data structures, and string formatting can be intercepted and "
            "prohibited."
        ),
        core="The Jinja sandbox can be used to render untrusted templates.",
        score=2.0,
    )
    claims = [claim_of(g).text for g in groups([listed, page])]
    assert claims == [one_line(listed.quote), page.quote]
    # The same sentence again with nothing more is one claim of two sources.
    again = page.model_copy(update={"id": "E3", "quote": page.core, "chunk_id": "faq", "document_id": "faq"})
    (one,) = groups([listed, again])
    assert claim_of(one).evidence_ids == ["E1", "E3"]


def _checked(source: str, *quotes: tuple[str, str, float]) -> list[Evidence]:
    """Quotes (id, text, score) of one chunk, checked against its text as a run checks them (which places
    each quote in its source)."""
    items = [Evidence(id=i, chunk_id="c", document_id="d", quote=q, score=sc) for i, q, sc in quotes]
    return verify_quotes(items, dict.fromkeys((e.id for e in items), source), GuardCounts())


def test_quotes_of_one_passage_that_share_a_sentence_are_one_claim() -> None:
    # Two questions' quotes of one paragraph overlap ("For agent checks ... before removal." and "The agent
    # should be first deactivated ... before removal. It may be possible ..."): one claim, not the shared
    # sentence twice; a paragraph after a sentence reads on after a space, not a semicolon.
    shared = (
        'The agent should be first deactivated via "disable agent" to be able to put the server in the '
        "required maintenance mode before removal."
    )
    opening = 'For agent checks, use the "agent-check" keyword and the "enable agent" command.'
    after = "It may be possible to reach the fd limit when using many dynamic servers."
    first, second = _checked(
        f"{opening} {shared}\n\n{after}",
        ("E1", f"{opening} {shared}", 4.0),
        ("E2", f"{shared}\n\n{after}", 3.0),
    )
    found = groups([first, second])
    assert len(found) == 1 and {e.id for e in found[0].items} == {"E1", "E2"}
    assert one_line(second.quote) == f"{shared} {after}"
    # The claim shows both as one span, as the paragraph has them (each is cited).
    (claim,) = [claim_of(g) for g in found]
    assert claim.text == f"{opening} {shared} {after}"
    assert set(claim.evidence_ids) == {"E1", "E2"}
    # ... whichever of the two says more: a lead that names the city and a window that opens on "The city"
    # and says more are read from the lead on.
    lead = (
        "São Paulo is the capital city of the state of the same name, and the most populous city in Brazil."
    )
    said = "The city exerts international influence in commerce, finance, culture and the arts."
    more = (
        "It is the largest urban area by population outside Asia and the most populous city of its language."
    )
    city_opening, fuller = _checked(
        f"{lead} {said} {more}", ("E3", f"{lead} {said}", 4.0), ("E4", f"{said} {more}", 5.0)
    )
    (city,) = groups([fuller, city_opening])
    assert claim_of(city).text == f"{lead} {said} {more}"
    # Three windows of one paragraph, each overlapping the next, show the paragraph whole.
    s = [f"Sentence number {k} of the paragraph says one more thing here." for k in range(4)]
    windows = _checked(
        " ".join(s),
        ("W1", f"{s[0]} {s[1]}", 1.0),
        ("W2", f"{s[1]} {s[2]}", 3.0),
        ("W3", f"{s[2]} {s[3]}", 2.0),
    )
    assert [claim_of(g).text for g in groups(windows)] == [" ".join(s)]


def test_quotes_that_share_a_repeated_sentence_are_not_joined() -> None:
    # A man page repeats "If this option is used several times, the last one will be used." under each
    # option: the quote that ends on it under one option and the one that opens on it under the next are
    # no span of the source, and joining them would give one option the other's example.
    again = "If this option is used several times, the last one will be used."
    source = (
        f"--connect-timeout sets the maximum time allowed for the connection phase. {again} "
        f"--max-time sets the maximum time allowed for the whole operation. {again} "
        "Example: curl -m 30 https://example.com"
    )
    connect, example = _checked(
        source,
        ("A", f"--connect-timeout sets the maximum time allowed for the connection phase. {again}", 2.0),
        ("B", f"{again} Example: curl -m 30 https://example.com", 1.0),
    )
    assert connect.start == 0 and example.start is not None
    shown = [claim_of(g).text for g in groups([connect, example])]
    assert not any("connection phase. If this option" in t and "Example:" in t for t in shown)
    assert all(" ".join(t.split()) in " ".join(source.split()) for t in shown)


def test_a_sentence_ending_an_aside_or_naming_no_default_takes_the_sentence_before() -> None:
    # BIND's manual: "(... the options block. Any that are not set simply take the default value.)" and
    # "Specifies which hosts may make recursive queries. The default is no-auth-recursive."
    text = readable(
        "Options set in a view override those in the options block. (If a view sets some of them, the "
        "rest come from the options block. Any that are not set simply take the default value.)\n\n"
        "The recursion-mode statement specifies which hosts may make recursive queries. The default is "
        "no-auth-recursive."
    )
    quotes = quoted(text)
    assert not any(q.startswith("Any that are not set") for q in quotes)
    assert not any(q.startswith("The default is") for q in quotes)
    assert any(q.endswith("take the default value.)") and "(If a view sets" in q for q in quotes)
    assert any(
        q.startswith("The recursion-mode statement") and q.endswith("no-auth-recursive.") for q in quotes
    )


def test_an_example_is_quoted_whole_or_not_at_all() -> None:
    # BIND's split DNS example (800 characters) was cut at 'view "external" {': read as it stood, another
    # configuration than the manual's.
    def config(views: int) -> str:
        body = "\n".join(
            f'view "v{v}" {{\n      match-clients {{ 10.{v}.0.0/16; }};\n      recursion yes;\n'
            f'      zone "example.com" {{ type primary; file "v{v}.db"; }};\n}};'
            for v in range(views)
        )
        return f"```\n{body}\n```"

    intro = "Here is an example of a typical split DNS setup implemented using view statements:"
    whole = quoted(readable(f"{intro}\n\n{config(6)}"))
    assert any(q.startswith(intro) and q.rstrip().endswith('"v5.db"; };\n};') for q in whole)
    assert not any(q.startswith(intro) for q in quoted(readable(f"{intro}\n\n{config(14)}")))


def test_quotes_that_end_on_the_same_sentence_stay_two_claims() -> None:
    # HAProxy closes many descriptions with "This command is restricted ...": two commands, two claims.
    restricted = 'This command is restricted and can only be issued on sockets configured for level "admin".'
    first = Evidence(
        id="E1",
        chunk_id="c",
        document_id="d",
        quote="Mark the server DOWN for maintenance. In this mode, no more checks will be performed on the "
        f"server until it leaves maintenance, and tracking servers follow it. {restricted}",
        score=4,
    )
    second = Evidence(
        id="E2",
        chunk_id="c",
        document_id="d",
        quote="Dump all known sessions with their addresses, timers and buffers; avoid doing this on slow "
        f"connections as the output can be huge. {restricted}",
        score=3,
    )
    assert len(groups([first, second])) == 2


def test_a_nameless_description_is_not_grouped_under_a_quote_about_another_name() -> None:
    # Apache: the quick reference's "Number of requests allowed on a persistent connection" (the
    # description of MaxKeepAliveRequests) joined the claim "H2MaxSessionStreams limits the number of
    # parallel requests ..." by their shared words, and MaxKeepAliveRequests' record went with it.
    h2 = Evidence(
        id="E1",
        chunk_id="a",
        document_id="mod_http2",
        quote="H2MaxSessionStreams limits the number of parallel requests that a client can make on a HTTP/2 "
        "connection. The default is 100.",
        score=5.0,
    )
    keepalive = Evidence(
        id="E2",
        chunk_id="b",
        document_id="quickreference",
        quote="Number of requests allowed on a persistent connection",
        score=4.0,
    )
    assert [[e.id for e in g.items] for g in groups([h2, keepalive])] == [["E1"], ["E2"]]


def test_a_value_with_its_history_is_no_disagreement() -> None:
    """borg's reference says the checkpoint interval defaults to 30 minutes, its changelog that it went to
    30 minutes from 5: the same value, so the sources agree. (Text written for this test.)"""

    def quoted(doc: str, quote: str, title: str | None = None) -> Evidence:
        return Evidence(
            id=f"E{doc}", chunk_id=f"{doc}-1", document_id=doc, title=title or doc, quote=quote, score=1.0
        )

    manual = quoted(
        "usage", "A checkpoint is written every checkpoint interval; the default interval is 30 minutes."
    )
    history = quoted(
        "changes", "The default checkpoint interval was increased to 30 minutes (was 5 minutes)."
    )
    other = quoted("faq", "The default checkpoint interval is 10 minutes on slow disks.")
    assert not conflicts(groups([manual, history]))
    assert conflicts(groups([manual, other]))
    # Numbers that name things are no values of one measure: HAProxy's deny rule returns "HTTP 403", an
    # error in a Lua action "HTTP 400"; two different answers, no disagreement.
    deny = quoted("configuration", "By default an HTTP 403 error is returned to the client by the deny rule.")
    lua = quoted("lua", "On an error in the action, an HTTP 400 error is returned to the client.")
    assert not conflicts(groups([deny, lua]))
    # Two programs' options are no disagreement: the page's title names its program (GNU Mailutils' imap4d
    # and pop3d, each "-d[number]" with a default of its own).
    imap = quoted(
        "Starting-imap4d",
        "Run in standalone mode. When the number is omitted, it defaults to 20 processes.",
        title="Starting imap4d",
    )
    pop = quoted(
        "Command-line-options",
        "All pop3d command line options: run in standalone mode. When the number is omitted, it defaults to "
        "10 processes.",
        title="Command line options",
    )
    assert not conflicts(groups([imap, pop]))
    assert conflicts(groups([imap, pop.model_copy(update={"quote": pop.quote.replace("pop3d ", "")})]))
    # ... while two publishers' titles name no program: their figures disagree
    market = "of the Freedonian graphene battery market."
    iea = quoted("iea", f"Voltra Energy holds 38 percent {market}", title="Global EV Outlook 2024 | IEA")
    mck = quoted("mck", f"Voltra Energy holds 31 percent {market}", title="McKinsey: battery insights")
    assert conflicts(groups([iea, mck]))
    assert measures("clients send 30 requests per second") == {"requests": {"30"}}
    assert measures("version 3 uses 5 percent") == {"%": {"5"}}
    assert measures("retry an error 3 times, each line 80 characters") == {
        "times": {"3"},
        "characters": {"80"},
    }


def test_a_change_log_answers_after_the_manual_unless_changes_are_asked() -> None:
    """borg's 2015 change log ("create --compression none (default ...)") led the direct answer to "what
    compression does borg use by default" over the reference's "lz4 ... (default)": the passages that say how
    things are come first, unless the request asks what changed."""
    from sleuth.agent.research.history import asks_about_changes, is_history  # noqa: PLC0415
    from sleuth.agent.research.synthesis import summarize  # noqa: PLC0415

    old = Evidence(
        id="E1", chunk_id="c1", document_id="changes", title="Change Log — Borg documentation",
        section_path="Change Log > Version 0.25.0 (2015-08-29) > New features", quote="Compression: none.",
        relevance=5.0,
    )  # fmt: skip
    notes = Evidence(
        id="E2", chunk_id="c2", document_id="notes", title="Release Notes",
        section_path="Release Notes > Notes for BIND 9.18.48 > Bug Fixes", quote="Fix a crash.",
        relevance=4.0,
    )  # fmt: skip
    manual = Evidence(
        id="E3", chunk_id="c3", document_id="usage-create", title="borg create",
        section_path="borg create > options", quote="lz4 is the default.", relevance=3.0,
    )  # fmt: skip
    assert is_history(old) and is_history(notes) and not is_history(manual)
    sqlite = Evidence(
        id="E4", quote="Bug fix: ...", title="Release History Of SQLite",
        section_path="Release History > 2015-01-20 (3.8.8.1)",
    )  # fmt: skip
    assert is_history(sqlite)
    # (a number alone is a section's, not a release's)
    assert not is_history(sqlite.model_copy(update={"title": "", "section_path": "3.8.8.1 Limits"}))
    assert not asks_about_changes("What compression does borg use by default?")
    assert asks_about_changes("What changed in 1.2 when I upgrade from 1.1?")
    assert asks_about_changes("Which changes between Django 3.2 and 4.0 break our code?")
    assert asks_about_changes("Was the default changed in version 3.1?")
    assert not asks_about_changes("What do we have to change in the Flask app itself for the proxy?")
    assert asks_about_changes("When was SQLite 3.8.8.1 released?")
    help_page = manual.model_copy(update={"title": "Docs help", "section_path": "Docs > See version history"})
    assert not is_history(help_page)
    # A form the page itself says is superseded comes after the forms to use (CMake's target_link_libraries).
    said = "The LINK_PUBLIC and LINK_PRIVATE modes are accepted. This signature is for compatibility only."
    legacy = manual.model_copy(update={"quote": said})
    assert is_history(legacy) and not is_history(manual.model_copy(update={"quote": "It is compatible."}))
    # ... and a manual's exercises (GNU Awk's "4.15 Exercises"), not a section that merely names problems.
    assert is_history(manual.model_copy(update={"section_path": "Reading Files > 4.15 Exercises"}))
    assert not is_history(manual.model_copy(update={"section_path": "Troubleshooting > Common problems"}))
    assert is_history(manual.model_copy(update={"section_path": "A.6 History of gawk Features"}))
    assert not is_history(manual.model_copy(update={"section_path": "Paris > History of the city"}))
    evidence = {e.id: e for e in (old, notes, manual)}
    findings = {"key_findings": [Claim(text=e.quote, evidence_ids=[e.id]) for e in evidence.values()]}
    spec = TemplateLibrary().load("brief").section("answer")
    assert [c.evidence_ids[0] for c in summarize(spec, findings, [], evidence, history_last=True)] == [
        "E3",
        "E1",
        "E2",
    ]
    assert summarize(spec, findings, [], evidence)[0].evidence_ids == ["E1"]
    # ... and in a findings section, the change log's claims stand last, the first to spill over into the
    # section that takes the rest (Details).
    from sleuth.agent.research.synthesis import groups, select  # noqa: PLC0415

    scored = [e.model_copy(update={"score": e.relevance}) for e in (old, notes, manual)]
    shown = select(groups(scored), 3, history_last=True)
    assert [g.items[0].id for g in shown] == ["E3", "E1", "E2"]
    assert [g.items[0].id for g in select(groups(scored), 3)] == ["E1", "E2", "E3"]
    # A change log reads at most two of its entries among a section's answers when the request does not ask
    # what changed (Sphinx's ten "Release 1.5.4 ... Bugs fixed — ..." had filled a question's details).
    fixes = (
        "Fixed a crash in the LaTeX writer when tables nest.",
        "The HTML builder no longer drops anchors of footnotes.",
        "Autodoc reads the type hints of properties again.",
        "The linkcheck builder retries on rate limits.",
    )
    entries = [
        old.model_copy(update={"id": f"L{n}", "chunk_id": f"l{n}", "document_id": f"d{n}", "quote": fix})
        for n, fix in enumerate(fixes)
    ]
    shown = select(groups([*entries, scored[2]]), 5, history_last=True)
    assert [g.items[0].id for g in shown] == ["E3", "L0", "L1"]
    assert len(select(groups([*entries, scored[2]]), 5)) == 5


def test_a_change_logs_claim_names_its_release() -> None:
    """Sphinx's change log: "#3195: Can not build in parallel", read alone in a due diligence's findings, is
    a limitation of today's Sphinx; the change log says it was fixed in 1.5.1. Its claim names the release
    and the part of it the quote stands in, and the guards accept those headings as the source's words."""
    from sleuth.agent.research.history import release_of  # noqa: PLC0415
    from sleuth.agent.research.synthesis import claim_of, groups  # noqa: PLC0415

    fixed = Evidence(
        id="E1", chunk_id="c1", document_id="changes", title="Changelog — Sphinx documentation",
        section_path="Changelog > Release 1.5.1 (released Dec 13, 2016) > Bugs fixed",
        quote="#3195: Can not build in parallel", score=1.0,
    )  # fmt: skip
    claim = claim_of(groups([fixed])[0])
    assert (
        claim.text == "Release 1.5.1 (released Dec 13, 2016), Bugs fixed — #3195: Can not build in parallel"
    )
    assert guard_claims([claim], {fixed.id: fixed}, GuardCounts()) == [claim]
    # SQLite's release history: the release's heading alone; a quote that names its release is read as is.
    sqlite = fixed.model_copy(
        update={
            "title": "Release History Of SQLite",
            "section_path": "Release History > 2015-01-20 (3.8.8.1)",
        }
    )
    assert release_of(sqlite) == "2015-01-20 (3.8.8.1)"
    assert release_of(sqlite.model_copy(update={"quote": "Version 3.8.8.1 fixes a bug."})) is None
    # A manual's section with a number in its heading, or a superseded form, is no release.
    manual = fixed.model_copy(update={"title": "Limits", "section_path": "Limits > 3.8 Length of a string"})
    assert release_of(manual) is None
    legacy = manual.model_copy(update={"quote": "This signature is for compatibility only."})
    assert release_of(legacy) is None
    # ... nor a manual's exercises (GNU Awk's "4.15 Exercises").
    assert release_of(manual.model_copy(update={"section_path": "Reading Files > 4.15 Exercises"})) is None


def test_a_quote_that_names_more_is_not_hidden_under_a_short_one() -> None:
    """A central backup server's page: "There is only one ssh key per client allowed." and the forced command
    that restricts each key share "key" and "client"; the second names the options that answer the question
    and is a claim of its own, not a quote hidden under the first. (Text written for this test.)"""

    def quoted(n: int, quote: str, score: float, core: str = "") -> Evidence:
        return Evidence(
            id=f"E{n}", chunk_id="c1", document_id="central-server", title="Central server", quote=quote,
            score=score, core=core,
        )  # fmt: skip

    short = quoted(1, "There is only one ssh key per client allowed. Keys are added for web01.srv.local and "
                   "app01.srv.local.", 3.0, core="There is only one ssh key per client allowed.")  # fmt: skip
    forced = quoted(2, "Every ssh key of a client has a forced command applied:\n\ncommand=\"tool serve "
                    "--restrict-to-path /srv/repos/client\",restrict", 2.0)  # fmt: skip
    again = quoted(3, "Only one ssh key per client is allowed.", 1.0)
    bundles = groups([short, forced, again])
    assert [[e.id for e in g.items] for g in bundles] == [["E1", "E3"], ["E2"]]


def test_history_labels_are_version_labels() -> None:
    """(Review.) "Making changes in a signed zone" and "Notes for Windows users" are no change log; "Which
    version of BIND added catalog zones?" asks what changed, "How do I release a lock?" does not."""
    from sleuth.agent.research.history import asks_about_changes, is_history  # noqa: PLC0415

    def under(path: str) -> Evidence:
        return Evidence(id="E1", chunk_id="c1", document_id="d", quote="Some text.", section_path=path)

    assert not is_history(under("DNSSEC Guide > Making changes in a signed zone"))
    assert not is_history(under("Installation > Notes for Windows users"))
    assert is_history(under("Release Notes > Notes for BIND 9.18.48 > Bug Fixes"))
    assert is_history(under("Change Log > Version 1.2.4 (2023-03-24)"))
    assert asks_about_changes("Which version of BIND added catalog zones?")
    assert not asks_about_changes("How do I release a lock?")


def test_a_leads_quote_is_chosen_by_what_it_says_of_the_request() -> None:
    """A question on the most populous cities of the United States: discovery followed the name "France" a
    quote mentioned ("Capital of France population cities"), and Paris' description answers that lead well
    (score 5.6) and the request not at all (relevance -3.3). Weighed by the lead's score it had taken the key
    findings' place of Houston, which the request's own search found (relevance 3.9). A lead's evidence
    counts by its relevance to the request, a template question's by its score in that question's section
    only; evidence the request's own searches found as before. (Text written for this test.)"""
    from sleuth.agent.research.synthesis import groups, select  # noqa: PLC0415

    houston = Evidence(
        id="E1", chunk_id="c1", document_id="houston", title="Houston", origin="query", score=3.9,
        relevance=3.9, quote="Houston is the fourth-most populous city in the United States, with 2.3 "
        "million residents at the 2020 census.",
    )  # fmt: skip
    paris = Evidence(
        id="E2", chunk_id="c2", document_id="paris", title="Paris", origin="lead", score=5.6, relevance=-3.3,
        question="Capital of France population cities",
        quote="Paris is the capital and largest city of France, with an estimated population of 2.1 million.",
    )  # fmt: skip
    planned = paris.model_copy(update={"id": "E3", "chunk_id": "c3", "document_id": "p", "origin": "plan"})
    assert [g.items[0].id for g in select(groups([houston, paris]), 1)] == ["E1"]
    # A template's question speaks for its own section: the quote's score for "What is unknown, disputed or
    # uncertain about ...?" counts in Open questions, and its relevance elsewhere.
    planned.found_for = ["open_questions"]
    assert [g.items[0].id for g in select(groups([houston, planned], section="open_questions"), 1)] == ["E3"]
    assert [g.items[0].id for g in select(groups([houston, planned], section="key_findings"), 1)] == ["E1"]
    # A constraint's quote answers the background it was found for ("Our manual is maintained in Sphinx,
    # Alabaster theme for the web version": the Alabaster theme's description had led a key findings on PDF
    # output): it counts by its relevance to the request too.
    background = paris.model_copy(update={"id": "E4", "chunk_id": "c4", "origin": "constraint"})
    assert [g.items[0].id for g in select(groups([houston, background], section="key_findings"), 1)] == ["E1"]
    assert [g.items[0].id for g in select(groups([houston, background]), 1)] == ["E1"]
    # ... and its score for the background is no relevance to the request: the judge reads it against the
    # asks (``Citation.directness``) as it reads a lead's.
    text = "Alabaster theme is a modified Sphinx theme."
    hit = Passage(chunk_id="alabaster-0", document_id="theming", title="Theming", text=text, rank=0)
    whole = Window(0, len(text), "sentence")
    told = Question("c1", "Our manual uses Sphinx, Alabaster theme.", ["answer"], origin="constraint")
    asked = Question("a1", "Which LaTeX engine handles Unicode?", ["answer"], origin="ask")
    assert new_evidence(told, hit, readable(text), whole, 1.9).relevance == 0.0
    assert new_evidence(asked, hit, readable(text), whole, 1.9).relevance == 1.9
    # Found by both, it keeps the ask's judged relevance (0.0 is "not judged yet", not a better score).
    ledger = Ledger(50)
    ledger.add(new_evidence(asked, hit, readable(text), whole, -3.0))
    ledger.add(new_evidence(told, hit, readable(text), whole, 1.9))
    (kept,) = list(ledger)
    assert kept.origin == "ask" and kept.relevance == -3.0


def test_an_intro_takes_the_sentences_before_it_back_to_one_that_names_its_thing() -> None:
    """Sphinx's latex_show_urls (its values in the next chunk): the intro took the sentence before it, "This
    is very useful for printed copies of the manual.", which points back in turn; the claim never said what
    the setting does."""
    reader = readable(
        "latex_show_urls\n\nControl whether to display URL addresses. This is very useful for printed "
        "copies of the manual. The setting can have the following values:",
        "- 'no' - do not display URLs (default)\n- 'footnote' - display URLs in footnotes\n- 'inline' - "
        "display URLs inline in parentheses",
    )
    quotes = quoted(reader, split_end=True)
    assert any(q.startswith("Control whether") and q.endswith("inline in parentheses") for q in quotes)
    assert not any(q.startswith("This is very useful") for q in quotes)


def test_a_paragraph_that_leans_on_one_that_leans_back_is_quoted_from_where_the_chain_starts() -> None:
    """Celery's Redis caveat: "So you have to increase the visibility timeout ..." is a paragraph that leans
    on the one before ("This causes problems with ETA/countdown/retry tasks ..."), which leans on the one
    before it. Quoted from "This causes", the claim never said what causes the problem; no window opens
    there now."""
    md = (
        "### Visibility timeout\n\nIf a task isn't acknowledged within the Visibility Timeout the task will "
        "be redelivered to another worker and executed.\n\nThis causes problems with ETA/countdown/retry "
        "tasks where the time to execute exceeds the visibility timeout; in fact if that happens it will be "
        "executed again, and again in a loop.\n\nSo you have to increase the visibility timeout to match the "
        "time of the longest ETA you're planning to use.\n"
    )
    quotes = quoted(readable(md))
    assert not any(q.startswith(("This causes", "So you")) for q in quotes)
    assert any(q.startswith("If a task") and q.endswith("planning to use.") for q in quotes)


def test_a_definitions_line_names_what_its_description_says(encoders: Encoders) -> None:
    """Texinfo's definitions (``@deffn``), as GNU Bison's manual writes them: "Directive: %define lr.type
    type" over a list ("Language(s): all", ..., "Default Value: lalr"), "Macro: YYABORT ;" over "Return
    immediately from yyparse, indicating failure.". The description alone says nothing of whose default or
    which macro (the report had answered "Which macro ...?" with that sentence and no name); the line alone
    says nothing at all."""
    from sleuth.agent.research.claim_names import pointed_at  # noqa: PLC0415
    from sleuth.ingest.term_lines import defined_name, is_term_line  # noqa: PLC0415

    assert defined_name("Macro: YYABORT ;") == "YYABORT ;"
    assert defined_name("Function: int yyparse (void)") == "int yyparse (void)"
    assert defined_name("Builtin: m4wrap (string, …)") == "m4wrap (string, …)"  # GNU m4's
    assert is_term_line("Directive: %define lr.type type")
    for label in ("Note: this is important.", "Step 1: Install it", "Default Value: lalr", "Options: see."):
        assert defined_name(label) is None
    # A category of the manual's own (GNU Mailutils' "Pop3d Conf: login-delay duration" over "Set the minimal
    # allowed delay between two successive logins.": the description had been quoted without its name) ...
    assert defined_name("Pop3d Conf: login-delay duration") == "login-delay duration"
    assert defined_name("Mail command: alias [alias [address...]]") == "alias [alias [address...]]"
    mailutils = readable(
        "Pop3d Conf: login-delay duration\n\nSet the minimal allowed delay between two successive logins. "
        "See Login delay, for more information.\n\nPop3d Conf: stat-file file\n\nName of the statistics file."
    )
    assert quoted(mailutils)[0].startswith("Pop3d Conf: login-delay duration\n\nSet the minimal")
    # ... also in lower case, with the type before the name ("mail: boolean nullbody"); the record's fields
    # between the line and its description ("Default: True") do not hide it from the description's quote.
    from sleuth.agent.research.quotes import term_above  # noqa: PLC0415

    record = readable(
        "mail: boolean nullbody\n\nDefault: True\n\nControls whether mail accepts messages with an empty "
        "body. The default value, true, means such messages are sent."
    )
    cut = windows(record)
    assert [term_above(record, w) for w in cut] == ["mail: boolean nullbody"] * len(cut)
    # (its name is "nullbody", not its type: a description that says "boolean" does not name it)
    typed = readable(
        "mail: boolean nullbody\n\nDefault: True\n\nWhether mail sends an empty body (a boolean)."
    )
    assert [term_above(typed, w) for w in windows(typed)] == ["mail: boolean nullbody"]
    # ... but no record's field nor an aside ("Default: 0", "Type: int", "See also: sqlite3_data_count()"),
    # nor words after a label
    for label in (
        "Default: 0", "Default: 'footnote'", "Type: int", "See also: sqlite3_data_count()",
        "Python: pip install foo", "Me: can you help with the config", "Q: how do I reset it",
        "Data type: string", "Units: seconds", "Homepage: https://mailutils.org",
        "Bug reports: bug-mailutils@gnu.org", "Tutorial: build a blog",
    ):  # fmt: skip
        assert defined_name(label) is None and not is_term_line(label), label
    # A C function's name is the one called, its types left out ("The return value is an int ..." does not
    # name "sleep").
    sleep = readable(
        "Function: unsigned int sleep (unsigned int seconds)\n\nThe sleep function waits.\n\nThe return "
        "value is an int giving the number of seconds remaining."
    )
    assert term_above(sleep, windows(sleep)[-1]) == "Function: unsigned int sleep (unsigned int seconds)"
    # A title set as a paragraph with a colon is no field of a record: it ends the term's reach.
    titled = readable(
        "option redispatch\n\nEnable or disable session redistribution.\n\nAlternative Setup: Using "
        "Keepalived\n\nThe health checks are then run by the VRRP daemon instead."
    )
    assert term_above(titled, windows(titled)[-1]) is None
    listed = (
        "### 3.7.14 %define Summary\n\n**Directive: %define lr.type type**\n\n- Language(s): all\n"
        "- Purpose: Specify the type of parser tables within the LR(1) family.\n"
        "- Accepted Values: `lalr`, `ielr`, `canonical-lr`\n- Default Value: `lalr`\n"
    )
    quotes = quoted(readable(listed))
    assert len(quotes) == 1 and quotes[0].startswith("Directive:")
    assert quotes[0].endswith("Default Value: lalr")
    assert one_line(quotes[0]).startswith("Directive: %define lr.type type — Language(s): all; • Purpose:")
    # A list too long to quote with its line: each item from the line on while that fits, the rest alone.
    history = "- History: " + "Introduced in Bison 2.0 as filename_type, renamed in Bison 3.7. " * 8
    long = readable(listed + history)
    cut = [long.text[w.start : w.end] for w in windows(long)]
    assert [q.startswith("Directive:") for q in cut] == [True, True, True, True, False]
    assert cut[3].endswith("Default Value: lalr") and cut[4].startswith("History:")
    # ... also where the chunker set the line alone at the end of the chunk before the list.
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    admission = admitting(judge, next_chunks={"a": "**Directive: %define lr.type type**"})
    opening = Passage(
        chunk_id="b", document_id="define-summary", title="%define Summary", text=listed.split("**\n\n")[1],
        rank=0, prev_chunk_id="a", section_path="3.7.14 %define Summary",
    )  # fmt: skip
    readers = admission.readers([opening])
    cut = [windows(readers[0])]
    found, mine, _, short = admission.with_antecedents([opening], readers, cut, [list(cut[0])])
    assert [p.chunk_id for p in found] == ["b", "a"]
    assert not any(w.kind == "item" for w in short[0])  # no item alone: whose default?
    (window,) = short[1]
    assert mine[1].text[window.start : window.end] == quotes[0]
    # A definition's line as the heading names the quote's claim, unless the quote names it.
    failure = "Return immediately from yyparse, indicating failure."
    macro = Evidence(id="E1", chunk_id="c", document_id="d", quote=failure, section_path="A > Macro: YYABORT")
    assert pointed_at(macro) == "Macro: YYABORT"
    named = macro.model_copy(update={"quote": "YYABORT makes yyparse return 1 immediately."})
    assert pointed_at(named) is None


def test_a_faq_answer_is_named_by_its_question() -> None:
    # Scrapy's FAQ (unseen): "Yes, by setting DNS_RESOLVER to ..." answered nothing read alone.
    from sleuth.agent.research.claim_names import pointed_at  # noqa: PLC0415

    answer = Evidence(
        id="E1",
        chunk_id="c",
        document_id="faq",
        quote="Yes, by setting DNS_RESOLVER to scrapy.resolver.CachingHostnameResolver.",
        section_path="Frequently Asked Questions > Does Scrapy support IPv6 addresses?",
    )
    assert pointed_at(answer) == "Does Scrapy support IPv6 addresses?"
    # (a heading that asks nothing, or a quote that answers more than yes or no, is no such pair)
    assert pointed_at(answer.model_copy(update={"section_path": "FAQ > Networking options"})) is None
    nothing = answer.model_copy(update={"quote": "Nobody needs IPv6 for crawling."})
    assert pointed_at(nothing) is None
    # A "Yes" further into the answer answers what the sentence before says, not the question: Django's FAQ
    # answers "Is Django a CMS?" with "No, ...", and had been quoted as "Is Django a content-management-system
    # (CMS)? — Yes, Django's automatic admin site is fantastic ...".
    reader = readable(
        "## Is Django a content-management-system (CMS)?\n\nNo, Django is not a CMS, or any sort of turnkey "
        "product in and of itself. Yes, Django's automatic admin site is fantastic and timesaving.\n"
    )
    quotes = [reader.text[w.start : w.end] for w in windows(reader)]
    assert all(q.startswith("No, Django is not a CMS") for q in quotes)
    # ... and where that sentence does not fit, the "Yes" is no quote at all; nor is "No-op" an answer.
    long = readable(
        "## Is Django a content-management-system (CMS)?\n\nNo, Django is not a CMS. "
        + "It is a web framework, a programming tool that lets you build websites of every kind. " * 6
        + "Yes, Django's automatic admin site is fantastic and timesaving.\n"
    )
    assert not any(long.text[w.start : w.end].startswith("Yes") for w in windows(long))
    noop = answer.model_copy(
        update={
            "quote": "No-op handlers are dropped.",
            "section_path": "FAQ > Why is my handler never called?",
        }
    )
    assert pointed_at(noop) is None


def test_a_later_sentence_under_a_synopsis_in_the_chunk_before_is_quoted_from_it(encoders: Encoders) -> None:
    """HAProxy's "http-request deny [ { status | deny_status } <code>] [content-type <type>] [ ... ]* [ { if |
    unless } <condition> ]" ends a chunk; the next opens on its description. Its arguments make it long (no
    term line at twelve words), and only the opening sentence was read from it: "By default an HTTP 403
    error is returned." was quoted alone, and no claim said which rule returns it."""
    synopsis = (
        "http-request deny [ { status | deny_status } <code>] [content-type <type>] [ { default-errorfiles | "
        "errorfile <file> | errorfiles <name> | file <file> | string <str> } ] [ hdr <name> <fmt> ]* "
        "[ { if | unless } <condition> ]"
    )
    assert is_term_line(synopsis)
    assert not is_term_line(
        "where [ ... ] denotes optional arguments and { a | b } denotes a choice between them"
    )
    assert not is_term_line("This is a sentence [with brackets] that goes on and on for many words " * 2)
    # (stored as the converter writes it: a placeholder's brackets escaped)
    before = "The first rule that matches wins.\n\n" + synopsis.replace("<", "&lt;").replace(">", "&gt;")
    opening = (
        "This stops the evaluation of the rules and immediately rejects the request. By default an HTTP 403 "
        "error is returned. But the response may be customized using same syntax than return rules."
    )
    passage = Passage(chunk_id="b", document_id="configuration", title="Configuration", text=opening, rank=0,
                      prev_chunk_id="a")  # fmt: skip
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    admission = admitting(judge, next_chunks={"a": before})
    readers = admission.readers([passage])
    cut = [windows(readers[0])]
    later = [w for w in cut[0] if readers[0].text[w.start : w.end].startswith("By default")]
    found, mine, _, short = admission.with_antecedents([passage], readers, cut, [later])
    assert [p.chunk_id for p in found] == ["b", "a"]
    assert short[0] == []  # the sentence alone is no window any more
    assert len(short[1]) == len(later)
    quote = min((mine[1].text[w.start : w.end] for w in short[1]), key=len)
    assert all(mine[1].text[w.start : w.end].startswith("http-request deny [") for w in short[1])
    assert quote.endswith("By default an HTTP 403 error is returned.")
    assert quote in readable(before, opening).text  # verbatim: what citation checks it against
    assert one_line(quote).startswith(synopsis + " — This stops the evaluation of the rules")
    # A sentence too far from the term to be quoted from it stays a window of its own.
    far = (
        opening + " " + "The rule is evaluated on every request of the connection, one after the other. " * 3
    )
    far += "The deny_status keyword is kept for compatibility."
    long = Passage(chunk_id="b", document_id="configuration", title="Configuration", text=far, rank=0,
                   prev_chunk_id="a")  # fmt: skip
    read = admission.readers([long])
    cut_long = windows(read[0])
    near = [w for w in cut_long if read[0].text[w.start : w.end].startswith("By default")][:1]
    last = [w for w in cut_long if read[0].text[w.start : w.end].startswith("The deny_status")]
    found, _, _, kept = admission.with_antecedents([long], read, [cut_long], [near + last])
    assert near and last and kept[0] == last and len(found) == 2  # (the near one moved, the far one stays)
    # A chunk before that ends on a sentence lends nothing to a later sentence.
    plain = admitting(judge, next_chunks={"a": "The rules run in order."})
    found, _, _, short = plain.with_antecedents([passage], plain.readers([passage]), cut, [later])
    assert [p.chunk_id for p in found] == ["b"] and short == [later]


def test_a_later_paragraph_of_a_description_is_named_by_its_term(encoders: Encoders) -> None:
    """HAProxy's keywords stand on a line of their own over descriptions of several paragraphs, with an
    "Arguments :" list of argument lines between: "When this option is set, a server which returns an HTTP
    code 404 will be excluded from further load-balancing" names no option read alone, and quoted from the
    term on it would be too long to read. The claim names the term; the guards accept the name (the source
    holds it) and reject one the source does not hold."""
    from sleuth.agent.research.quotes import term_above  # noqa: PLC0415

    description = " ".join(["This option checks the servers as they are used, with the settings below."] * 7)
    md = (
        "option http-check disable-on-404\n\n"
        f"{description}\n\n"
        "Arguments :\n\n&lt;table&gt;\n\nis an optional table to use instead.\n\n"
        "When this option is set, a server which returns an HTTP code 404 will be excluded from further "
        "load-balancing, but will still receive persistent connections.\n\n"
        "## 5.2. Server options\n\nWhen set, the weight is ignored."
    )
    reader = readable(md)
    cut = windows(reader)
    later = next(w for w in cut if reader.text[w.start : w.end].startswith("When this option is set"))
    assert term_above(reader, later) == "option http-check disable-on-404"  # (the argument line is skipped)
    # ... not under a heading that comes first, nor where the quote names its term
    heading = next(w for w in cut if reader.text[w.start : w.end].startswith("When set, the weight"))
    assert term_above(reader, heading) is None
    naming = readable(
        "option redispatch\n\nThis option changes what happens on a failed retry.\n\nWith option redispatch, "
        "HAProxy retries."
    )
    assert term_above(naming, windows(naming)[-1]) is None
    # ... nor a label that opens on a word (Apache's "Only available in <Directory> sections"), nor a syntax
    # diagram's box (SQLite's "column-name" over "column-def:")
    label = readable(
        "Only available in &lt;Directory&gt; sections\n\nIt is valid only in sections without regular "
        "expressions.\n\nWhen this directive is set to None, .htaccess files are ignored."
    )
    assert term_above(label, windows(label)[-1]) is None
    diagram = readable(
        "ALTER\n\nTABLE\n\ntable-name\n\nDROP\n\nCOLUMN\n\ncolumn-name\n\ncolumn-def:\n\n"
        "SQLite supports a limited subset of ALTER TABLE."
    )
    assert term_above(diagram, windows(diagram)[-1]) is None
    # A description that ends by introducing its example is one (aspell's options), after its first sentence.
    option = readable(
        "markdown-skip-ref-labels\n\n(boolean) Controls if ref labels are skipped. For example, when this "
        "option is enabled '[ref]' will be skipped over in:\n\n```\n[link][ref]\n```\n\n"
        "Enabled by default (to disable from the command line use '--dont-markdown-skip-ref-labels')."
    )
    assert term_above(option, windows(option)[-1]) == "markdown-skip-ref-labels"
    passage = Passage(chunk_id="c1", document_id="configuration", title="Configuration", text=md, rank=0)
    asked = "How do I stop sending requests to a server that answers 404?"
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    admission = admitting(judge)
    found = admission.candidates(
        Question("q1", asked, ["answer"], origin="query"), [passage], weights(encoders.embed_query(asked)[1])
    )
    item = next(e for e in found if e.quote.startswith("When this option is set"))
    assert item.term == "option http-check disable-on-404"
    claim = claim_of(groups([item])[0])
    assert claim.text.startswith("option http-check disable-on-404 — When this option is set, a server")
    counts = GuardCounts()
    (checked,) = verify_quotes([item], {item.id: reader.text}, counts)
    assert guard_claims([claim], {item.id: checked}, counts)[0].text == claim.text
    # A term the source does not hold is no name: the claim that names it is cut.
    (unheld,) = verify_quotes([item.model_copy(update={"term": "retries 3"})], {item.id: reader.text}, counts)
    assert unheld.term is None
    wrong = claim.model_copy(update={"text": "retries 3 — " + claim.text.split(" — ", 1)[1]})
    assert not guard_claims([wrong], {item.id: unheld}, GuardCounts())


def test_a_step_is_quoted_with_its_command() -> None:
    """Sphinx's translation guide: "2. Extract translatable messages into pot files." over "$ make gettext".
    The step alone says what to do and not how; with its command it answers. An item that is no step of a
    list of steps, or a long one, keeps its own quote."""
    md = (
        "1. Set the locale directory.\n\n2. Extract translatable messages into pot files.\n\n"
        "   ```console\n   $ make gettext\n   ```\n\n"
        "   The generated pot files will be placed in the _build/gettext directory.\n\n"
        "3. Generate po files.\n"
    )
    reader = readable(md)
    step = next(w for w in windows(reader) if reader.text[w.start : w.end].startswith("Extract"))
    assert reader.text[step.start : step.end].endswith("$ make gettext")
    assert "Extract translatable messages into pot files." not in quoted(reader)
    assert one_line(reader.text[step.start : step.end], trailing_code(reader, step)) == (
        "Extract translatable messages into pot files.\n$ make gettext"
    )
    alone = readable(
        "Some text first.\n\n- Extract translatable messages into pot files.\n\n```\n$ make gettext\n```\n"
    )
    assert "Extract translatable messages into pot files." in quoted(alone)
    # ... nor the last item of a list, whatever code follows the list
    listed = readable(
        "- It is fast.\n- It is small and has no dependencies.\n\n```python\nfrom flask import Flask\n```\n"
    )
    assert "It is small and has no dependencies." in quoted(listed)


def test_a_short_intro_of_its_own_is_quoted_with_the_sentence_before_it() -> None:
    """Sphinx's "For BSD/GNU make, run:" is a paragraph of its own under "You need a language parameter in
    conf.py or you may also specify the parameter on the command line.": the command answers, the sentence
    says what it does, and the intro alone says neither."""
    md = (
        "- Build translated document.\n\n  You need a language parameter in conf.py or you may also "
        "specify the "
        "parameter on the command line.\n\n  For BSD/GNU make, run:\n\n  ```console\n"
        "  $ make -e SPHINXOPTS=\"-D language='de'\" html\n  ```\n\n  For Windows cmd.exe, run:\n\n  ```\n"
        "  > set SPHINXOPTS=-D language=de\n  ```\n"
    )
    reader = readable(md)
    intros = [reader.text[w.start : w.end] for w in windows(reader) if w.kind == "intro"]
    assert intros[0].startswith("You need a language parameter") and intros[0].endswith("html")
    # (after code, no sentence to take: the intro and its code)
    assert intros[1].startswith("For Windows cmd.exe, run:")
    # ... also where the sentence before opens the chunk
    first = readable(md.split("\n\n", 1)[1].lstrip())
    assert next(w for w in windows(first) if w.kind == "intro").start == 0


def test_the_code_a_quote_ends_with_is_where_the_source_fenced_it(encoders: Encoders) -> None:
    """GNU Bison's traces: "Finally, the end-of-line allow the parser to complete the computation, and
    display its result." over a program's output. Its lines carry no mark of code, and one of them ends on
    a colon ("Reducing stack by rule 2 (line 35):"): told from the text, the claim joined the output into
    sentences and took that line for the introduction. The Markdown fenced the output; the quote keeps
    where, and the claim and the report's evidence show its lines as lines."""
    md = (
        "Finally, the end-of-line allow the parser to complete the computation, and display its result.\n\n"
        "```\nReading a token\nNext token is token '\\n' ()\nEntering state 22\n"
        "Reducing stack by rule 4 (line 40):\n   $1 = nterm exp (0.000000)\n-> $$ = nterm line ()\n"
        "Stack now 0 1\nReducing stack by rule 2 (line 35):\n   $1 = nterm input ()\nStack now 0\n```\n"
    )
    passage = Passage(chunk_id="c1", document_id="traces", title="Mfcalc Traces", text=md, rank=0)
    asked = "What does the parser print when it reaches the end of the line?"
    question = Question("q1", asked, ["answer"], origin="query")
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    admission = admitting(judge)
    found = admission.candidates(question, [passage], weights(encoders.embed_query(asked)[1]))
    example = next(e for e in found if e.quote.endswith("Stack now 0"))
    assert example.code_at is not None and example.quote[example.code_at :].startswith("Reading a token")
    text = claim_of(groups([example])[0]).text
    head, _, code = text.partition("\n")
    assert (
        head
        == "Finally, the end-of-line allow the parser to complete the computation, and display its result."
    )
    assert code.splitlines()[0] == "Reading a token" and "   $1 = nterm exp (0.000000)" in code.splitlines()
    record = EvidenceRecord(**example.model_dump(include=set(EvidenceRecord.model_fields)))
    assert record.model_dump(mode="json")["code_at"] == example.code_at
    assert "code_at" not in record.model_copy(update={"code_at": None}).model_dump(mode="json")


def test_a_quote_never_opens_on_a_pointer_and_overlapping_quotes_are_one_claim() -> None:
    """GNU Bison's %expect: "... if there is a different number. See Suppressing Conflict Warnings. However,
    we don't recommend the use of %expect ...". "However" leans on what stands before the pointer, and the
    quote takes both along; none opens on "See ...". Two quotes of one passage where one runs on into the
    other by more than a sentence are one claim (both had stood in the direct answer)."""
    md = (
        "To avoid warnings from Bison about predictable, legitimate shift/reduce conflicts, you can use the "
        "%expect n declaration. There will be no warning as long as the number of shift/reduce conflicts is "
        "exactly n, and Bison will report an error if there is a different number. See Suppressing Conflict "
        "Warnings. However, we don't recommend the use of %expect (except '%expect 0'!), as an equal number "
        "of conflicts does not mean that they are the same.\n"
    )
    quotes = quoted(readable(md))
    assert not any(q.startswith("See ") for q in quotes)
    assert any(q.startswith("There will be no warning") and q.endswith("they are the same.") for q in quotes)
    sentences = [
        "To avoid warnings from Bison, you can use the %expect n declaration.",
        "There will be no warning as long as the number of conflicts is exactly n.",
        "See Suppressing Conflict Warnings.",
        "However, we don't recommend %expect, as an equal number does not mean the same conflicts.",
        "When possible, you should rather use precedence directives to fix the conflicts explicitly.",
    ]
    first = Evidence(id="E1", chunk_id="c1", document_id="d", quote=" ".join(sentences[:4]), score=2.0)
    second = Evidence(id="E2", chunk_id="c1", document_id="d", quote=" ".join(sentences[1:]), score=1.0)
    assert len(groups([first, second])) == 1


def test_an_images_file_name_is_no_visible_text() -> None:
    """Texinfo writes an image's file name as its alt text (GNU Bison's ``<img src="figs/example-reduce.svg"
    alt="figs/example-reduce">``): a claim had opened "figs/example-reduce — When unresolved conflicts are
    present ...". An alt text of words stays: it says what the image shows."""
    figure = visible_text("![figs/example-reduce](figs/example-reduce.svg)\n\nWhen conflicts are present.")
    assert figure.text == "When conflicts are present."
    assert visible_text("![logo.png](logo.png)").text == ""
    assert visible_text("![A diagram of the parser](x.svg)").text == "A diagram of the parser"
    # ... nor the caption Docling writes over the image's placeholder, the way GNU Bison's pages convert
    caption = "It could be:\n\nfigs/example-reduce\n\n<!-- image -->\n\nWhen conflicts are present."
    assert visible_text(caption).text == "It could be:\n\nWhen conflicts are present."
    # ... nor an icon's caption of a word or two (Apache's manual ends every section with its "top" arrow:
    # "... could be one of: • aes128 • aes256 top" had been quoted)
    icon = "could be one of:\n\n- aes128\n- aes256\n\ntop\n\n<!-- image -->\n\n## Next"
    assert visible_text(icon).text == "could be one of:\n\n• aes128\n• aes256\n\nNext"
    # ... while a caption of words over an image is the page's text
    # ... nor a block of a word or two that stands over an image: a heading, an item, code, a sentence
    for block in ("## Architecture", "- Install", "    make all", "Yes, definitely."):
        assert visible_text(f"Intro:\n\n{block}\n\n<!-- image -->").text.endswith(block.strip(" #-"))
    figure = "Figure 1: Logical Layout Of Table FruitsForSale\n\n<!-- image -->"
    assert visible_text(figure).text == "Figure 1: Logical Layout Of Table FruitsForSale"


def test_a_links_text_may_nest_brackets_twice() -> None:
    """Apache's quick reference writes a directive's arguments as its link's text: "[*name [param[=value]]*](
    mod_session_crypto.html#sessioncryptodriver)" had been quoted with its target."""
    row = (
        "| [SessionCryptoDriver](mod_session_crypto.html#sessioncryptodriver) "
        "[*name [param[=value]]*](mod_session_crypto.html#sessioncryptodriver) | s |"
    )
    assert visible_text(row).text == "SessionCryptoDriver name [param[=value]] | s"


def test_what_a_review_of_the_new_reaching_back_found() -> None:
    """(Review of this stop's change.) A term line ends a chain of paragraphs that lean back (an API
    reference's "Return type: str" belongs to the entry before); a fragment the chunker cut and a pointer
    open no quote; a lead's score never replaces the score of what another question found; labels with
    words after them are no definitions; an ordered list is one list."""
    from sleuth.agent.research.quotes import list_end  # noqa: PLC0415
    from sleuth.ingest.term_lines import defined_name  # noqa: PLC0415

    api = "get_source(name)\n\nGet the source.\n\nReturn type: str\n\nlist_templates()\n\nIterates over all."
    passage = readable(api)
    assert not any(passage.text[w.start : w.end].startswith("Return type") for w in windows(passage))
    cut = "Timeout the task is redelivered.\n\nThis causes problems in a loop.\n\nSo you have to increase it."
    passage = readable(cut)
    assert not any(passage.text[w.start :].startswith("Timeout") for w in windows(passage, split_start=True))
    pointer = (
        "Bison warns by default. See Suppressing Conflict Warnings.\n\nThis means that the count matters."
    )
    passage = readable(pointer)
    assert not any(passage.text[w.start :].startswith("See ") for w in windows(passage))
    ledger = Ledger(10)
    paris = Evidence(id="E1", chunk_id="c", document_id="paris", quote="Paris is the capital.",
                     origin="query", score=-3.3, relevance=-3.3)  # fmt: skip
    ledger.add(paris)
    ledger.add(paris.model_copy(update={"origin": "lead", "score": 5.6, "relevance": 0.0}))
    merged = ledger.get("E1")
    assert merged is not None and (merged.origin, merged.score) == ("query", -3.3)
    for label in (
        "Return type: str",
        "Type: str",
        "Options: see below",
        "Settings: DEBUG",
        "Option: Required",
    ):
        assert defined_name(label) is None
    steps = readable("1. Configure it.\n2. Build it.\n3. Install it.")
    assert list_end(list(steps.visible.blocks), 0) == len(steps.text)


# SQLite's FAQ (public domain, faq.html as sleuth stores it): each question is a paragraph in bold.
_FAQ_CHUNK = (
    "If you want to make more complex changes in the structure or constraints of a table or its columns, you "
    "will have to recreate it.\n\n"
    "**(12) I deleted a lot of data but the database file did not get any smaller. Is this a bug?**\n\n"
    "No. When you delete information from an SQLite database, the unused disk space is added to an internal "
    '"free-list" and is reused the next time you insert data. The disk space is not lost. But neither is it '
    "returned to the operating system."
)


def test_a_question_in_bold_is_the_title_of_its_answer_and_never_a_quote() -> None:
    passage = readable(_FAQ_CHUNK)
    quoted = [passage.text[w.start : w.end] for w in windows(passage)]
    # "(12) I deleted a lot of data but the database file did not get any smaller." had been a key finding
    # of "How do I shrink the database file after deleting lots of data ...?": the asker's words, not a fact.
    assert not any("(12)" in q or "did not get any smaller" in q for q in quoted)
    assert any(q.startswith("No. When you delete information from an SQLite database") for q in quoted)
    # A term in bold over its description stays the line the description is quoted with.
    term = readable(
        "**SQLITE\\_DEFAULT\\_PAGE\\_SIZE=&lt;bytes&gt;**\n\nThis macro is used to set the default page-size "
        "used when a database is created. The value assigned must be a power of 2."
    )
    blocks = [term.text[b.start : b.end] for b in term.visible.blocks if b.kind == "paragraph"]
    assert blocks[0] == "SQLITE_DEFAULT_PAGE_SIZE=<bytes>"
    # A sentence that only opens in bold is a paragraph like any other.
    opened = readable("**Note:** the default page size is 4096 bytes since version 3.12.0 of SQLite.")
    assert [b.kind for b in opened.visible.blocks] == ["paragraph"]
    # ... and so is a statement all in bold (Django's deployment checklist), and a term that ends in "?"
    stressed = readable("**You must never enable debug in production.**\n\n**$?**\n\nThe newer ones.")
    assert [b.kind for b in stressed.visible.blocks] == ["paragraph", "paragraph", "paragraph"]


def test_a_pages_footer_that_dates_it_is_never_quoted_not_even_with_the_sentence_it_points_back_to() -> None:
    # SQLite's shortnames page (public domain) ends so; "This page ..." points back, and had taken the last
    # sentence along: "... is equivalent to deleting a hot journal. This page last modified on 2011-08-15
    # 23:00:56 UTC" stood among a report's details.
    passage = readable(
        "Using a database file with 8+3 filenames in some cases while in other cases using long filenames is "
        "equivalent to [deleting a hot journal](howtocorrupt.html#delhotjrnl) .\n\n"
        "*This page last modified on* [*2011-08-15 23:00:56*](https://sqlite.org/docsrc/honeypot) *UTC*"
    )
    quoted = [passage.text[w.start : w.end] for w in windows(passage)]
    assert quoted == [
        "Using a database file with 8+3 filenames in some cases while in other cases using long filenames is "
        "equivalent to deleting a hot journal."
    ]
    # ... while a sentence about modification times is one like any other (GNU make's manual).
    make = readable("Last modified times are compared by make to decide whether a target is out of date.")
    assert len(windows(make)) == 1


def test_a_quote_never_opens_on_a_sentence_that_leans_on_one_it_has_no_room_for() -> None:
    # GNU m4's manual (GFDL), Maketemp: the window of the paragraph's last sentence had reached back as far as
    # it fitted and opened "In part, this means that using the same template twice ...", whose "this" is the
    # sentence before, left out. The paragraph's first sentences are quoted by their own windows.
    passage = readable(
        "The traditional behavior, standardized by POSIX, is that `maketemp` merely replaces the trailing"
        " 'X' with the process id, without creating a file or quoting the expansion, and without ensuring"
        " that the resulting string is a unique file name. In part, this means that using the same "
        "`template` twice in the same input file will result in the same expansion. This behavior is a "
        "security hole, as it is very easy for another process to guess the name that will be generated, "
        "and thus interfere with a subsequent use of `syscmd` trying to manipulate that file name. Hence,"
        " POSIX has recommended that all new implementations of `m4` provide the secure `mkstemp` "
        "builtin, and that users of `m4` check for its existence."
    )
    quoted = [passage.text[w.start : w.end] for w in windows(passage)]
    assert quoted and all(q.startswith("The traditional behavior") for q in quoted)
    assert any("This behavior is a security hole" in q for q in quoted)


def test_an_ask_none_of_its_judged_pieces_answers_is_judged_against_every_citable_piece(
    encoders: Encoders,
) -> None:
    """A long request's asks are judged against the most direct pieces only; before a report says an ask has
    no answer, every piece it may cite is judged for that ask (aspell's command table answered "how do we
    change a configuration option inside a running pipe session" from the details, unjudged)."""
    request = understand(
        "We embed aspell in our editor through its pipe mode and want to document the integration.\n\n"
        "How do we add a word to the personal dictionary from the pipe? Is there a way to change a "
        "configuration option inside a running pipe session without restarting the process?"
    )
    asks = request.asks
    assert len(asks) == 2
    table = (
        "Aspell currently supports the following commands: cs option,value | Change a configuration option; "
        "cr option | Prints the value of a configuration option."
    )
    items = [
        Evidence(id="E1", chunk_id="c1", document_id="pipe", title="Through A Pipe", quote=(
            "A line starting with '*' tells Aspell to insert the word into the personal dictionary."
        ), question=asks[0], relevance=3.0),
        Evidence(id="E2", chunk_id="c2", document_id="pipe", title="Through A Pipe", quote=(
            "Aspell can also be used in terse mode, where it prints no line for correct words."
        ), relevance=1.0),
        Evidence(id="E3", chunk_id="c3", document_id="pipe", title="Through A Pipe", quote=table,
                 relevance=-5.0),
    ]  # fmt: skip
    judge = QuoteJudge(encoders.sparse_token_ids, encoders.rerank)
    citation = Citation(request, sources=[], judge=judge.judge)
    few = citation.answers_to(asks, items, judged=1)  # the most direct one besides its own search's
    assert "E3" not in few[asks[1]]
    floor = ResearchOptions().topic_floor
    assert max(few[asks[1]].values()) < floor  # as judged so far, nothing answers the second ask
    full = citation.answers_in_full(asks, few, items, floor=floor)
    assert full[asks[1]]["E3"] >= floor and max(full[asks[1]], key=full[asks[1]].__getitem__) == "E3"
    assert full[asks[0]] == few[asks[0]]  # an ask answered already is not judged again
    before = judge.pairs
    assert citation.answers_in_full(asks, full, items, floor=floor) == full and judge.pairs == before


def test_an_intro_that_names_nothing_takes_the_sentence_before_with_its_whole_example() -> None:
    """Scrapy's manual (unseen): "Here's an example spider which uses it:" stood alone over its spider, the
    sentence that says what "it" is left out for want of room; "Usage examples:" names nothing."""
    spider = "\n".join(f"    value_{n} = response.css('div.item-{n}::text').get()" for n in range(8))
    text = (
        "When scraping, you'll want these fields to be automatically pre-populated and only override a "
        "couple of them, such as the user name and password. You can use the `FormRequest.from_response()` "
        "method for this job. Here's an example spider which uses it:\n\n"
        "```\nimport scrapy\n\nclass LoginSpider(scrapy.Spider):\n"
        f"    def parse(self, response):\n{spider}\n```\n"
    )
    reader = readable(text)
    intros = [reader.text[w.start : w.end] for w in windows(reader) if w.kind == "intro"]
    assert [i.split("\n")[0] for i in intros] == [
        "You can use the FormRequest.from_response() method for this job. "
        "Here's an example spider which uses it:"
    ]
    assert intros[0].rstrip().endswith("value_7 = response.css('div.item-7::text').get()")
    reader = readable(
        "The check command runs contract checks.\n\nUsage examples:\n\n```\n$ scrapy check -l\n```\n"
    )
    intros = [reader.text[w.start : w.end] for w in windows(reader) if w.kind == "intro"]
    assert intros == ["The check command runs contract checks.\n\nUsage examples:\n$ scrapy check -l"]


def test_a_numbered_list_after_its_lead_in_and_items_that_run_on() -> None:
    """Scrapy's manual (unseen): "2. ~/.config/scrapy.cfg ... for global (user-wide) settings, and" was quoted
    alone; the lead-in's window had stopped at the first item, the next one's number between them."""
    text = (
        "Scrapy will look for configuration parameters in ini-style scrapy.cfg files in these locations:\n\n"
        "1. /etc/scrapy.cfg or c:\\scrapy\\scrapy.cfg (system-wide),\n"
        "2. ~/.config/scrapy.cfg ($XDG_CONFIG_HOME) and ~/.scrapy.cfg ($HOME) for global settings, and\n"
        "3. scrapy.cfg inside a Scrapy project's root (see next section).\n"
    )
    reader = readable(text)
    quotes = [(w.kind, reader.text[w.start : w.end]) for w in windows(reader)]
    assert quotes[0][0] == "intro" and quotes[0][1].endswith("(see next section).")
    assert not any(q.rstrip().endswith((",", "and")) for _, q in quotes)
    # Without a lead-in that holds them, an item that runs on is quoted through the item ending its sentence.
    reader = readable(
        "The files are merged in this order.\n\n- the system-wide file,\n- the user's own file, and\n"
        "- the project's file, which wins.\n"
    )
    items = [reader.text[w.start : w.end] for w in windows(reader) if w.kind == "item"]
    assert items[0] == "the system-wide file,\n• the user's own file, and\n• the project's file, which wins."
    assert all(i.endswith("which wins.") for i in items)


def test_a_later_sentence_of_a_record_is_quoted_from_its_heading() -> None:
    """Scrapy's settings (unseen): "If zero (or non set), spiders won't be closed by timeout." had been
    CLOSESPIDER_TIMEOUT's answer to "which setting ends the job after a number of seconds", its default and
    what it does left out."""
    reader = readable(
        "#### CLOSESPIDER_TIMEOUT\n\nDefault: `0`\n\nAn integer which specifies a number of seconds. If the "
        "spider remains open for more than that number of seconds, it will be automatically closed with the "
        "reason `closespider_timeout`. If zero (or non set), spiders won't be closed by timeout.\n"
    )
    quotes = [reader.text[w.start : w.end] for w in windows(reader)]
    last = next(q for q in quotes if q.endswith("won't be closed by timeout."))
    assert last.startswith("CLOSESPIDER_TIMEOUT\n\nDefault: 0\n\nAn integer")
