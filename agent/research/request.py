"""Understanding a request: what it asks, under which constraints, and what it is about.

People ask in two ways. A short question ("How does WAL ensure durability?", "the graphene battery market")
is one ask and is searched whole. A long request (a support ticket, an analyst's brief: several paragraphs,
a role for the assistant, greetings, background, several questions and conditions) is split into sentences,
and each sentence is read for what it does:

- an **ask**: a question (ends with "?" or opens with a question word) or a request for information ("please
  explain", "I need to know", "compare", "list"); searched, each on its own;
- a **constraint**: a condition the answer must respect ("we run Django 3.2", "must not", "without
  downtime", "only", "budget"); searched too, since the answer depends on it;
- **context**: background that says what the request is about (kept for the subject);
- **instructions to the assistant** (its role, the format of the answer) and **pleasantries** (greetings,
  thanks, signatures): never searched, since no document answers them.

An ask that leans on the rest of the request ("does it also apply to uploads?") gets the request's subject
added, so that it can be searched alone. The **subject** is what the request is about in a few words (its
named things and most frequent content words, those of its asks and constraints counting most, in the order
they first appear): what template questions are asked about ("What are the main risks of {subject}?"),
never the whole request pasted into a pattern.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from sleuth.agent.research.exclusions import Ruled, excluded_things, not_asked_about, remainder, ruled_out
from sleuth.agent.research.text import content_terms, named_things, words

#: A request of at most this many words in at most two sentences is one ask, searched whole.
SHORT_WORDS = 40
QUESTION_START = re.compile(
    r"^(?:what|which|who|whom|whose|why|how|when|where|is|are|was|were|do|does|did|can|could|should|would|"
    r"will|has|have|had|may|might|must|shall|isn't|aren't|doesn't|don't|didn't|can't|won't)\b",
    re.I,
)
#: A thing named without its article or a pronoun ("delivery", "requests", "changes"), needed or wanted ...
_BARE_THING = (
    r"(?!(?:to|a|an|the|some|any|more|time|help|access|you|it|them|this|that|these|those|everyone|everybody|"
    r"someone|somebody|all|our|my|your|their|his|her|us|me)\b)[a-z][\w-]* "
)
#: ... to do something ("to report a temporary failure", "to show up on refresh"), never to be or to a place.
_TO_DO = r"to (?!(?:be|the|a|an|our|my|your|their|this|that|these|those|it|me|us)\b)\w+"
_ASK = re.compile(
    # "list" is no ask after an article or before "of" ("a list of line items" is a noun), unless it is
    # asked for ("give me a list of the settings")
    # ... nor after a word that makes it a noun ("a broad cipher list"): a verb opens the clause or follows
    # who is asked ("please list", "can you list", "and list")
    r"\b(?:explain|describe|compare|"
    r"(?:^|(?<=please )|(?<=you )|(?<=and )|(?<=to )|(?<=, )|(?<=: )|(?<=also )|(?<=then )|(?<=just )|"
    r"(?<=briefly )|(?<=first )|(?<=now ))list(?! of\b)|"
    r"tell (?:me|us)|show (?:me|us)|"
    r"(?:give|provide|send|need|want)(?: me| us)? (?:a|the) (?:\w+ )?list of|"
    # ... never a verb of asking told not to be done ("do not suggest re-encrypting traffic", "don't
    # recommend a plugin"): that rules things out
    r"find out|figure out|summari[sz]e|outline|identify|"
    r"(?<!\bnot )(?<!n't )(?<!n’t )(?<!\bnever )(?<!\bnot ever )(?<!\bnot to )"
    r"(?:recommend|suggest|advise)|clarify|"
    r"walk (?:me|us) through|help (?:me|us)|"
    # ... and a state of things that is needed, which asks how to get there: "We also need the images stored
    # in the same bucket, and the front-end team needs them to be publicly readable." (read as context, it
    # was never searched); not a deadline or a condition ("We need the answer by Friday.", "The change needs
    # to be done without downtime.": constraints)
    r"(?:i|we) (?:also |still |really )?need (?:the|our|all|every|each) "
    r"(?!(?:answer|report|reply|solution|fix|change|decision|write-?up|summary|briefing|memo)\b)"
    r"(?:(?:[\w/-]+ ){1,3}?(?:\w+ed|readable|available|accessible|visible|writable|public|private)|"
    r"(?:[\w/-]+ ){1,5}?to (?!be\b)\w+)|"
    # (a thing without its article, "I need delivery to report a temporary failure instead")
    r"(?:i|we) (?:also |still |really )?need " + _BARE_THING + r"(?:[\w/-]+ ){0,2}?" + _TO_DO + "|"
    # ... or a way to do something, which asks how ("We need a way to tell the checker to not even try
    # certain URL patterns.": read as background, the report never looked for linkcheck_ignore)
    # ... or wished for ("I'd like every request on the session to raise an exception for error statuses",
    # "I'd like setup and teardown of that task written as one unit": both had been read as background)
    # (never the answer itself wished for, "I'd like the answer kept short", nor everything at once, "We would
    # like everything done without downtime": a constraint)
    r"(?:i|we)(?:'d|’d| would) like (?!(?:to|it|everything|anything|all|the (?:answer|report|reply|response|"
    r"summary|memo|write-?up|output|results?)|your)\b)(?:[\w/-]+ ){1,6}?"
    r"(?!(?:need|speed|indeed|feed|seed|embed|hundred|based|red|bed|shed)\b)"
    r"(?:\w+ed|written|done|made|kept|built|sent|shown|given|taken|held|readable|available|accessible|"
    r"visible|writable|public|private)\b|"
    # ... or a thing wished for that would do it ("Something that wraps the normal DNS resolution with a
    # mapping of exceptions would be ideal.")
    r"^(?:something|anything|a way|an? (?:option|setting|tool|mechanism|hook|switch|flag|command|helper|"
    r"function|class|api|resolver|plugin|extension)\b)[^.!?]*\bwould be (?:ideal|great|perfect|nice|"
    r"helpful|best|good|handy|useful)\b|"
    r"(?:i|we)(?:'d|’d| would) like (?:the|our|all|every|each|any|its|their) "
    r"(?!(?:answer|report|reply|response|summary|memo|write-?up|output|results?)\b)"
    r"(?:[\w/-]+ ){1,5}?to (?!be\b)\w+|"
    r"(?:i|we) (?:also |really )?want (?:the|our|all|every|each|any) "
    r"(?!(?:answer|report|reply|response|summary|memo|write-?up|output|results?)\b)"
    r"(?:[\w/-]+ ){1,5}?to (?!be\b)\w+|"
    # (a thing wanted without its article: "I want requests to the real carrier hostname on port 443 to land
    # there")
    r"(?:i|we) (?:also |really )?want " + _BARE_THING + r"(?:[\w/-]+ ){0,6}?" + _TO_DO + "|"
    r"(?:i|we) (?:also |still |really )?need (?:a|an|some|any) (?:[\w-]+ ){0,2}?"
    r"(?:way|means|option|setting|mechanism|method|tool|switch|flag|command|hook) (?:to|of|for|that)|"
    r"(?:i|we)(?:'d| would) like to (?:know|understand)|(?:i|we) (?:need|want) to (?:know|understand|find|"
    r"decide|figure)|(?:i|we)(?:'m| am| are) (?:trying|looking) to|(?:i|we) wonder|wondering|"
    # ... "which" that asks, not one that relates ("it ran on a VM, which was fine", "the order in which")
    r"what (?:are|is) the|how (?:do|does|can|should|to)|whether|"
    r"(?<!, )(?<!\bin )(?<!\bof )(?<!\bby )(?<!\bon )(?<!\bto )(?<!\bfor )(?<!\bfrom )(?<!\bwith )which)\b",
    re.I,
)
#: An action wished for ("I'd like to cap the number of simultaneous fetches per event loop"), not a courtesy
#: ("I'd like to thank ...") nor the reader's own step ("We'd like to decide on Thursday"): an ask where no
#: sentence after it in its paragraph asks how (then it is that question's background: "I'd like to watch
#: the SMTP conversation ... Which debug setting shows just the protocol exchange?").
_WISH_TO = re.compile(
    r"\b(?:i|we)(?:'d|’d| would) like to (?!(?:thank|say|add|mention|note|point|stress|emphasi[sz]e|"
    r"apologi[sz]e|share|start|begin|keep|know|understand|ask|be|decide|discuss|hear|see)\b)\w+",
    re.I,
)
_CONSTRAINT = re.compile(
    r"\b(?:must|mustn't|should(?:n't)?|have to|has to|need(?:s)? to be|required?|requirements?|only|"
    r"without|at most|at least|no more than|within|budget|deadline|limit(?:ed)?|can(?:no|')t|cannot|"
    r"not allowed|compatible|compliance|constraint|we (?:use|run|have|are on)|running on|version|"
    r"stick to (?:what|only|the official))\b",
    re.I,
)
#: A role given to the assistant before an ask, up to its comma: "As a mail security engineer, please explain
#: ..." (without the comma, "As an administrator I need to know ...", the sentence is read as written).
_AS_ROLE = (
    r"as an? (?:[\w-]+\s+){0,4}?(?:expert|assistant|analyst|consultant|engineer|administrator|admin|"
    r"developer|architect|specialist|advisor|adviser|manager|lawyer|auditor|researcher|scientist|reviewer|"
    r"operator|sre|dba|professional|economist|accountant|strategist|officer)s?\b"
)
_INSTRUCTION = re.compile(
    r"^(?:you are|you're|act as|as an? (?:expert|assistant|analyst|consultant)|pretend|imagine you|"
    r"please (?:answer|respond|reply|write|format|keep|use|be)|answer in|respond in|reply in|format|"
    r"keep (?:it|the answer|your answer)|use (?:bullet|a table|markdown)|be (?:brief|concise)|"
    r"(?:write|give|provide) (?:me )?(?:a|an) (?:short |brief |concise )?(?:answer|summary|report|memo|"
    r"email|reply))",
    re.I,
)
#: A request for the pages to read ("..., and tell me which pages of the manual to read", "please point me to
#: the relevant pages of the manual so I can forward them to the team"): the report cites its pages whatever
#: is asked, and a search for these words finds pages about anything else.
_PAGES_WANTED = re.compile(
    r"(?:[,;]?\s*\b(?:and|also)\s+|^)(?:please\s+)?(?:also\s+)?(?:tell|show|point|direct|refer)\s+(?:me|us)\s+"
    r"(?:to\s+)?(?:which|what|the)\s+(?:relevant\s+|right\s+)?(?:pages?|sections?|chapters?|parts?)\b"
    r"(?:\s+(?:of|in)\s+the\s+(?:manual|docs|documentation|guide|reference|handbook))?"
    r"(?:\s+(?:to\s+read|(?:i|we)\s+should\s+read))?"
    r"(?:,?\s+so\s+(?:that\s+)?(?:i|we)\s+[^.;!?]*)?"
    # ... where the clause ends ("tell me which part of the TLS handshake fails" asks)
    r"(?=\s*(?:[,.;!?]|$))",
    re.I,
)
_PLEASANTRY = re.compile(
    r"^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|thanks?|thank you|cheers|regards|best|"
    r"kind regards|many thanks|sincerely|greetings|ok(?:ay)?|sorry)\b",
    re.I,
)
_THANKS = re.compile(r"^(?:thanks?|thank you|many thanks|cheers)\b", re.I)
#: (and "both", "either": "How do I fix both?" after the two problems it names had been searched alone)
_DEICTIC = re.compile(
    r"\b(?:it|its|this|that|these|those|they|them|their|the same|such|here|each of them|"
    # ("both" and "either" as pronouns, not "either Redis or Memcached")
    r"(?:both|either)(?=\s*(?:[?.!,;:]|of\b|$)))\b",
    re.I,
)
#: A sentence seeming to end on one of these goes on (an initialism, "e.g.", "Dr."); "etc." and a lone
#: capital ("plan B.") end sentences as often as not, and a line break always ends one.
_ENDS_ON_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|vs|cf|dr|mr|mrs|ms|prof|st|jr|sr)|\b(?:[A-Z]\.)+[A-Z])\.$", re.I
)
#: (a sentence may open on a letter that numbers it: "I want the notes to cover three things. (a) How ...")
_SENTENCE = re.compile(
    r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9]|\([a-z]\)\s)|\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)"
)
#: Verbs that carry no subject: dropped from the subject phrase.
_GENERIC_VERBS = frozenset(
    """be is are was were been being do does did doing have has had get gets got make makes made use uses used
    using work works worked need needs needed want wants wanted ensure ensures happen happens happened go goes
    going come comes know knows tell explain describe compare list find help provide provides affect affects
    handle handles cause causes mean means show shows give gives take takes look looks seem seems lead leads
    depend depends set sets run runs keep keeps let lets like try trying think please say says said
    hello hey dear thanks thank regards cheers""".split()
)
#: Words that count a request's questions ("Second, ...", "First issue: ..."): no subject where they open a
#: clause (capitalised, or before a comma); "per second" keeps its unit.
_ORDINALS = frozenset("first second third fourth fifth firstly secondly thirdly finally last lastly".split())


@dataclass
class Request:
    text: str
    asks: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    #: What the request is about, in a few words.
    subject: str = ""
    long: bool = False
    #: What the request rules out ("don't suggest Dovecot"): never searched, never cited.
    ruled: list[Ruled] = field(default_factory=list)

    @property
    def excluded(self) -> list[str]:
        """The things ruled out, as written."""
        return [r.thing for r in self.ruled]

    def as_written(self, ask: str) -> str:
        """``ask`` without what understanding added to search it: the subject of the request or of the
        sentence it leans on, in brackets at its end ("Can we change that? (re-download photo nightly
        long)" is "Can we change that?" to its reader)."""
        added = _ADDED_SUBJECT.search(ask)
        if added is None or added.group(1) in " ".join(self.text.split()):
            return ask
        return ask[: added.start()] + added.group(2)

    @property
    def searches(self) -> list[str]:
        """What is searched for the request itself: its asks, then its constraints."""
        return list(dict.fromkeys([*self.asks, *self.constraints]))


