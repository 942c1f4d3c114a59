"""What a request rules out is read from its directives, never searched, and never cited."""

from __future__ import annotations

import pytest

from sleuth.agent.report import title
from sleuth.agent.research.exclusions import (
    Exclusions,
    excluded_things,
    not_asked_about,
    remainder,
    ruled_out,
)
from sleuth.agent.research.request import classify, understand, without_pages_wanted


@pytest.mark.parametrize(
    ("sentence", "things", "rest"),
    [
        (
            "We do not want any external authentication daemon: don't suggest Cyrus SASL, Dovecot or "
            "GNU SASL authenticators; everything should be done with Exim's own plaintext authenticator.",
            ["Cyrus SASL", "Dovecot", "GNU SASL authenticators"],
            "We do not want any external authentication daemon; everything should be done with Exim's own "
            "plaintext authenticator.",
        ),
        # Verbs and articles before a thing are no part of it.
        (
            "Constraints: don't tell me to change DNS, add backup MX records or route through a smarthost.",
            ["DNS", "backup MX records", "smarthost"],
            "Constraints.",
        ),
        (
            "I do not want a solution that pipes messages through an external program: don't suggest "
            "procmail, a pipe transport, or a milter.",
            ["procmail", "pipe transport", "milter"],
            "I do not want a solution that pipes messages through an external program.",
        ),
        # Why it is ruled out, and a clause after a comma, are no things.
        ("We cannot use MySQL or Oracle because of licensing.", ["MySQL", "Oracle"], ""),
        ("Please do not recommend compctl, it is deprecated.", ["compctl"], "It is deprecated."),
        # A version's dot ends nothing; the list ends at what is no thing, and the rest is asked.
        ("We can't use Exim 4.97 features.", ["Exim 4.97 features"], ""),
        (
            "Don't suggest Dovecot, explain how to configure the plaintext authenticator.",
            ["Dovecot"],
            "Explain how to configure the plaintext authenticator.",
        ),
        # A verb's -ing form opens an action; how or where ("by hand or from cron") is no part of the thing;
        # a spaced dash ends the directive's clause; an aside in brackets is no item of the list.
        (
            "Please do not propose running dnssec-keygen and dnssec-signzone by hand or from cron - we have "
            "been bitten by expired signatures before.",
            ["dnssec-keygen", "dnssec-signzone"],
            "We have been bitten by expired signatures before.",
        ),
        (
            "Constraints: do not suggest turning recursion off - our customers depend on these servers.",
            ["turning recursion off"],
            "Constraints: our customers depend on these servers.",
        ),
        ("Please do not suggest Unbound (a separate resolver) or dnsdist.", ["Unbound", "dnsdist"], ""),
        # ... but a bracket the directive does not close ends it; a verb and its object are the rest.
        (
            "We have one server (please don't suggest a second one) and need views.",
            ["second one"],
            "We have one server and need views.",
        ),
        (
            "Don't suggest Dovecot (we tried it) and explain the plaintext authenticator.",
            ["Dovecot"],
            "(we tried it) and explain the plaintext authenticator.",
        ),
        # A "how" of a few words after a thing acted on is cut; a longer one, a thing's own words, and the
        # -ing forms of verbs that take a thing away or of nouns stay.
        ("Do not suggest running BIND in a container.", ["BIND in a container"], ""),
        ("Don't suggest Postfix on Windows.", ["Postfix on Windows"], ""),
        # ... but where or for what it is ruled out is no part of the thing.
        ("We can not use Kafka in production.", ["Kafka"], ""),
        ("Do not suggest disabling DNSSEC validation.", ["disabling DNSSEC validation"], ""),
        ("Don't suggest string matching or caching resolvers.", ["string matching", "caching resolvers"], ""),
        # A thing ruled out after it is named (the clause's subject; "that" is the name before it, and what
        # the sentence says of it is not asked), and "not interested in"; what is wanted ends a list.
        ("Writing a custom converter is out of scope for now.", ["custom converter"], ""),
        (
            "We run rsyslog on these boxes, so please skip RELP; UDP is also not an option for us.",
            ["RELP", "UDP"],
            "We run rsyslog on these boxes.",
        ),
        (
            "A colleague thinks we should move everything to Kafka next year, but that is not relevant now.",
            ["Kafka"],
            "",
        ),
        # ... only the clause that names it: another clause before a semicolon is still asked.
        (
            "We run Flask on Debian; a colleague wants Kafka next year, but that is not relevant right now.",
            ["Kafka"],
            "We run Flask on Debian.",
        ),
        ("Also not interested in compression tuning; CPU is cheap.", ["compression tuning"], "CPU is cheap."),
        ("We are not interested in Windows, only Linux.", ["Windows"], "Only Linux."),
        (
            "Don't suggest RELP - our network team has blocked it and it is out of scope.",
            ["RELP"],
            "Our network team has blocked it and it is out of scope.",
        ),
        ("Is caching out of scope?", [], "Is caching out of scope?"),
        # "Leave X out" (a kind of advice named by the thing is the thing), "we don't need X" (not "need
        # to"), and "them"/"it" after what the clause looked at or named: none of that clause is asked.
        (
            "We are not moving to RabbitMQ, so please leave RabbitMQ-specific advice out.",
            ["RabbitMQ"],
            "We are not moving to RabbitMQ.",
        ),
        ("We don't need solar (sunrise/sunset) schedules.", ["solar schedules"], ""),
        ("We don't need to keep old results.", [], "We don't need to keep old results."),
        ("We have looked at message priorities and do not want to use them.", ["message priorities"], ""),
        (
            "We run Flask; we tried Redis Sentinel but do not want to use it.",
            ["Redis Sentinel"],
            "We run Flask.",
        ),
        ("How do I leave a node out of the cluster?", [], "How do I leave a node out of the cluster?"),
        # Conditions on the answer, questions and descriptions rule nothing out; nor do names too short to
        # tell from ordinary words.
        ("How do I avoid data loss without downtime?", [], "How do I avoid data loss without downtime?"),
        ("I don't want to lose any data.", [], "I don't want to lose any data."),
        ("Why does git never use my SSH key?", [], "Why does git never use my SSH key?"),
        ("We never use transactions explicitly.", [], "We never use transactions explicitly."),
        ("Don't recommend C or Go.", [], "Don't recommend C or Go."),
        # A kind of thing from outside is ruled out by a bare "no", and is said of each thing of its list;
        # when ("this quarter") and where ("on these boxes") are no part of a thing; a word for any kind of
        # thing ("software") is ruled out alone by nothing.
        (
            "Please stick to what ships with Sphinx itself, no third-party themes or plugins, and tell me "
            "which pages to read.",
            ["third-party themes", "third-party plugins"],
            "Please stick to what ships with Sphinx itself, and tell me which pages to read.",
        ),
        ("We cannot add third-party plugins this quarter.", ["third-party plugins"], ""),
        ("We cannot install RELP on these boxes.", ["RELP"], ""),
        (
            "The repository is hosted elsewhere, so we cannot install any server-side hooks or software; "
            "everything runs on laptops.",
            ["server-side hooks"],
            "The repository is hosted elsewhere; everything runs on laptops.",
        ),
        # ... but a bare "no" elsewhere asks for an outcome, "extra" and "additional" too; an ask after the
        # things ends them, a name that opens with an ask's verb does not; "the API" is a thing's own words.
        (
            "We migrate by Friday, no extra downtime, and keep the old keys.",
            [],
            "We migrate by Friday, no extra downtime, and keep the old keys.",
        ),
        ("Don't suggest list comprehensions.", ["list comprehensions"], ""),
        ("Please don't recommend Help Scout or Zendesk.", ["Help Scout", "Zendesk"], ""),
        ("Don't recommend authentication with the API.", ["authentication with the API"], ""),
        ("We cannot add Redis this quarter or next year.", ["Redis"], ""),
        ("I think so, but please don't suggest Redis.", ["Redis"], "I think so."),
        (
            "We want prev/next links, and no tiny last page with one book on it.",
            [],
            "We want prev/next links, and no tiny last page with one book on it.",
        ),
        ("It must run with no downtime.", [], "It must run with no downtime."),
        # A spaced dash opens a clause as a comma does.
        (
            "We must keep our servers - do not suggest Varnish or nginx.",
            ["Varnish", "nginx"],
            "We must keep our servers.",
        ),
    ],
)
def test_what_a_sentence_rules_out(sentence: str, things: list[str], rest: str) -> None:
    assert excluded_things(sentence) == things
    assert remainder(sentence) == rest


