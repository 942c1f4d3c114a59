"""Retrieval: the offline models, the hybrid dense + sparse index, ingestion into it, search, evaluation, and
web evidence. Imports ingest, never agent.

This face is what front ends import; modules inside the package import each other directly.
"""

from sleuth.retrieval.beir import Dataset, DatasetError, write_trec_run
from sleuth.retrieval.encoders import Encoders, ModelIdentity, ModelLoadError, SparseVector
from sleuth.retrieval.evaluation import RetrievalEval, evaluate, index_corpus
from sleuth.retrieval.index import DocumentRecord, Index, ModelMismatchError
from sleuth.retrieval.ingestion import Ingestor, IngestProgress, IngestReport, Shard, SourceText
from sleuth.retrieval.search import SEARCHABLE_TYPES, FilterProblem, Searcher, SearchFilters, SearchHit
from sleuth.retrieval.store import IndexBusyError, Store, StoreError, open_store
from sleuth.retrieval.store.base import DEFAULT_FUSION, Fusion, Mode

__all__ = [
    "DEFAULT_FUSION",
    "SEARCHABLE_TYPES",
    "Dataset",
    "DatasetError",
    "DocumentRecord",
    "Encoders",
    "FilterProblem",
    "Fusion",
    "Index",
    "IndexBusyError",
    "IngestProgress",
    "IngestReport",
    "Ingestor",
    "Mode",
    "ModelIdentity",
    "ModelLoadError",
    "ModelMismatchError",
    "RetrievalEval",
    "SearchFilters",
    "SearchHit",
    "Searcher",
    "Shard",
    "SourceText",
    "SparseVector",
    "Store",
    "StoreError",
    "evaluate",
    "index_corpus",
    "open_store",
    "write_trec_run",
]