#: What ``understand`` adds to an ask that leans on the rest of the request: " (subject)" at its end (before
#: its question mark, when it was split from a longer sentence).
_ADDED_SUBJECT = re.compile(r" (\([^()]*\))(\??)$")


def sentences(text: str) -> list[str]:
    text = text.strip()
    pieces: list[str] = []
    breaks: list[str] = []
    pos = 0
    for m in _SENTENCE.finditer(text):
        pieces.append(text[pos : m.start()])
        breaks.append(m.group(0))
        pos = m.end()
    pieces.append(text[pos:])
    parts: list[str] = []
    for k, piece in enumerate(pieces):
        part = " ".join(piece.split())
        if parts and part and "\n" not in breaks[k - 1] and _ENDS_ON_ABBREVIATION.search(parts[-1]):
            parts[-1] = f"{parts[-1]} {part}"  # "Name the U.S. Senators ..." is one sentence
        else:
            parts.append(part)
    return [p.strip(" -*•") for p in parts if p and len(words(p)) >= 1]


def understand(text: str) -> Request:
    """The request's asks, constraints and subject (see the module's docstring)."""
    text = " ".join(text.split()) if "\n" not in text else text.strip()
    parts = sentences(text)
    ruled = list(dict.fromkeys(r for sentence in parts for r in ruled_out(sentence)))
    if ruled:
        ruled = not_asked_about(ruled, " ".join(remainder(p) for p in parts))
    excluded = [r.thing for r in ruled]
    if len(words(text)) <= SHORT_WORDS and len(parts) <= 2:
        whole = " ".join(text.split())
        asked = " ".join(remainder(p) for p in parts).strip() if excluded else whole
        searched = asked if len(content_terms(asked)) >= 2 else whole
        subject = subject_of(searched)
        return Request(whole, asks=_coordinated(searched, subject), subject=subject, ruled=ruled)
    # What a sentence rules out is not searched (it would find exactly what must not be cited): the rest of
    # the sentence is read as any other, and a sentence that only rules things out asks nothing.
    parts = [remainder(p) if excluded_things(p) else p for p in parts]
    parts = [p for p in parts if len(content_terms(p)) >= 2 or not excluded]
    parts = [kept for p in parts if (kept := without_pages_wanted(p))]
    kinds = [classify(sentence) for sentence in parts]
    # A sentence that introduces the questions after it ("A few things I couldn't figure out from the man
    # page:") asks nothing itself: its words say what the request is about.
    # So does one that says how many things it asks ("We would like to understand three things from the
    # official pytest documentation.": searched, it had put "Target audience: ..." in a direct answer).
    # (a count is followed by what it counts, with background between as often as not: "... help me with
    # three things. First, the manual is full of Unicode: ... which engine should we switch to?")
    kinds = [
        "context"
        if kind == "ask"
        and (
            (p.rstrip().endswith(":") and kinds[k + 1 : k + 2] == ["ask"])
            or (counts_asks(p) and "ask" in kinds[k + 1 :])
        )
        else kind
        for k, (p, kind) in enumerate(zip(parts, kinds, strict=True))
    ]
    # A wish for an action asks for it when nothing after it in its paragraph asks how (Tornado's "Problem
    # two: ... I'd like to cap the number of simultaneous fetches per event loop, with the rest simply waiting
    # in line.": read as background, max_clients was never looked for).
    kinds = [
        "ask"
        if kind == "context" and _WISH_TO.search(p) and not _asked_after(text, parts, kinds, k)
        else kind
        for k, (p, kind) in enumerate(zip(parts, kinds, strict=True))
    ]
    kinds = _items_with_background(kinds, parts)
    # ... and a role given to the assistant before an ask ("As a consultant, please tell me how ...") is not
    # searched with it.
    parts = [(_role_ask(p) or p) if kind == "ask" else p for p, kind in zip(parts, kinds, strict=True)]
    asking = " ".join(p for p, kind in zip(parts, kinds, strict=True) if kind in ("ask", "constraint"))
    subject = subject_of(text, asked=asking)
    asks: list[str] = []
    constraints: list[str] = []
    previous, previous_kind = "", ""
    background: list[str] = []
    for sentence, kind in zip(parts, kinds, strict=True):
        if kind.startswith("background"):
            background.append(sentence)
            if kind == "background-constraint":
                constraints.append(_standalone(sentence, subject))
            previous, previous_kind = " ".join(background), "context"
            continue
        first = len(asks)
        if kind == "ask":
            held = clauses(sentence, subject)
            if (
                len(held) == 1
                and previous
                and (
                    (leans_back(sentence) and previous.rstrip().endswith("?"))
                    or (previous_kind == "ask" and goes_on(sentence, previous))
                )
            ):
                # Two questions in a row, the second pointing back ("How do I loop over all the keys of the
                # array? And how do I get the number of elements it holds?"): two asks, the second with what
                # the first is about (one search for both blends them and answers neither); so does one that
                # goes on from the ask before it ("Also, what is the default?": ``goes_on``).
                asks.append(f"{sentence} ({subject_of(previous, limit=4)})")
            elif len(held) == 1 and previous and leans_back(sentence):
                # "What does Django provide for this?" means the sentence before it: asked with it (and
                # instead of it, where that sentence was an ask of its own).
                # (the sentence before, with the background of its item where it had some)
                asked = asks.pop() if asks and asks[-1].endswith(previous) else previous
                asks.append(f"{asked} {sentence}")
            elif (
                len(held) == 1
                and previous
                and previous_kind in ("context", "constraint")
                and _OPENS_POINTING.search(sentence)
            ):
                # ... and so does a longer question that points at what the background just before it
                # describes ("... the chapter title pages use a decorative style with the chapter number in a
                # big box. Which part of the LaTeX configuration produces that look and how do we turn it
                # off?": searched with the request's subject, it found nothing on chapter styles).
                asks.append(f"{previous} {sentence}")
            else:
                before = ""
                if (
                    len(held) > 1
                    and previous
                    and previous_kind == "context"
                    and _OPENS_POINTING.search(held[0])
                    and leans_back(held[0])
                    and _same_paragraph(text, previous, sentence)
                    # (background tells the user's case; a sentence to the assistant is none: "I'd like you
                    # to play the role of a performance engineer ... Explain why this happens ...")
                    and not re.search(r"\byou\b", previous, re.I)
                ):
                    # ... and so does the first of several questions in one sentence ("Anything bigger than
                    # about a megabyte is rejected with "413 Request Entity Too Large" ... Which setting
                    # in aiohttp produces that limit, what is its default value, and where do we raise
                    # it?": asked with its first question, whose words the questions after it lean on)
                    background = background or [previous]
                for clause in held:
                    lead = subject_of(_ROLE_GIVEN.sub("", before), limit=4) if before else ""
                    if lead and leans_back(clause):
                        # ... and within one sentence, as after a sentence ("can Sphinx produce PDF output as
                        # well as HTML, and what does it need installed for that?": that is PDF output).
                        asks.append(f"{clause} ({lead})")
                    else:
                        asks.append(_standalone(clause, subject, alone=len(held) == 1))
                    before = clause
            if background and asks[first:] and not asks[first].startswith(background[0]):
                asks[first] = " ".join([*background, asks[first]])
            background = []
        elif kind == "constraint":
            constraints.append(_standalone(sentence, subject))
        if kind in ("ask", "constraint", "context"):
            previous, previous_kind = sentence, kind
    if not asks:  # a request that asks nothing explicitly asks about its subject
        asks = [subject] if subject else [" ".join(text.split())[:400]]
    return Request(text, asks=asks, constraints=constraints, subject=subject, long=True, ruled=ruled)


