"""Citation: which evidence a report may cite, how directly each piece answers the request, and the text each
quote is checked against before it is.

No fixed number of documents: a report cites every document that carries distinct, relevant evidence, bounded
per section by the sections themselves. What enters routing is the pinned evidence, the backbone (the best
quote of each top document of the request's own searches) and the rest by how well it answers its question,
up to ``max_cited`` pieces. Evidence found for a section's question or a lead has not been judged against the
request itself; for the summary ("the most direct answers first") it is, here, once. The backbone is cited
beside the best answers, never instead of them (a top document whose best quote scores far below an answer
found for one of the request's asks is no reason to drop that answer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.exclusions import Exclusions
from sleuth.agent.research.judged_forms import Judge, judged
from sleuth.agent.research.quotes import in_context, readable
from sleuth.agent.research.request import Request
from sleuth.agent.research.sources import EvidenceSource

#: Evidence that enters routing at most besides the pinned and backbone evidence (which always does).
MAX_CITED = 24
#: Asks of a long request that directness is judged against at most (the first ones).
MAX_ASKS = 4


class Citation:
    def __init__(self, request: Request, *, sources: Sequence[EvidenceSource], judge: Judge) -> None:
        self.request = request
        self.sources = sources
        self.judge = judge
        self.exclusions = Exclusions(request.ruled, subject=request.subject)

    def source_texts(self, items: Sequence[Evidence]) -> dict[str, str | None]:
        """The visible text each quote must stand in, read again from the source that gave it (a quote that
        runs on into the next chunk: both chunks)."""
        out: dict[str, str | None] = {e.id: None for e in items}
        for source in self.sources:
            mine = [e for e in items if e.kind == source.kind]
            wanted = {e.chunk_id for e in mine if e.chunk_id} | {
                e.continued_in for e in mine if e.continued_in
            }
            stored = source.texts(sorted(wanted)) if wanted else {}
            for e in mine:
                chunk = stored.get(e.chunk_id or "")
                if chunk is None:
                    continue
                following = stored.get(e.continued_in) if e.continued_in else None
                out[e.id] = readable(chunk, following).text
        return out

    def ruled_out(self, items: Sequence[Evidence]) -> dict[str, str]:
        """The evidence that names a thing the request rules out ("don't suggest Dovecot": the Dovecot
        authenticator's chapter, a quote with ``dovecot_plain``), by id, with the thing it names; a piece the
        reviewer pinned is the reviewer's choice and stays."""
        if not self.exclusions:
            return {}
        out: dict[str, str] = {}
        for e in items:
            thing = (
                None if e.pinned else self.exclusions.about(e.quote, heading=e.section_path, title=e.title)
            )
            if thing is not None:
                out[e.id] = thing
        return out

    def choose(
        self, items: Sequence[Evidence], limit: int = MAX_CITED, *, ruled_out: Mapping[str, str] | None = None
    ) -> list[Evidence]:
        """What may be cited: pinned and backbone evidence, then the best answers, each judged against the
        request (``relevance``) where it was not already; never what the request rules out (``ruled_out``,
        when the caller has it already)."""
        out = self.ruled_out(items) if ruled_out is None else ruled_out
        live = [e for e in items if not e.dropped and e.id not in out]
        must = [e for e in live if e.pinned or e.backbone]
        rest = sorted((e for e in live if not (e.pinned or e.backbone)), key=lambda e: -e.score)
        chosen = [*must, *rest[:limit]]  # the backbone never takes an answer's place
        return self.directness(chosen)

    def directness(self, items: list[Evidence]) -> list[Evidence]:
        """Each piece's ``relevance``: how directly it answers the request (the best over its asks)."""
        todo = [e for e in items if e.relevance == 0.0]
        if not todo:
            return items
        rows = self._judged(self.request.asks[:MAX_ASKS], todo)
        best = [max(column) for column in zip(*rows, strict=True)] if rows else [float("-inf")] * len(todo)
        judged = {e.id: round(b, 4) for e, b in zip(todo, best, strict=True)}
        return [e.model_copy(update={"relevance": judged[e.id]}) if e.id in judged else e for e in items]

    def answers_to(
        self, asks: Sequence[str], items: Sequence[Evidence], *, judged: int | None = None
    ) -> dict[str, dict[str, float]]:
        """How well each piece answers each of ``asks``, by id: the parts of a question that joins two ("Are
        foreign key constraints enforced by default, and how do I turn enforcement on?") or a long request's
        asks, each answered by its own best quote whichever search found it (a quote is the ledger's once,
        under the first question that found it).

        A piece its ask's own search found keeps the score it was admitted with (judged against that ask
        then). ``judged``: the others read for each ask, the most direct first (all when ``None``)."""
        ranked = sorted(items, key=lambda e: -e.relevance)
        out: dict[str, dict[str, float]] = {}
        for ask in asks:
            own = {e.id: e.relevance for e in items if e.question == ask and e.relevance != 0.0}
            others = [e for e in ranked if e.id not in own][:judged]
            (row,) = self._judged([ask], others) if others else ([],)
            out[ask] = {**own, **{e.id: round(s, 4) for e, s in zip(others, row, strict=True)}}
        return out

    def answers_in_full(
        self,
        asks: Sequence[str],
        answers: Mapping[str, Mapping[str, float]],
        items: Sequence[Evidence],
        *,
        floor: float,
    ) -> dict[str, dict[str, float]]:
        """``answers`` (``answers_to``'s) with every piece of ``items`` (what the report may cite) judged for
        each ask that none of its judged pieces answers (none reaches ``floor``). A long request's asks are
        judged against the most direct pieces only: aspell's "cs option,value | Change a configuration
        option" stood in the details unjudged for "is there a way to change a configuration option", and the
        summary said no passage answered it. Pairs are read only for such asks, which are few."""
        out = {ask: dict(scores) for ask, scores in answers.items()}
        unique = list({e.id: e for e in items}.values())
        unanswered = [
            ask
            for ask in asks
            if max((out.get(ask, {}).get(e.id, float("-inf")) for e in unique), default=float("-inf")) < floor
        ]
        if unanswered and unique:
            for ask, scores in self.answers_to(unanswered, unique).items():
                out.setdefault(ask, {}).update(scores)
        return out

    def _judged(self, asks: Sequence[str], items: Sequence[Evidence]) -> list[list[float]]:
        """The judge's score of each piece (its quote in context) for each ask, one row per ask, as admission
        judges them (``judged_forms``: the whole ask and the part of it that asks, the better; an ask that
        asks what happens when nothing is set is judged as asking for the default too)."""
        contexts = [in_context(e.quote, title=e.title, section_path=e.section_path) for e in items]
        return [judged(self.judge, ask, contexts) for ask in asks]