def test_evidence_names_a_thing_ruled_out_in_any_form() -> None:
    ruled = Exclusions(["Cyrus SASL", "Dovecot", "GNU SASL authenticators", "pipe transport"])
    assert ruled.named_in("The cyrus_sasl authenticator") == "Cyrus SASL"  # a name in code
    assert ruled.named_in("dovecot_plain: driver = dovecot") == "Dovecot"
    assert ruled.named_in("It links against GNU SASL.") == "GNU SASL authenticators"  # without its head noun
    assert ruled.named_in("Two pipe transports are defined.") == "pipe transport"  # the plural
    assert ruled.named_in("A transport that pipes.", None, "Transports") is None  # words apart are no name
    assert Exclusions(["Windows"]).named_in("Each window opens a new window.") is None  # a name as written
    assert not Exclusions([])


def test_a_request_that_rules_things_out_searches_the_rest() -> None:
    request = understand(
        "I run the mail relay for a small office on Exim 4.\n\nWe do not want any external daemon: don't "
        "suggest Cyrus SASL or Dovecot; everything should be done with Exim's own plaintext authenticator."
        "\n\nHow do I configure the PLAIN mechanism? How do I advertise AUTH only over TLS?"
    )
    assert request.excluded == ["Cyrus SASL", "Dovecot"]
    searched = " ".join(request.searches)
    assert "Dovecot" not in searched and "Cyrus" not in searched
    assert any("plaintext authenticator" in c for c in request.constraints)
    # "don't suggest" asks for nothing: the sentence is a constraint, and never the report's title.
    assert classify("Don't suggest Cyrus SASL or Dovecot.") == "constraint"
    # ... nor does a verb of asking told not to be done where what it rules out is no name (an action): the
    # sentence is a constraint, never an ask of the request with nothing to answer it; asked, it asks.
    for told in (
        "Constraint: the backend servers must stay plain HTTP - do not suggest re-encrypting traffic to the "
        "servers or enabling SSL on server lines.",
        "Please don't suggest editing the queue files by hand or restarting the server; we can't take "
        "downtime during school hours.",
    ):
        assert classify(told) == "constraint"
    assert classify("Please suggest a way to drain the queue, and recommend a setting.") == "ask"
    # ... nor does "no need to cover": what it names is left out.
    assert excluded_things("No need to cover JSON bodies.") == ["JSON bodies"]
    assert excluded_things("Please don't go into the Celery setup.") == ["Celery setup"]
    ticket = (
        "We do not want any external authentication daemon: don't suggest Cyrus SASL, Dovecot or GNU SASL "
        "authenticators.\n\nHow do I configure the PLAIN mechanism with the plaintext authenticator?"
    )
    assert title(ticket) == "How do I configure the PLAIN mechanism with the plaintext authenticator?"
    # A request for the pages to read asks the corpus nothing (the report cites its pages): not searched.
    pages = understand(
        "We document a Python library with Sphinx and use Google-style docstrings.\n\nWhich extension pulls "
        "documentation out of docstrings? Please stick to what ships with Sphinx itself, no third-party "
        "themes or plugins, and tell me which pages of the manual to read."
    )
    assert pages.asks == ["Which extension pulls documentation out of docstrings?"]
    assert pages.constraints[-1] == "Please stick to what ships with Sphinx itself."
    assert pages.excluded == ["third-party themes", "third-party plugins"]
    # "list" after a word that makes it a noun asks nothing ("a broad cipher list"); as a verb it asks.
    assert classify("It still accepts old protocol versions and a broad cipher list.") != "ask"
    assert classify("Can you list the ciphers it accepts?") == "ask"
    assert classify("Please also list the default values of each timeout.") == "ask"
    assert classify("The footer does not stick to the bottom of the page.") == "context"
    for asked in ("Tell me which part of the TLS handshake fails.", "Tell me what page size SQLite uses."):
        assert without_pages_wanted(asked) == asked
    named = "Please point me to the relevant directives and macros."
    assert without_pages_wanted(named) == named
    # A short question is searched without what it rules out, too.
    short = understand("How do I configure completion in zsh? Please don't suggest compctl.")
    assert short.asks == ["How do I configure completion in zsh?"] and short.excluded == ["compctl"]