def _asked_after(text: str, parts: list[str], kinds: list[str], k: int) -> bool:
    """Whether a sentence after ``parts[k]`` in its paragraph asks."""
    later = range(k + 1, len(parts))
    return any(kinds[j] == "ask" and _same_paragraph(text, parts[k], parts[j]) for j in later)


def _same_paragraph(text: str, a: str, b: str) -> bool:
    """Whether sentences ``a`` and ``b`` of ``text`` stand in one paragraph (a blank line parts paragraphs; a
    request written on one line is one)."""
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
    where = [next((k for k, p in enumerate(paragraphs) if " ".join(s.split())[:60] in p), -1) for s in (a, b)]
    return where[0] >= 0 and where[0] == where[1]


#: What an item of a request's list is called ("First issue:", "Another problem:", "Problem one:").
_ITEM_NOUNS = "issue|point|question|thing|item|problem|topic"
#: A sentence that opens one item of the request's list of things ("Second, the printed copy is useless if
#: readers can't see where the hyperlinks go.", "Three: right now every sub-directory ends up as one big
#: template ...", "(b) ...").
_OPENS_ITEM = re.compile(
    r"^(?:\(?[a-h1-9]\)|(?:"
    + "|".join(sorted(_ORDINALS | {"one", "two", "three", "four", "five", "one last"}))
    + rf")(?:\s+(?:{_ITEM_NOUNS}))?\s*[,:]"
    # ("Another issue:", "One more thing:": the item after the ones before, whatever its number; "Last
    # thing: during a load test the service failed with too many open files. ... What do we need to raise,
    # and where?": the ask had been searched alone, and found "raise exceptions")
    + rf"|(?:another|one\s+more)\s+(?:{_ITEM_NOUNS})\s*[,:]"
    # ("Problem one:", "Problem three is about testing:": the noun before its number)
    + rf"|(?:{_ITEM_NOUNS}|part)\s+(?:one|two|three|four|five|[1-9])"
    + r"(?:\s+is\s+about\s+\w+(?:\s+\w+)?)?\s*[,:])\s*",
    re.I,
)
#: At most this many sentences of an item's background are asked with its first ask.
ITEM_BACKGROUND = 2


