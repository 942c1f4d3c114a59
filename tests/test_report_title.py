"""A report's title: a question titles itself; a ticket of several paragraphs is titled by its first ask
that reads alone, and shown whole, quoted, under the title (report.md, the desk, the Word export)."""

from __future__ import annotations

import io

from docx import Document

from sleuth.agent import is_title, render_markdown, title
from sleuth.agent.api.desk.export import docx_bytes
from sleuth.agent.api.desk.view import build
from tests.reports import report_of

TICKET = """Hi team,

We run Django 3.2 behind nginx and our static files come back 404 in production since the last deploy.
DEBUG is False.
Which setting tells Django where collectstatic copies the files, and does it serve them itself?
Can that be done without a CDN?

Thanks a lot, this would really help us.
"""


def test_a_question_is_its_own_title() -> None:
    assert is_title("What is the default value of gc.auto?")
    assert title("What is the default value of gc.auto?") == "What is the default value of gc.auto?"


def test_a_ticket_is_titled_by_its_first_ask_that_reads_alone() -> None:
    assert not is_title(TICKET)
    assert title(TICKET) == (
        "Which setting tells Django where collectstatic copies the files, and does it serve them itself?"
    )
    # No ask at all: the first sentence that is no greeting, cut at a word under the title length.
    statement = "Hello,\n\n" + "We run a very large fleet of Django services behind nginx on many hosts " * 3
    assert title(statement).startswith("We run a very large fleet")
    assert title(statement).endswith(" …") and len(title(statement)) <= 122
    # The role given to the assistant is no part of the title.
    roled = (
        "Our company wants to scan incoming mail for viruses at SMTP time.\n\nAs a mail security engineer, "
        "please explain how Exim's built-in content scanning calls clamd."
    )
    assert title(roled) == "Please explain how Exim's built-in content scanning calls clamd."


def test_report_md_and_the_word_export_title_a_ticket_and_quote_it_whole() -> None:
    md = render_markdown(report_of(query=TICKET))
    lines = md.splitlines()
    assert lines[0] == f"# {title(TICKET)}"
    asked = "Which setting tells Django where collectstatic copies the files, and does it serve them itself?"
    assert f"> {asked}" in lines
    doc = Document(io.BytesIO(docx_bytes(build(report_of(query=TICKET)))))
    texts = [p.text for p in doc.paragraphs]
    assert texts[0] == title(TICKET)
    assert "Can that be done without a CDN?" in texts


def test_a_lead_in_to_a_list_of_questions_is_no_title() -> None:
    request = (
        "Hello,\n\nwe maintain a C tool that reads configuration files with a flex scanner.\n\n"
        "What I need to understand:\n- How do I make the scanner read included files?\n"
        "- How do I go back to the including file at end of file?\n\nThanks!"
    )
    assert title(request) == "How do I make the scanner read included files?"
    # ... nor a count of the questions to come
    counted = (
        "Our pytest suite has grown to about 2,500 tests.\n\nWe would like to understand three things from "
        "the official pytest documentation. First, how can we select only a subset of tests? Second, how "
        "do we register our own markers?"
    )
    assert title(counted) == "How can we select only a subset of tests?"
    following = (
        "We plan to run aspell as a subprocess.\n\nWe need to know the following. (1) Which command starts "
        "aspell in pipe mode? (2) How do we add a word to the personal dictionary?"
    )
    assert title(following) == "Which command starts aspell in pipe mode?"
    # ... where asks follow it: asked alone, it is the request's ask and its title
    alone = "We run pytest on a large suite.\n\nWe would like to understand three things about fixtures."
    assert title(alone) == "We would like to understand three things about fixtures."


def test_what_only_leads_into_an_ask_is_no_part_of_its_title() -> None:
    # Real openings of long requests (judged sets of m4, Bison, CMake and Celery): an ordinal, a label
    # ending in a colon, a list number.
    request = (
        "We generate our build files with m4 and every run re-reads the same frozen set of macros.\n\n"
        "First, what are the exact command-line options to write such a snapshot once and to load it later?"
    )
    asked = "What are the exact command-line options to write such a snapshot once and to load it later?"
    assert title(request) == asked
    numbered = (
        "Our event loop hands us tokens one at a time.\n\nConcretely: (1) what declaration makes Bison "
        "generate a push parser, and (2) which function do we call for each token?"
    )
    assert title(numbered) == "What declaration makes Bison generate a push parser …"  # the first item
    # A name before a colon is the subject, not a lead-in; a label that leaves no sentence stays.
    named = "We have run Exim for years.\n\nExim: how do I configure the retry rules for one dead domain?"
    assert title(named) == "Exim: how do I configure the retry rules for one dead domain?"
    short = "We run a small team.\n\nQuestions: which one wins?"
    assert title(short) == "Questions: which one wins?"
    # A request for what follows its colon is titled by what follows (Django's long requests); one that asks
    # something itself before the colon keeps it.
    guide = (
        "Team lead here. We are 7 developers on one Django project.\n\nCould you write a guide for the team "
        "as a senior Django developer: how to resolve migration conflicts after merges?"
    )
    assert title(guide) == "How to resolve migration conflicts after merges?"
    asks = "We handle uploads.\n\nCould you explain how Django processes file uploads: when is one kept?"
    assert title(asks) == "Could you explain how Django processes file uploads: when is one kept?"


def test_a_subject_before_a_colon_an_inline_choice_and_a_command_stay_as_written() -> None:
    """(Review.) What a label only leads into is dropped, never the subject, the ask or a command's case."""
    context = "We run a small team.\n\n"
    for ask in (
        "Apache httpd: how do I make mod_ssl require client certificates for one directory?",
        "Celery beat: why does it schedule every periodic task twice after a restart?",
        "Explain the difference between Redis and RabbitMQ as Celery brokers: we run 10k tasks per second.",
    ):
        assert title(context + ask) == ask
    choice = "First, should I choose (a) Redis or (b) RabbitMQ as the Celery broker here?"
    assert title(context + choice) == "Should I choose (a) Redis or (b) RabbitMQ as the Celery broker here?"
    npm = "First, npm install fails on the runner: why?"
    assert title(context + npm) == "npm install fails on the runner: why?"