def test_evidence_is_about_a_thing_ruled_out_or_names_it_in_passing() -> None:
    ruled = Exclusions(["Dovecot", "nuclear power", "pipe transport"])
    assert ruled.about("It looks up the password.", heading="The dovecot authenticator") == "Dovecot"
    assert ruled.about("dovecot_plain: driver = dovecot") == "Dovecot"  # twice
    assert ruled.about("The Dovecot configuration to match the above looks like this.") == "Dovecot"
    assert ruled.about("Any local delivery agent can be run this way.", title="The pipe transport") == (
        "pipe transport"
    )
    passing = (
        "Hydropower supplies 15% of the world's electricity, more than all renewables and nuclear power."
    )
    assert ruled.about(passing, heading="Hydroelectricity") is None
    # A title that names the thing among others is about the move, not the thing.
    mysql = Exclusions(["MySQL"])
    assert mysql.about("We migrate the data.", title="Migrating from MySQL to PostgreSQL") is None
    assert mysql.about("It stores rows.", heading="Databases > The MySQL backend") == "MySQL"
    # ... but the request's own subject beside the thing is no other thing: a request about HAProxy that
    # rules out Lua scripts rules out the page "How Lua runs in HAProxy".
    lua = Exclusions(ruled_out("Don't suggest Lua scripts."), subject="HAProxy two client counter HTTP")
    said = "For HTTP streams, HAProxy assumes a response was already sent. From the Lua actions point of view"
    assert lua.about(said) is None and lua.about(said, title="How Lua runs in HAProxy") == "Lua scripts"
    assert Exclusions(["Lua scripts"]).about(said, title="How Lua runs in HAProxy") is None
    # An action ruled out ("don't tell me to change DNS") rules out what opens with it, not a chapter on DNS.
    action = Exclusions(ruled_out("Don't tell me to change DNS."))
    assert action.about("The lookup is done by the dnslookup router.", heading="DNS lookups") is None
    assert action.about("DNS records can be changed at the registrar.") == "DNS"
    # Two things ruled out, each named once in a quote, are what it is about.
    tools = Exclusions(ruled_out("Please do not propose running dnssec-keygen and dnssec-signzone by hand."))
    manual = "With the manual method you first create keys using the tools dnssec-keygen and dnssec-signzone."
    assert manual.index("dnssec-keygen") > 40 and tools.about(manual)
    assert tools.about("Keys for a zone can be created ahead of time with dnssec-keygen if need be.") is None
    # An example that runs it is about it, whatever the sentence before the example says.
    example = (
        "The following command signs the zone with the keys given:\n\n# cd /etc/bind\n# dnssec-signzone -t"
    )
    assert tools.about(example) == "dnssec-signzone"
    assert (
        tools.about("The signed zone is served.\n\nIt was made as shown before, not with dnssec-signzone.")
        is None
    )

    # A name in code that opens with the thing names it ("skip the Memcached options"), once in passing not.
    memcached = Exclusions(["Memcached"])
    cache = "class jinja2.MemcachedBytecodeCache(client, prefix='jinja2/bytecode/') — This class implements"
    assert memcached.about(cache) == "Memcached"
    assert memcached.about("The bytecode cache may keep its entries in a MemcachedBytecodeCache too.") is None
    assert memcached.about("class jinja2.FileSystemBytecodeCache(directory=None)") is None
    # ... its first word, of a name of three words and more: "JavaScript" does not name Java, nor
    # "FetchFromCacheMiddleware" a cache.
    assert Exclusions(["Java"]).about("Most modern JavaScript libraries send this header.") is None
    assert Exclusions(["cache"]).about("FetchFromCacheMiddleware reads pages from the store.") is None
    # An activity on a name rules out the activity, not the name ("HTML autoescaping" is not all of HTML).
    escaping = Exclusions(["HTML autoescaping"])
    assert escaping.about("It also enables autoescaping for HTML files.") is None
    assert escaping.about("HTML autoescaping is off by default.") == "HTML autoescaping"