def _items_with_background(kinds: list[str], parts: list[str]) -> list[str]:
    """``kinds`` with an item's background marked ``background-`` and its kind: an item of the request's
    list that opens on background is one thing asked, the background asked with the item's first ask
    ("Second, the printed copy is useless if readers can't see where the hyperlinks go. We need the URLs of
    external links to appear somewhere on the page in the PDF ...": searched alone, the need found the reST
    syntax of links
    and the EPUB tutorial; with the sentence that says what it is for, ``latex_show_urls`` "very useful for
    printed copies"). Only up to ``ITEM_BACKGROUND`` sentences, never across another item's opening, and
    only before an ask of one clause."""
    marked = list(kinds)
    for k, part in enumerate(parts):
        if kinds[k] not in ("context", "constraint") or not _OPENS_ITEM.match(part):
            continue
        for j in range(k + 1, min(len(parts), k + ITEM_BACKGROUND + 1)):
            if _OPENS_ITEM.match(parts[j]) or kinds[j] not in ("ask", "context", "constraint"):
                break
            if kinds[j] == "ask":
                # (not before a list of asks: "Finally, the team passes sessions around by hand ... Asks:
                # (1) why objects expire after commit; (2) ...": the list is the request's own summary)
                if len(clauses(parts[j])) == 1:
                    # (a constraint stays one too: "Second, we must stay on Sphinx 5. Which engine ...?")
                    marked[k:j] = [f"background-{kind}" for kind in kinds[k:j]]
                break
    return marked


