"""The names a question is about, and whether the passages found mention them (agent/research/names.py)."""

from __future__ import annotations

from sleuth.agent.research.names import asked_names, mentioned
from sleuth.agent.research.text import named_things


def test_the_names_a_question_is_about() -> None:
    assert asked_names("How do I configure Mercurial changegroup hooks in hgrc?") == ["Mercurial"]
    assert asked_names("What does the L flag do in a RewriteRule?") == ["RewriteRule"]
    # what the question does without is no topic of it (the corpus need not mention it)
    assert asked_names("How do I drain a server at runtime without editing haproxy.cfg?") == []
    assert asked_names("How do I rotate logs with Logrotate instead of using Cron?") == ["Logrotate"]
    assert asked_names("How do I deploy without downtime on Kubernetes?") == ["Kubernetes"]
    assert asked_names("What does Celery do except when RabbitMQ is down?") == ["Celery", "RabbitMQ"]
    assert asked_names("How do I enable HTTP/2 on my server?") == ["HTTP/2"]
    # A name joined to a plain word is the name: libtasn1's manual writes "DER encoding", never
    # "DER-encoded"; a name whose parts are all names stays whole.
    assert asked_names("How do I decode a DER-encoded certificate with a Python-based tool?") == [
        "DER",
        "Python",
    ]
    assert asked_names("Does it set X-Forwarded-For and the Content-Type?") == [
        "X-Forwarded-For",
        "Content-Type",
    ]
    assert asked_names("What is the default of gc.auto and max_connections in FTS5?") == [
        "gc.auto",
        "max_connections",
        "FTS5",
    ]
    # A possessive is its name; a sentence's first word, "I", numbers and single letters are none.
    assert asked_names("Who founded the 5 most valuable brands according to Kantar's ranking?") == ["Kantar"]
    assert asked_names("Can I add a computed column? Which one is faster?") == []
    assert asked_names("Which US athletes won the most Olympic medals?") == ["Olympic"]
    # "of the" joins a name's parts: the wonders are not asked about "World" ("World constructed").
    assert named_things("When were each of the New Seven Wonders of the World constructed?") == [
        "New Seven Wonders of the World"
    ]
    assert named_things("The Statue of Liberty stands in the United States of America.") == [
        "Statue of Liberty",
        "United States of America",
    ]
    assert named_things("Instead of the Exim daemon, run inetd.") == ["Exim"]
    # An abbreviation is no name; a quoted or bracketed sentence opening is still an opening.
    assert asked_names('Which options, e.g. the -u flag, stash files? "Configure hooks" in Mercurial?') == [
        "Mercurial"
    ]
    # ... and a name in lower case keeps its parts (package names)
    assert asked_names("Do I need python3-dev or log4j-core with Ruby-on-rails?") == [
        "python3-dev",
        "log4j-core",
        "Ruby",
    ]


def test_a_name_is_mentioned_in_any_case_and_number() -> None:
    texts = ["Each senator serves six years.", "The gc.auto setting defaults to 6700.", "the user ID"]
    assert mentioned(["Senators", "GC.AUTO", "Kantar", "IDs"], texts) == {"Senators", "GC.AUTO", "IDs"}
    # A name is a whole word: "Kant" is not mentioned by "Kantar", nor "RewriteRule" by "RewriteRules".
    found = mentioned(["Kant", "RewriteRule"], ["Kantar ranks brands.", "RewriteRules are read in order."])
    assert found == set()


def test_an_attribute_is_mentioned_by_its_own_name_in_code() -> None:
    """Flask's reference names "remote_addr" under the request object; "request.remote_addr" is mentioned
    there. A plain word is no such name: "auto" does not mention "gc.auto"."""
    assert mentioned(["request.remote_addr"], ["remote_addr — The address of the client."]) == {
        "request.remote_addr"
    }
    assert mentioned(["gc.auto"], ["Set it to auto to let git decide."]) == set()