def test_a_thing_the_request_asks_about_is_not_ruled_out() -> None:
    # "running BIND in production" rules out production use, never every passage about BIND the rest of the
    # request asks about.
    request = understand(
        "We run BIND 9 on two resolvers. How do I configure response rate limiting in BIND? Do not suggest "
        "running BIND in production without a firewall, and don't suggest dnsdist."
    )
    assert [r.thing for r in request.ruled] == ["dnsdist"]


def test_skip_and_leave_out_rule_things_out() -> None:
    """ "Please skip the systemd/udev material entirely" (a borg user on Devuan) rules out systemd and udev;
    "how do I skip the first line?" asks how to skip."""
    assert [r.thing for r in ruled_out("Please skip the systemd/udev material entirely.")] == [
        "systemd",
        "udev",
    ]
    assert [r.thing for r in ruled_out("Leave out Ansible and Salt.")] == ["Ansible", "Salt"]
    assert [r.thing for r in ruled_out("We cannot use TCP/IP.")] == ["TCP/IP"]
    assert ruled_out("How do I skip the first line?") == []
    assert ruled_out("I want to skip a commit during a rebase.") == []
    # Named only as absent elsewhere in the request, it is still ruled out; named as asked about, it is not.
    devuan = "They run Devuan, so there is no systemd and no udev hooks. How do I run it from cron?"
    assert [r.thing for r in not_asked_about(ruled_out("Please skip the systemd material."), devuan)] == [
        "systemd"
    ]
    asked = "How do I start it from a systemd timer?"
    assert not_asked_about(ruled_out("Please skip the systemd material."), asked) == []
    # An rsyslog ticket: "We cannot install RELP on these boxes ..., so please skip RELP" names RELP as what
    # it cannot have, not as what it asks about.
    ticket = understand(
        "Our servers forward their syslog to a central collector over plain TCP. We cannot install RELP on "
        "these boxes (change freeze, no new packages), so please skip RELP. How do I buffer messages on disk "
        "while the collector is down?"
    )
    assert ticket.excluded == ["RELP"]