#: A sentence that says how many things the request asks and nothing of them: a verb of asking or knowing,
#: the count, the things, and at most where they are to be found ("We would like to understand three things
#: from the official pytest documentation.", "I have two questions."); not "Explain the two main things that
#: slow down VACUUM", which asks.
_COUNTS_ASKS = re.compile(
    r"\b(?:understand|know|ask|clarify|learn|raise|cover|have|are|with)\s+(?:\w+\s+){0,2}?"
    r"(?:two|three|four|five|six|several|a\s+few|a\s+couple\s+of|the\s+following|\d)\s+(?:\w+\s+)?"
    r"(?:things|questions|points|areas|issues|topics|items|aspects|matters)\b"
    r"(?:\s+(?:from|about|in|on|regarding|concerning|for)\b[^,;]*)?\s*[.:!]?\s*$",
    re.I,
)


#: ... or announces them without a count: "We need to know the following."
_THE_FOLLOWING = re.compile(
    r"\b(?:understand|know|ask|clarify|learn|cover|answer)\s+(?:\w+\s+){0,2}?the\s+following\s*[.:!]?\s*$",
    re.I,
)


def counts_asks(sentence: str) -> bool:
    """Whether ``sentence`` says how many things the request asks, asking none of them ("We would like to
    understand three things from the official pytest documentation."), or that they follow ("We need to
    know the following.")."""
    announced = _COUNTS_ASKS.search(sentence) or _THE_FOLLOWING.search(sentence)
    return announced is not None and not sentence.rstrip().endswith("?")


#: (", or do we need to add the code ourselves?" is the other answer to the question before it, no question
#: of its own: "or" joins two questions only before a question word)
_COORDINATED = re.compile(
    r",?\s+(?:(?:and|but|also)\s+(?=(?:what|which|who|how|why|where|when|whether|is|are|does|do|can)\b)|"
    r"or\s+(?=(?:what|which|who|how|why|where|when|whether)\b))",
    re.I,
)


#: "How do I <do something to X> and <do> it?": the second verb's object is the first's.
_JOINED_VERBS = re.compile(
    r"^(?P<head>how (?:do|can|should|would|could) (?:i|you|we|one) )(?P<first>\S+ .{8,}?),? and (?:then )?"
    r"(?P<second>(?!(?:is|are|was|were|be|do|does|did|can|could|should|would|will|shall|may|might|must|"
    r"has|have|had|needs?|wants?)\b)[a-z]+ (?:it|them)(?: [\w-]+){0,3})\?$",
    re.I,
)


def _coordinated(question: str, subject: str) -> list[str]:
    """A question that joins two questions ("Which companies lead X, and what materials does it depend
    on?") asked whole and as each of its parts (a part that leans on the first gets the subject)."""
    parts = [p.strip(" ,;") for p in _COORDINATED.split(question) if p.strip(" ,;")]
    joined_verbs = _JOINED_VERBS.match(question.strip())
    if len(parts) < 2 and joined_verbs is not None:
        # Two things done to one object ("How do I create a full-text search table with FTS5 and query
        # it?"): two parts, the second done to what the first names.
        head, first, second = joined_verbs.group("head", "first", "second")
        parts = [f"{head}{first}", f"{head}{second}"]
    if len(parts) < 2 or any(len(words(p)) < 3 for p in parts):
        return [question]
    end = "?" if question.rstrip().endswith("?") else ""
    asked = [p if p.endswith(("?", ".")) else p + end for p in parts]
    asked = [a[:1].upper() + a[1:] for a in asked]
    # The parts after the first lean on it ("what materials does it depend on?"): they carry its subject.
    lead = subject_of(parts[0], limit=4)
    rest = [a if set(content_terms(lead)) <= set(content_terms(a)) else f"{a} ({lead})" for a in asked[1:]]
    return [question, asked[0], *rest]


_ENUMERATION = re.compile(r"(?:^|[\s,;:])\(?(?:\d{1,2}|[a-h]|i{1,3}|iv|v)\)\s+", re.I)
_WH_LIST = re.compile(r"[,;]\s*(?:and\s+|or\s+)?(?=(?:what|which|who|how|why|where|when|whether)\b)", re.I)


