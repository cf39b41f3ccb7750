"""Child process of one attempt: ``python -m prover.eval.worker REQUEST.json RESULT.json``.

It sets its own hard limits *before* importing any attempt code (so the attempt cannot run
outside them): address space (RLIMIT_AS, both soft and hard, so it cannot be raised again),
CPU time as a backstop to the parent's wall-clock kill, no core dumps, and death with its
parent (PR_SET_PDEATHSIG) so a killed runner leaves no orphans. Then it runs the attempt
function and writes its result dict as JSON (via a temporary file and rename: the parent
sees a complete result or none). The parent classifies deaths without a result (crash,
signal, timeout); a ``MemoryError`` raised inside the limit is recorded here as ``memory``.

Only the standard library is imported at module level: the worker must start fast.
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
import json
import os
import resource
import signal
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

PR_SET_PDEATHSIG = 1


def set_limits(memory_mb: int, cpu_s: int) -> None:
    """Hard resource limits for this process (inherited by anything it starts)."""
    if memory_mb > 0:
        b = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (b, b))
    if cpu_s > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 5))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def die_with_parent(parent_pid: int) -> None:
    """Ask the kernel to SIGKILL us when the parent dies; exit now if it already has."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent's CPU limit still applies
        pass
    if parent_pid and os.getppid() != parent_pid:
        os._exit(70)


def load_attempt(spec: str) -> Callable[..., dict[str, Any]]:
    """``"package.module:function"`` or ``"path/to/file.py:function"``."""
    mod_name, sep, fn_name = spec.rpartition(":")
    if not sep or not mod_name or not fn_name:
        raise ValueError(f"attempt spec {spec!r} is not MODULE:FUNCTION")
    if mod_name.endswith(".py"):
        path = Path(mod_name)
        mspec = importlib.util.spec_from_file_location(f"_prover_attempt_{path.stem}", path)
        if mspec is None or mspec.loader is None:
            raise ImportError(f"cannot load {path}")
        module = importlib.util.module_from_spec(mspec)
        mspec.loader.exec_module(module)
    else:
        module = importlib.import_module(mod_name)
    fn = getattr(module, fn_name, None)
    if not callable(fn):
        raise TypeError(f"{mod_name} has no function {fn_name!r}")
    return fn


def run_request(req: dict[str, Any]) -> dict[str, Any]:
    """Run the attempt; never raises (errors become result dicts)."""
    t0 = time.monotonic()
    try:
        fn = load_attempt(req["attempt"])
        result = fn(req["record"], float(req["time_limit"]), dict(req.get("options", {})))
        if not isinstance(result, dict) or "status" not in result:
            result = {"status": "error", "error": f"attempt returned {type(result).__name__}, not a result dict"}
    except MemoryError:
        result = {"status": "memory", "error": f"MemoryError (limit {req.get('memory_mb')} MB)"}
    except Exception as exc:  # noqa: BLE001 - any failure of one attempt is that attempt's record
        tb = traceback.format_exc(limit=-4)
        result = {"status": "error", "error": f"{type(exc).__name__}: {exc}", "traceback": tb[-2000:]}
    result.setdefault("time_s", time.monotonic() - t0)
    return result


def write_result(path: Path, result: dict[str, Any]) -> None:
    try:
        text = json.dumps(result, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        text = json.dumps({"status": "error", "error": f"result not JSON-serializable: {exc}",
                           "time_s": result.get("time_s")})
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def main(argv: list[str]) -> int:
    req_path, res_path = Path(argv[0]), Path(argv[1])
    req = json.loads(req_path.read_text(encoding="utf-8"))
    set_limits(int(req.get("memory_mb", 0)), int(req.get("cpu_limit_s", 0)))
    die_with_parent(int(req.get("parent_pid", 0)))
    for p in reversed(req.get("sys_path", [])):
        if p not in sys.path:
            sys.path.insert(0, p)
    write_result(res_path, run_request(req))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