def test_skip_those_rules_out_what_the_sentence_named() -> None:
    """ "We do not use Apache or mod_wsgi anywhere, so please skip those options entirely" (a Flask user)
    rules out Apache and mod_wsgi, never "options"; that the request says it does not use them is no ask."""
    flask = "We do not use Apache or mod_wsgi anywhere, so please skip those options entirely."
    assert [r.thing for r in ruled_out(flask)] == ["Apache", "mod_wsgi"]
    assert [r.thing for r in ruled_out("Please skip CSRF protection advice.")] == ["CSRF protection"]
    request = understand(
        "We deploy a small Flask app on a Debian VM behind nginx and run it with gunicorn. "
        "How do we run gunicorn with four workers, and how does the app see the client's address? "
        "We do not use Apache or mod_wsgi anywhere, so please skip those options entirely."
    )
    assert request.excluded == ["Apache", "mod_wsgi"]
    assert ruled_out("Skip that.") == []
    # A page about the thing, by its first heading or its title without the site's name, is about it.
    apache = Exclusions(ruled_out(flask))
    proxy = "X-Forwarded-For and X-Forwarded-Host are automatically set by ProxyPass."
    assert apache.about(proxy, heading="Apache httpd > Tell Flask it is Behind a Proxy") == "Apache"
    assert apache.about(proxy, title="Apache httpd — Flask Documentation (2.2.x)") == "Apache"
    passing = "Gunicorn should not run as root; a proxy such as nginx or Apache httpd goes in front of it."
    assert apache.about(passing, heading="Gunicorn > Binding Externally") is None


def test_skip_in_a_question_asks_how_to_skip() -> None:
    """(Review.) "skip", "omit", "exclude" also name what a user wants to do: in a question, after "and" or
    "but", or with "from ...", they rule nothing out; a slash in a path or between opposites joins no list."""
    for asked in (
        "How do I back up /home with borg but skip the cache directories?",
        "How do I tell borg create to skip files on other file systems and omit xattrs?",
        "I back up my laptop with borg. Please exclude node_modules and .cache from the archives.",
        "With find, how do I list all files and skip directories?",
        "Omit the details, just tell me how to enable TLS.",
    ):
        assert ruled_out(asked) == [], asked
    assert [r.thing for r in ruled_out("Don't use /usr/local/bin.")] == ["/usr/local/bin"]
    assert [r.thing for r in ruled_out("Don't suggest read/write splitting.")] == ["read/write splitting"]
    assert [r.thing for r in ruled_out("Don't suggest GitHub Pages.")] == ["GitHub Pages"]