def clauses(sentence: str, subject: str = "") -> list[str]:
    """One ask sentence as the questions it holds: an enumeration ("summarise (1) how releases are numbered,
    (2) how deprecations work, and (3) the upgrade procedure") or a list of questions after a colon ("tell me:
    what are my options, which base classes I can extend, and why changing it is risky") is one search per
    item, since a search for the blend finds the documents of none; any other sentence is one ask. After a
    question and a colon, an item that names nothing carries what that question is about (in ``subject``'s
    words, the request's subject, where the question uses them)."""
    marks = list(_ENUMERATION.finditer(sentence))
    colon = -1
    if len(marks) >= 2:
        ends = [m.start() for m in marks[1:]] + [len(sentence)]
        items = [sentence[m.end() : end] for m, end in zip(marks, ends, strict=True)]
        parts = [re.sub(r"[\s,;]*(?:\band\b|\bor\b)?[\s,;]*$", "", i.strip()) for i in items]
    else:
        # (a colon that opens a list has a space after it; "\figref{fig:xyz}" or "http://..." has none)
        opens = re.search(r":(?=\s)", sentence)
        colon = opens.start() if opens else -1
        body = sentence[colon + 1 :] if colon >= 0 else sentence
        cuts = [m for m in _WH_LIST.finditer(body) if _depth(body, m.start()) == 0]
        bounds = [0, *(x for m in cuts for x in (m.start(), m.end())), len(body)]
        parts = [body[a:b].strip(" ,;") for a, b in zip(bounds[::2], bounds[1::2], strict=True)]
        if len(parts) >= 2 and _CONDITION.match(parts[0]) and cuts[0].group().startswith(","):
            # "When the user clicks "Add to dictionary", what line do we send ...?": the clause says when,
            # and asks nothing alone
            parts = [f"{parts[0]}, {parts[1]}", *parts[2:]]
        if len(parts) == 2:
            parts = _list_of_three(parts)
        if len(parts) < 3 and colon < 0:
            return [sentence]  # "how X works and why" is one question; a list of three or more is several
        if colon < 0 and len(parts) >= 3 and len(words(parts[0])) >= 3 and not _asks_something(parts[0]):
            # "We don't want to re-download the same photo every night; how long does Scrapy keep an image
            # fresh, and can we change that?": the clause before the first question asks nothing (it had been
            # searched as an ask of its own); it says what that question is for, and is asked with it.
            parts = [f"{parts[0]}; {parts[1]}", *parts[2:]]
        if len(parts) < 2 and colon >= 0:
            # A list of topics after a colon ("based on the docs: installing Python, creating a virtual
            # environment, installing Django, and checking it worked") is as many asks.
            cuts = [m for m in _ITEM_LIST.finditer(body) if _depth(body, m.start()) == 0]
            bounds = [0, *(x for m in cuts for x in (m.start(), m.end())), len(body)]
            items = [body[a:b].strip(" ,;") for a, b in zip(bounds[::2], bounds[1::2], strict=True)]
            # (never one question after a label: "Related: when the pod receives SIGTERM, how long does the
            # server wait ..., and is that configurable?" had asked "When the pod receives SIGTERM?")
            condition = _CONDITION.match(items[0]) and not re.match(r"^\w+\s+(?:to\b|\w+ing\b)", items[0])
            if len(items) >= 3 and all(len(words(i)) >= 2 for i in items) and not condition:
                parts = items
    parts = [p.rstrip(" .?!") for p in parts if len(words(p)) >= 2]
    if len(parts) < 2:
        return [sentence]
    lead = _lead_question(sentence[:colon]) if colon >= 0 else ""
    if lead:
        # The items detail the question before the colon and lean on it ("what has to go into each zone
        # statement" means: to get the zones signed): an item that names nothing of its own is searched with
        # what that question is about, in the request's words where it uses them. (The question itself is
        # not asked again: the items ask it in detail, and a search for the general question crowds out
        # their answers.)
        own = set(content_terms(lead))
        about = " ".join(w for w in subject.split() if set(content_terms(w)) & own)
        if about:  # (else each item gets the request's subject as any list item does, once)
            parts = [p if named_things(p) else _with_subject(p, about) for p in parts]
    end = "?" if sentence.rstrip().endswith("?") else ""
    return [p[:1].upper() + p[1:] + end for p in parts]


def _with_subject(item: str, about: str) -> str:
    """The item, with ``about`` in brackets unless it names all of it."""
    terms = set(content_terms(about))
    return item if terms <= set(content_terms(item)) else f"{item} ({about})"


def _lead_question(lead: str) -> str:
    """The question a sentence asks before the list after its colon ("Please explain what the recommended
    way is to get these zones signed: ..."), or "" when the lead only introduces the list ("Please tell
    me:", "based on the docs for Windows:")."""
    wh = [m for m in _WH_WORD.finditer(lead) if _depth(lead, m.start()) == 0]
    if not wh:
        return ""
    question = lead[wh[0].start() :].strip(" ,;")
    return question if len(words(question)) >= 4 else ""


_ITEM_LIST = re.compile(r"\s*[,;]\s*(?:and\s+|or\s+)?")
_LAST_ITEM = re.compile(
    r",\s+(?:and|or(?!\s+(?:do|does|did|is|are|was|were|should|can|could|must|will|would|shall|may|might|has|"
    r"have)\b))\s+"
)
_WH_WORD = re.compile(r"\b(?:what|which|who|how|why|where|when|whether)\b", re.I)


#: A clause that opens a sentence with the condition of its question: "when", "if", "once" ... not followed
#: by a verb that asks ("When does the cache expire, and ..." asks).
#: What may stand before a condition's word: an item's letter or number, or an ordinal or linking word.
_BEFORE_CONDITION = r"^(?:\(?\w{1,2}\)\s+|(?:first|second|third|fourth|also|then|finally),?\s+)?"
_CONDITION = re.compile(
    _BEFORE_CONDITION + r"(?:when|whenever|where|if|once|while|after|before)\s+"
    r"(?!(?:do|does|did|is|are|was|were|will|would|can|could|should|shall|has|have|had|may|might|must)\b)",
    re.I,
)


def _asks_something(clause: str) -> bool:
    """Whether a clause asks: a question's form, a word of asking, a question word anywhere in it, or an
    imperative ("Please confirm the default listening port of Redis", "Name the setting that ...")."""
    return bool(
        QUESTION_START.match(clause)
        or _ASK.search(clause)
        or _WH_WORD.search(clause)
        or _IMPERATIVE.match(clause)
    )


#: A clause that asks by telling the reader what to do.
_IMPERATIVE = re.compile(
    r"(?:please\s+)?(?:confirm|name|give|list|show|tell|explain|describe|state|specify|point|provide|suggest|"
    r"recommend|check|verify|summari[sz]e|outline|compare|identify|clarify|detail|document)\b",
    re.I,
)


def _list_of_three(parts: list[str]) -> list[str]:
    """Two questions split at a comma, the second ending in a list's last item ("explain how Django handles
    transactions by default, how to make the writes all-or-nothing, and the documented way to send the email
    after the commit"): three asks, the first without the words that lead into the list. Without a comma
    before its "and" ("how X works and why"), the second part is one question."""
    tails = [m for m in _LAST_ITEM.finditer(parts[1]) if _depth(parts[1], m.start()) == 0]
    if not tails:
        return parts
    last = tails[-1]
    second, third = parts[1][: last.start()], parts[1][last.end() :]
    lead = _WH_WORD.search(parts[0])
    first = parts[0][lead.start() :] if lead else parts[0]
    if min(len(words(second)), len(words(third))) < 2:
        return parts
    return [first, second, third]


