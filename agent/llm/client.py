"""Structured calls to any OpenAI-compatible endpoint through instructor, within a run's budget.

instructor validates each answer against a Pydantic model and sends the validation error back for another
try. Small local models often wrap JSON in ``<think>`` blocks or code fences, or add prose around it: when
instructor gives up, the last raw answer is repaired here (those wrappers stripped, the first JSON object
taken) and validated once more. A call that still fails returns None: the caller falls back to the
extractive step for that item, and the failure is counted, never raised.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)
_THINK = re.compile(r"<think>.*?(</think>|$)", re.S | re.I)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)
#: Longest answer text looked at (a 5 MB answer is refused, not parsed).
MAX_ANSWER_CHARS = 200_000


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str
    api_key: str = "none"
    mode: Literal["tools", "json"] = "tools"
    timeout: float = 60.0
    retries: int = 1
    max_calls: int = 40
    max_tokens: int = 60_000
    max_answer_tokens: int = 1024
    temperature: float = 0.0


@dataclass
class LLMUsage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    repaired: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    refused_over_budget: int = 0

    def fail(self, reason: str) -> None:
        self.failures[reason] = self.failures.get(reason, 0) + 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "repaired": self.repaired,
            "failures": dict(self.failures),
            "refused_over_budget": self.refused_over_budget,
        }


class LLMClient:
    """``ask(Model, system, user)`` -> a validated ``Model`` or None (fallback), within the run's budget."""

    def __init__(self, config: LLMConfig) -> None:
        import instructor  # noqa: PLC0415 - only runs with an LLM load the SDKs
        from openai import OpenAI  # noqa: PLC0415

        self.config = config
        self.usage = LLMUsage()
        self._lock = threading.Lock()
        raw = OpenAI(base_url=config.base_url, api_key=config.api_key, timeout=config.timeout, max_retries=0)
        mode = instructor.Mode.TOOLS if config.mode == "tools" else instructor.Mode.JSON
        self._client = instructor.from_openai(raw, mode=mode)
        self._raw = raw
        self._switched = False

    def _use_json(self) -> None:
        import instructor  # noqa: PLC0415

        self._switched = True
        self._client = instructor.from_openai(self._raw, mode=instructor.Mode.JSON)

    def close(self) -> None:
        self._raw.close()

    def ask(self, model: type[M], system: str, user: str) -> M | None:
        if not self._reserve():
            return None
        messages: list[dict[str, str]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        try:
            answer, completion = self._client.chat.completions.create_with_completion(
                model=self.config.model,
                response_model=model,
                messages=messages,  # type: ignore[arg-type]
                max_retries=self.config.retries,
                max_tokens=self.config.max_answer_tokens,
                temperature=self.config.temperature,
            )
        except Exception as exc:  # timeouts, HTTP errors, validation failures: all fall back
            if self.config.mode == "tools" and type(exc).__name__ == "BadRequestError" and not self._switched:
                # An endpoint without tool calls: JSON mode from now on, this call again.
                log.warning("the LLM endpoint refused tool calls (%s); using JSON mode", exc)
                self._use_json()
                with self._lock:
                    self.usage.calls -= 1
                return self.ask(model, system, user)
            last = getattr(exc, "last_completion", None)
            self._account(getattr(exc, "total_usage", None) or getattr(last, "usage", None))
            repaired = self._repair(model, exc)
            if repaired is not None:
                return repaired
            reason = _reason(exc)
            self.usage.fail(reason)
            log.warning("LLM call failed (%s); the extractive step is used instead", reason)
            return None
        self._account(getattr(completion, "usage", None))
        return answer

    def _reserve(self) -> bool:
        with self._lock:
            spent = self.usage.prompt_tokens + self.usage.completion_tokens
            if self.usage.calls >= self.config.max_calls or spent >= self.config.max_tokens:
                self.usage.refused_over_budget += 1
                return False
            self.usage.calls += 1
            return True

    def _account(self, usage: Any) -> None:
        if usage is None:
            return
        with self._lock:
            self.usage.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
            self.usage.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)

    def _repair(self, model: type[M], exc: Exception) -> M | None:
        completion = getattr(exc, "last_completion", None)
        text = _answer_text(completion)
        if not text:
            return None
        value = repair_json(text)
        if value is None:
            return None
        try:
            parsed = model.model_validate(value)
        except ValidationError:
            return None
        self.usage.repaired += 1
        return parsed


def repair_json(text: str) -> Any | None:
    """The first JSON object in a model's answer, after ``<think>`` blocks and code fences are removed."""
    if len(text) > MAX_ANSWER_CHARS:
        return None
    text = _THINK.sub("", text)
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1)
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _answer_text(completion: Any) -> str:
    try:
        message = completion.choices[0].message
    except (AttributeError, IndexError, TypeError):
        return ""
    if getattr(message, "tool_calls", None):
        try:
            return str(message.tool_calls[0].function.arguments)
        except (AttributeError, IndexError):
            return ""
    return str(getattr(message, "content", "") or "")


def _reason(exc: Exception) -> str:
    name = type(exc).__name__
    text = str(exc).lower()
    if "timeout" in name.lower() or "timed out" in text:
        return "timeout"
    if "connect" in name.lower():
        return "unreachable"
    if "validation" in text or "retry" in name.lower():
        return "invalid answer"
    return name
