"""Dense and sparse text encoders, run by fastembed, with their identity recorded for the index.

Two model sets: ``offline`` (the default) loads the provisioned BGE-small INT8 and SPLADE-tiny folders, no hub
needed; ``full`` asks fastembed for BAAI/bge-base-en-v1.5 and prithivida/Splade_PP_en_v1, which it downloads
where a hub is reachable.

Batching is where the time goes on a CPU: texts are sorted by length and embedded in small batches, so a batch
pads to similar lengths and the (batch x sequence) activations stay small. fastembed's default batch of 256
padded to the longest text measured 27 dense / 12 sparse texts/s here against 53-75 / 68 with batches of 16.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from fastembed import SparseTextEmbedding, TextEmbedding
from fastembed.common.model_description import ModelSource, PoolingType, SparseModelDescription
from fastembed.common.onnx_model import OnnxOutputContext
from fastembed.rerank.cross_encoder import TextCrossEncoder
from fastembed.sparse.sparse_embedding_base import SparseEmbedding
from fastembed.sparse.splade_pp import SpladePP

from sleuth.ingest.errors import ConfigurationError
from sleuth.ingest.tokens import DENSE_MODEL_NAME, TokenCounter, TokenizerNotFoundError
from sleuth.retrieval.provision import RERANKER_NAME, SPARSE_MODEL_NAME

log = logging.getLogger(__name__)

ModelSet = Literal["offline", "full"]
_LOCAL_DENSE = "sleuth/bge-small-en-v1.5-int8"
_LOCAL_SPARSE = "sleuth/splade-tiny-pooled"
_FULL_DENSE = "BAAI/bge-base-en-v1.5"
_FULL_SPARSE = "prithivida/Splade_PP_en_v1"
_LOCAL_RERANKER = "sleuth/ms-marco-MiniLM-L-12-v2-int8"
_FULL_RERANKER = "Xenova/ms-marco-MiniLM-L-12-v2"
#: BGE v1.5's retrieval instruction for short queries (its model card); passages are embedded as they are.
QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: "


class ModelLoadError(ConfigurationError):
    """A model folder is missing or unusable; the message names it and says how to provision it."""


@dataclass(frozen=True, slots=True)
class SparseVector:
    indices: list[int]
    values: list[float]


@dataclass(frozen=True, slots=True)
class ModelIdentity:
    """What the index records about the models that built it; querying with another identity is refused."""

    dense: str
    dense_dim: int
    sparse: str

    def as_dict(self) -> dict[str, Any]:
        return {"dense": self.dense, "dense_dim": self.dense_dim, "sparse": self.sparse}


class _PooledSplade(SpladePP):
    """fastembed's SPLADE runner for a graph that already outputs one pooled vector per text.

    The stock post-processing expects (batch x sequence x vocab) logits; our export pools inside the graph
    (see ``retrieval.splade_export``), so only the zero entries are dropped here.
    """

    @classmethod
    def _list_supported_models(cls) -> list[SparseModelDescription]:
        return [
            SparseModelDescription(
                model=_LOCAL_SPARSE,
                vocab_size=30522,
                description="SPLADE-tiny with pooling in the ONNX graph (provisioned by sleuth)",
                license="apache-2.0",
                size_in_GB=0.03,
                sources=ModelSource(hf="none/provisioned-locally"),
                model_file="model.onnx",
            )
        ]

    def _post_process_onnx_output(
        self, output: OnnxOutputContext, **kwargs: Any
    ) -> Iterable[SparseEmbedding]:
        for row in output.model_output:
            indices = row.nonzero()[0]
            yield SparseEmbedding(values=row[indices], indices=indices)


_register_lock = threading.Lock()


def _register_local_dense() -> None:
    with _register_lock:
        if any(m["model"] == _LOCAL_DENSE for m in TextEmbedding.list_supported_models()):
            return
        TextEmbedding.add_custom_model(
            model=_LOCAL_DENSE,
            pooling=PoolingType.CLS,
            normalization=True,
            sources=ModelSource(hf="none/provisioned-locally"),
            dim=384,
            model_file="model.onnx",
            description="BAAI/bge-small-en-v1.5, INT8 ONNX (provisioned by sleuth)",
        )


def _register_local_reranker() -> None:
    with _register_lock:
        if any(m["model"] == _LOCAL_RERANKER for m in TextCrossEncoder.list_supported_models()):
            return
        TextCrossEncoder.add_custom_model(
            _LOCAL_RERANKER,
            sources=ModelSource(hf="none/provisioned-locally"),
            model_file="model.onnx",
            description="cross-encoder/ms-marco-MiniLM-L-12-v2, INT8 ONNX (provisioned by sleuth)",
        )


def _require(folder: Path) -> Path:
    if not (folder / "model.onnx").is_file():
        raise ModelLoadError(
            f"model folder {folder} has no model.onnx; run `make models` to provision it, or point "
            "SLEUTH_MODELS_DIR (or [index] models_dir) at the folder that holds the provisioned models"
        )
    return folder


#: Pairs the cross-encoder reads at once (see ``Encoders.rerank``).
RERANK_BATCH = 1
#: Cross-encoder sessions at most when ``threads`` is not set: each holds about 40 MB (measured here), and a
#: large machine's every core would cost gigabytes for calls of a few hundred pairs.
DEFAULT_RERANKERS = 8


def _usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the platform has one: a container's two
    cores on a large host), else every core of the machine (macOS, Windows)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


class Encoders:
    """The dense and sparse encoders of one model set, sharing a thread budget."""

    def __init__(
        self,
        models_dir: Path,
        model_set: ModelSet = "offline",
        *,
        threads: int | None = None,
        batch_size: int = 16,
        sparse_batch_size: int = 4,
    ) -> None:
        self.batch_size = batch_size
        self.models_dir = models_dir.expanduser()
        self.threads = threads
        #: Idle cross-encoder sessions (one per core, loaded on first use) and the threads that run them.
        self._rerankers: queue.SimpleQueue[TextCrossEncoder] | None = None
        self._reranker_count = 0
        self._reranker_lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        # SPLADE's graph still holds (batch x sequence x 30,522) logits before pooling: 16 chunks of 256
        # tokens are 0.5 GB per intermediate. Small batches with the memory arena off keep the peak low.
        self.sparse_batch_size = sparse_batch_size
        self.model_set = model_set
        try:
            if model_set == "offline":
                _register_local_dense()
                dense_dir = _require(models_dir.expanduser() / DENSE_MODEL_NAME)
                sparse_dir = _require(models_dir.expanduser() / SPARSE_MODEL_NAME)
                self._dense = TextEmbedding(_LOCAL_DENSE, specific_model_path=str(dense_dir), threads=threads)
                self._sparse: SpladePP | SparseTextEmbedding = _PooledSplade(
                    _LOCAL_SPARSE,
                    specific_model_path=str(sparse_dir),
                    threads=threads,
                    enable_cpu_mem_arena=False,
                )
                self.identity = ModelIdentity(DENSE_MODEL_NAME + "-int8", 384, SPARSE_MODEL_NAME)
            else:
                self._dense = TextEmbedding(_FULL_DENSE, threads=threads)
                self._sparse = SparseTextEmbedding(_FULL_SPARSE, threads=threads, enable_cpu_mem_arena=False)
                self.identity = ModelIdentity(_FULL_DENSE, self._dense.embedding_size, _FULL_SPARSE)
        except ModelLoadError:
            raise
        except Exception as exc:  # fastembed raises bare ValueErrors/OSErrors; the user needs one line
            raise ModelLoadError(f"cannot load the {model_set} models: {exc}") from exc

    def token_counter(self) -> TokenCounter:
        """Counts by the dense model's own tokenizer: chunk limits exist because that model truncates."""
        folder = getattr(self._dense.model, "_model_dir", None)
        if folder is None:
            raise ModelLoadError(f"the dense model of the {self.model_set} set has no local folder")
        try:
            return TokenCounter.from_dir(folder)
        except TokenizerNotFoundError as exc:
            raise ModelLoadError(str(exc)) from exc

    def sparse_token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids of ``texts`` in the sparse model's vocabulary, the space its query weights live in.

        A sentence's relevance to a query can then be read off the query's SPLADE vector (term weights and
        expansions the model learnt) without running the model again.
        """
        runner: Any = self._sparse if isinstance(self._sparse, SpladePP) else self._sparse.model
        if runner.tokenizer is None:
            runner.load_onnx_model()
        encodings = runner.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [[i for i, m in zip(e.ids, e.attention_mask, strict=True) if m] for e in encodings]

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        """Relevance of each text to ``query`` by a cross-encoder (MS MARCO MiniLM-L-12: reads query and
        passage together, so it judges relevance better than comparing two vectors can). Logits; higher is
        more relevant. The model is loaded on first use: ingest never needs it.

        One pair at a time: the offline model is quantized dynamically (each activation's int8 scale is
        taken over the whole batch, padding included), so a pair read in a batch of 16 scored up to 0.98
        apart from the same pair read alone (mean 0.14 over 682 pairs of a research run): a quote's score
        depended on which others were judged with it. Alone it depends on the pair only, and it is no
        slower: no padding (the same 682 pairs, best of three: 9.7 s alone, 12.0 s in batches of 16).

        Pairs read alone are too small to keep several cores busy inside one model run, so the texts are
        read side by side by one session per core (``threads``, else every core this process may use, up to
        ``DEFAULT_RERANKERS``), each on one thread, and a session is never shared: the same scores, bit for
        bit; 288 pairs in 3.0 s against 6.0 s for one session on every core (two cores); a research run,
        whose questions were already judged two at a time by one session on every core, spends about a
        tenth less (docs/BENCHMARKS.md)."""
        if not texts:
            return []
        # (the sessions and threads as they are now: a ``close`` meanwhile lets this call finish on them)
        readers, pool, idle = self._readers()
        n = min(readers, len(texts))
        if n == 1 or pool is None:
            return self._read(idle, query, list(texts))
        try:
            parts = list(pool.map(lambda k: self._read(idle, query, list(texts[k::n])), range(n)))
        except RuntimeError:  # closed between the two lines: read on this thread, with the same sessions
            return self._read(idle, query, list(texts))
        scores = [0.0] * len(texts)
        for k, part in enumerate(parts):
            scores[k::n] = part
        return scores

    def _readers(self) -> tuple[int, ThreadPoolExecutor | None, queue.SimpleQueue[TextCrossEncoder]]:
        """How many sessions read pairs side by side, the threads that run them and the idle sessions,
        loading them on first use."""
        with self._reranker_lock:
            if self._rerankers is None:
                count = max(1, self.threads or min(_usable_cores(), DEFAULT_RERANKERS))
                # Every session loads before any is used: a load that fails leaves nothing half made, and
                # the next call tries again (and says why again).
                sessions = [self._load_reranker() for _ in range(count)]
                idle: queue.SimpleQueue[TextCrossEncoder] = queue.SimpleQueue()
                for session in sessions:
                    idle.put(session)
                if count > 1:
                    self._pool = ThreadPoolExecutor(max_workers=count, thread_name_prefix="rerank")
                self._reranker_count = count
                self._rerankers = idle
            return self._reranker_count, self._pool, self._rerankers

    def close(self) -> None:
        """Stop the threads that read pairs side by side and let go of the cross-encoder sessions (a
        long-lived process that opens and closes indexes would otherwise keep one idle thread and one
        model per core for each ``Encoders`` it made). Safe to call twice; a later ``rerank`` loads them
        again."""
        with self._reranker_lock:
            pool, self._pool = self._pool, None
            self._rerankers = None
            self._reranker_count = 0
        if pool is not None:
            pool.shutdown(wait=True)

    def _load_reranker(self) -> TextCrossEncoder:
        try:
            if self.model_set == "offline":
                _register_local_reranker()
                folder = _require(self.models_dir / RERANKER_NAME)
                return TextCrossEncoder(_LOCAL_RERANKER, specific_model_path=str(folder), threads=1)
            return TextCrossEncoder(_FULL_RERANKER, threads=1)
        except ModelLoadError:
            raise
        except Exception as exc:
            raise ModelLoadError(f"cannot load the reranker of the {self.model_set} set: {exc}") from exc

    @staticmethod
    def _read(idle: queue.SimpleQueue[TextCrossEncoder], query: str, texts: list[str]) -> list[float]:
        """Scores of ``texts`` by one idle session, held alone while it reads (a session is not shared), and
        given back to the queue it came from."""
        session = idle.get()
        try:
            return [float(score) for score in session.rerank(query, texts, batch_size=RERANK_BATCH)]
        finally:
            idle.put(session)

    def embed_passages(self, texts: Sequence[str]) -> tuple[np.ndarray, list[SparseVector]]:
        """Dense (n x dim, unit length) and sparse vectors of ``texts``, in input order."""
        if not texts:
            return np.zeros((0, self.identity.dense_dim), dtype=np.float32), []
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        ordered = [texts[i] for i in order]
        dense_sorted = np.stack(list(self._dense.embed(ordered, batch_size=self.batch_size)))
        sparse_sorted = list(_sparse_vectors(self._sparse.embed(ordered, batch_size=self.sparse_batch_size)))
        dense = np.empty_like(dense_sorted)
        sparse: list[SparseVector] = [sparse_sorted[0]] * len(texts)
        for rank, original in enumerate(order):
            dense[original] = dense_sorted[rank]
            sparse[original] = sparse_sorted[rank]
        return dense, sparse

    def embed_query(self, text: str) -> tuple[list[float], SparseVector]:
        ((dense, sparse),) = self.embed_queries([text])
        return dense, sparse

    def embed_queries(self, texts: Sequence[str]) -> list[tuple[list[float], SparseVector]]:
        """Dense (with BGE's query instruction) and sparse vectors of several queries.

        Each query's dense vector is encoded alone: the dense model's vector of a text shifts with the other
        texts of its batch (cosine 0.997 to itself encoded alone), and a research run that searched its
        question in a batch with its asks ranked other documents tenth than ``sleuth search`` of the same
        text did. A query is one search whatever else is asked with it (and costs milliseconds alone)."""
        if not texts:
            return []
        dense = self._dense.embed([QUERY_INSTRUCTION + t for t in texts], batch_size=1)
        sparse = _sparse_vectors(self._sparse.embed(list(texts), batch_size=self.sparse_batch_size))
        return [([float(x) for x in d], s) for d, s in zip(dense, sparse, strict=True)]

    def embed_dense(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Unit-length dense vectors only (similarities between texts: routing, near duplicates)."""
        if not texts:
            return np.zeros((0, self.identity.dense_dim), dtype=np.float32)
        prefix = QUERY_INSTRUCTION if query else ""
        return np.stack(list(self._dense.embed([prefix + t for t in texts], batch_size=self.batch_size)))


def _sparse_vectors(embeddings: Iterable[SparseEmbedding]) -> Iterator[SparseVector]:
    for emb in embeddings:
        yield SparseVector(indices=[int(i) for i in emb.indices], values=[float(v) for v in emb.values])