def _depth(text: str, at: int) -> int:
    """How many parentheses are open at ``at`` (a list inside brackets is one item's detail)."""
    return max(0, text.count("(", 0, at) - text.count(")", 0, at))


def without_pages_wanted(sentence: str) -> str:
    """``sentence`` without its request for the pages to read (see ``_PAGES_WANTED``); "" when nothing else
    is left."""
    kept = _PAGES_WANTED.sub("", sentence).strip()
    if kept == sentence.strip():
        return sentence
    if not content_terms(kept):
        return ""
    return kept[:1].upper() + kept[1:]


def _only_thanks(sentence: str) -> bool:
    """A thank-you, whatever its length, unless what follows the thanks asks something ("Thanks in advance,
    we need to know which hook runs before a push." is an ask; "help us" after thanks is gratitude)."""
    if not _THANKS.match(sentence) or sentence.endswith("?"):
        return False
    rest = re.split(r"[,;:!—–]", sentence, maxsplit=1)[1:]
    return not any(
        not m.group(0).lower().startswith("help") for part in rest for m in _ASK.finditer(part)
    ) and not any(QUESTION_START.match(part.strip()) for part in rest)


def classify(sentence: str) -> str:
    """``ask``, ``constraint``, ``instruction``, ``pleasantry`` or ``context``; a sentence that rules
    things out ("don't suggest Dovecot") is read without that, and is a constraint if nothing else is left."""
    stripped = sentence.strip()
    if excluded_things(stripped):
        rest = remainder(stripped)
        return classify(rest) if len(content_terms(rest)) >= 2 else "constraint"
    if _PLEASANTRY.match(stripped) and (len(words(stripped)) <= 8 or _only_thanks(stripped)):
        return "pleasantry"  # "Thanks a lot, this would really help us write the runbook."
    if _INSTRUCTION.match(stripped) and _role_ask(stripped) is None:
        return "instruction"
    # (a sentence that opens on a condition and ends with a stop tells what happened: "When we tried, we got
    # hundreds of warnings ...")
    conditioned = _CONDITION.match(stripped) is not None
    bids = conditioned and _BIDS_AFTER_CONDITION.search(stripped) is not None
    told = not stripped.endswith("?") and conditioned and not bids
    if (
        stripped.endswith("?")
        or (QUESTION_START.match(stripped) and not told)
        or _ASK.search(stripped)
        or bids
    ):
        return "ask"
    if _CONSTRAINT.search(stripped):
        return "constraint"
    return "context"


#: A condition whose main clause tells the reader what to do: "If there is a helper tool that creates the PO
#: files, mention it as well." asks (read as telling, sphinx-intl was never looked for); "When we ran it, name
#: resolution failed." does not (the verb takes what is asked for: a pronoun, an article, a question word),
#: nor a verb further on ("If a user forgets it, the admin can reset it, give them ..."), nor a condition on
#: the assistant's own answer ("If you quote the manual, include the section number.").
_BIDS_AFTER_CONDITION = re.compile(
    _BEFORE_CONDITION + r"(?:when|whenever|if|once|where)\s+(?!you\b)[^,;]*,\s+(?:please\s+)?(?:also\s+)?"
    r"(?:mention|include|list|name|give|show|tell|explain|describe|note|add|suggest|recommend|say|"
    r"point\s+out)\s+(?:it|them|that|this|those|these|the|a|an|me|us|any|all|which|what|how|whether|where|"
    r"too|also|as\s+well)\b",
    re.I,
)


_ROLE = re.compile(
    rf"^(?:you are|you're|act as|{_AS_ROLE}|pretend|imagine you)"
    r"[^,;:]*[,;:]\s*(?P<rest>.+)$",
    re.I,
)


#: A role given to the assistant inside a sentence, up to the verb that asks ("Could you act as our security
#: liaison and tell me how ..."): no part of what the sentence is about.
_ROLE_GIVEN = re.compile(
    r"\b(?:act|acting|serve|answer)\s+as\s+(?:an?|our|my|the)\s+(?:[\w-]+\s+){0,4}?(?:and\s+)?"
    r"(?=(?:tell|explain|describe|give|help|advise|walk|list|summari[sz]e|outline|write|show)\b)",
    re.I,
)


def role_removed(sentence: str) -> str:
    """The sentence without the role it gives the assistant before its ask (unchanged when it gives none)."""
    return _role_ask(sentence) or sentence


def _role_ask(sentence: str) -> str | None:
    """The ask after a role given to the assistant ("As a consultant, please tell me how Django supports
    integrating with an existing database: ..."), or None: the role is an instruction, the rest an ask."""
    role = _ROLE.match(sentence)
    if role is None:
        return None
    rest = role.group("rest")
    if not (rest.endswith("?") or QUESTION_START.match(rest) or _ASK.search(rest)):
        return None
    return rest[:1].upper() + rest[1:]


def subject_of(text: str, limit: int = 5, *, asked: str = "") -> str:
    """What the request is about: its content words that recur most (a one-line request: all of them, up to
    ``limit``), in the order they first appear, as written (``WAL``, ``Django``, ``static files``).

    ``asked``: the sentences that ask (a long request's asks and constraints); their words count twice more,
    so that the subject is what is asked about, not the story around it (a bug report's "order", "customer"
    and "email" against the "database transactions" its questions are about).

    Labels ("Priority:", "Customer:"), question words, generic verbs and contractions are not subjects.
    """
    first: dict[str, tuple[int, str]] = {}
    counts: Counter[str] = Counter()
    # What a question asks for ("which *companies*", "what *materials*") is its answer, not its subject.
    asked_for = {m.group(1).lower() for m in _WH_TARGET.finditer(text)}
    for m in _TOKEN.finditer(text):
        word = m.group(0)
        lowered = word.lower()
        if lowered in asked_for:
            continue
        if (
            len(word) < 3
            or "'" in word
            or "’" in word
            or lowered in _GENERIC_VERBS
            or (lowered in _ORDINALS and (word[:1].isupper() or text[m.end() : m.end() + 1] == ","))
            or text[m.end() : m.end() + 1] == ":"
            or QUESTION_START.fullmatch(word)
        ):
            continue
        stems = content_terms(word)
        if not stems:
            continue
        counts[stems[0]] += 1
        first.setdefault(stems[0], (m.start(), word if word[:1].isupper() else lowered))
    for term, times in Counter(content_terms(asked)).items():
        if term in counts:  # a word the request's own filter kept (no generic verb, no label)
            counts[term] += 2 * times
    ranked = sorted(counts, key=lambda t: (-counts[t], first[t][0]))[:limit]
    return " ".join(first[t][1] for t in sorted(ranked, key=lambda t: first[t][0]))


