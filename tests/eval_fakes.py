"""Fake attempt functions for tests/test_eval*.py: each misbehaves in one specific way."""

from __future__ import annotations

import os
import time
from typing import Any


def ok(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    return {"status": "proved", "time_s": 0.01, "steps": 2, "lemmas": ["amgm2"], "certificate_size": 42,
            "proof": {"format": "fake", "id": record["id"]}}


def slow_ok(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    time.sleep(float(os.environ.get("EVAL_FAKE_SLEEP", "0.25")))
    return ok(record, time_limit, options)


def sleepy(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    time.sleep(1000)
    return ok(record, time_limit, options)


def crash(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    os._exit(3)


def segfault(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    import ctypes

    ctypes.string_at(0)
    return {}


def memory_hog(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    blocks, size = [], 2**20
    while True:  # doubling blocks: grows without bound until the memory limit stops it
        blocks.append(bytearray(size))
        size *= 2


def raises(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    raise ValueError("bad things")


def spin(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    """CPU-bound work of fixed size (for throughput measurements)."""
    t0 = time.monotonic()
    n = int(os.environ.get("EVAL_FAKE_SPIN", "3000000"))
    acc = 0
    for i in range(n):
        acc = (acc + i * i) % 1000003
    return {"status": "not_proved", "time_s": time.monotonic() - t0, "acc": acc}


def echo_options(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    return {"status": "not_proved", "time_s": 0.0, "stats": {"options": options, "time_limit": time_limit}}


def by_name(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    """P2 crashes, P3 segfaults, P4 blows its memory, P5 sleeps past the limit, P6 raises."""
    behaviour = {"P2": crash, "P3": segfault, "P4": memory_hog, "P5": sleepy, "P6": raises}
    fn = behaviour.get(record["id"].rsplit("/", 1)[-1], ok)
    return fn(record, time_limit, options)


def real_proof(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    """A real kernel-checked proof (of a 4-variable cyclic inequality), whatever the problem: its
    .lean renders."""
    import json
    from pathlib import Path

    proof = json.loads((Path(__file__).parent / "data" / "shapiro4.proof.json").read_text(encoding="utf-8"))
    return {"status": "proved", "time_s": 0.02, "steps": 2, "proof": proof}


def hash_seed(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    """Reports the attempt's hash seed and a string hash (equal in every attempt when the seed is fixed)."""
    return {"status": "not_proved", "time_s": 0.0,
            "stats": {"seed": os.environ.get("PYTHONHASHSEED"), "hash": hash("prover")}}