_WH_TARGET = re.compile(
    r"\b(?:which|what|how many|how much)\s+(?!is\b|are\b|was\b|were\b|do\b|does\b|did\b|can\b|should\b|"
    r"would\b|will\b|has\b|have\b|the\b|a\b|an\b)([^\W\d_]+)",
    re.I,
)
_TOKEN = re.compile(r"[^\W_][\w'’.+-]*[^\W_]|[^\W_]", re.UNICODE)


#: An ask with at most this many content words that points back says little without what it points to.
LEANING_TERMS = 4


#: An ask that opens by going on from the one before: "Also what does Django use by default out of the
#: box?" (of passwords, the sentence before says; searched alone, it found the admin's select boxes).
_GOES_ON = re.compile(r"\s*(?:and\s+)?(?:also|additionally|besides|plus)\b", re.I)


#: A question that points at what was said before it: "this", "these", "those" ("How do we avoid this?"), or
#: "that" with its noun ("Which part produces that look and how do we turn it off?"), not "that" opening a
#: clause ("so that the build does not break") nor "it" (a placeholder as often: "is it possible to ...").
_OPENS_POINTING = re.compile(
    r"\b(?:this|these|those)\b|\bthat\s+(?!(?:the|a|an|it|its|we|i|you|they|there|our|my|your|their|is|was|"
    r"are|were|has|have|can|will|would|should|does|do|did)\b)\w+\s*(?:[?,;]|\b(?:and|or)\b|$)",
    re.I,
)


def leans_back(sentence: str) -> bool:
    """A short ask that points back to what was said before it ("What does Django provide for this?"), or
    one that opens so ("Which hook does that, and can we keep the hook scripts in the repository?": the
    sentence before says what "that" is), not by a phrase that only links it ("Related to that, the project
    coordinators want ...; what decides the file permissions ...?" asks its own question). (One that goes
    on from the ask before it: ``goes_on``.)"""
    opening = re.split(r"[,;:]", sentence, maxsplit=1)[0]
    parts = (sentence,) if _LINKS_ONLY.match(opening) else (sentence, opening)
    return any(
        bool(_DEICTIC.search(part)) and len(set(content_terms(part))) <= LEANING_TERMS for part in parts
    )


#: An opening that only links a sentence to the one before it.
_LINKS_ONLY = re.compile(
    r"^\s*(?:(?:and|but|also)\s+)?(?:related to|apart from|besides|on top of|in addition to|along with|"
    r"similar to|further to|following on from)\s+(?:that|this|it|those|these)\s*$",
    re.I,
)


def goes_on(sentence: str, before: str) -> bool:
    """An ask that goes on from the ask ``before`` it and names too little to be searched alone ("Also what
    does Django use by default out of the box?" after a question on Django's passwords): a few words, and
    no name the question before does not name ("Also, how do we recover a stash that someone dropped?" and
    "Also, is HTTP caching supported?" name their own topics)."""
    own = {n.casefold() for n in named_things(sentence)}
    return (
        bool(_GOES_ON.match(sentence))
        and len(set(content_terms(sentence))) <= LEANING_TERMS
        and all(n in before.casefold() for n in own)
    )


def _standalone(sentence: str, subject: str, *, alone: bool = True) -> str:
    """The sentence, with the request's subject added when it leans on the rest of the request (it points
    back, or it is one item of a list whose lead-in named what it is about)."""
    own = set(content_terms(sentence))
    about = set(content_terms(subject))
    if subject and (_DEICTIC.search(sentence) or not alone) and not (about & own):
        return f"{sentence} ({subject})"
    return sentence


#: A clause that asks what happens when the user sets nothing: "when I don't set one", "if I never configure
#: anything", "if I don't pass --compression"; the group is what is not set.
_UNSET = re.compile(
    r"(?:,\s*)?\b(?:if|when|unless)\s+(?:i|we|you|one)\s+(?:never|don't|do\s+not|didn't|did\s+not|"
    r"haven't|have\s+not)\s+(?:configure|set|change|specify|give|pass|provide|touch|choose|supply|define|"
    r"override|add)\b\s*(?P<what>[^,?.;]*)",
    re.I,
)
#: What names nothing that is not set: "when I don't set one", "if I never configure anything".
_NOTHING_NAMED = frozenset("one it anything this that them any nothing a value one myself".split())


def by_default(question: str) -> str | None:
    """The question as a manual words it, or None: "What compression level does mod_deflate use when I don't
    set one?" asks what it uses by default, and a manual says "Default:" where the question says "when I
    don't set one" (the cross-encoder scores DeflateCompressionLevel's "Default: Zlib's default" -0.4 under
    the first and 3.9 under "... use by default?"). What is not set, where the clause names it, stays in
    brackets ("... log files by default (fileCreateMode)?")."""

    if not _UNSET.search(question):
        return None
    opening = _UNSET.match(question)
    if opening is not None:  # "If I never configure anything, how long ...": "By default, how long ..."
        rest = question[opening.end() :].lstrip(" ,")
        return f"By default{_unset_named(opening)}, {rest}" if rest else None
    said = _UNSET.sub(lambda m: f" by default{_unset_named(m)}", question)
    return " ".join(said.split()).replace(" ?", "?")


def _unset_named(clause: re.Match[str]) -> str:
    """What a "when I don't set ..." clause names, in brackets (" (fileCreateMode)"), or nothing ("one")."""
    what = clause.group("what").strip()
    return f" ({what})" if what and what.casefold() not in _NOTHING_NAMED else ""
