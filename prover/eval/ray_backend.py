"""Distributed attempts on a Ray cluster (``prover eval --ray ADDRESS``; optional extra ``ray``).

Each problem becomes one Ray task (``num_cpus=1``, no retries) that runs the very same
:func:`prover.eval.isolate.run_isolated` on its node, so the hard time and memory limits hold
there too. Records are still written only by the driver, so resume works as locally.
``ADDRESS`` is a cluster address (``ray://host:10001``, ``host:6379``, ``auto``) or ``local``
(start a private Ray instance on this machine with ``--workers`` CPUs).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from prover.eval.config import EvalConfig
from prover.eval.isolate import Limits, run_isolated
from prover.eval.tasks import EvalError, Task


def _attempt_task(attempt: str, record: dict[str, Any], options: dict[str, Any], limits: Limits,
                  sys_path: list[str]) -> dict[str, Any]:
    import socket

    result = run_isolated(attempt, record, options, limits, sys_path=sys_path)
    result["node"] = socket.gethostname()
    return result


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast with one clear line when ``host:port`` does not answer (``ray.init`` would
    otherwise keep retrying for minutes)."""
    import socket

    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto" and the like: left to Ray
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout).close()
    except OSError as exc:
        raise EvalError(f"cannot reach the Ray cluster at {address}: {exc}") from None


def ray_executor(cfg: EvalConfig, tasks: list[Task],
                 sys_path: list[str] | None = None) -> tuple[Callable[[], Iterator[tuple[Task, dict]]],
                                                             Callable[[], None]]:
    try:
        import ray
    except ImportError:
        raise EvalError("--ray needs Ray: pip install 'prover[ray]' (or pip install ray)") from None
    started = not ray.is_initialized()
    if started:
        if cfg.ray_address == "local":
            ray.init(num_cpus=cfg.workers, include_dashboard=False, log_to_driver=False)
        else:
            check_reachable(cfg.ray_address)
            try:
                ray.init(address=cfg.ray_address, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise EvalError(f"cannot connect to the Ray cluster at {cfg.ray_address}: {exc}") from None
    remote = ray.remote(num_cpus=1, max_retries=0)(_attempt_task)
    limits = cfg.limits()
    queue = list(tasks)
    inflight: dict[Any, Task] = {}

    def submit() -> None:
        while queue and len(inflight) < cfg.workers:
            t = queue.pop(0)
            inflight[remote.remote(cfg.attempt, t.record, cfg.attempt_options(), limits, sys_path or [])] = t

    def results() -> Iterator[tuple[Task, dict]]:
        submit()
        while inflight:
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=0.5)
            for ref in ready:
                task = inflight.pop(ref)
                try:
                    result = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - a lost node/worker is this attempt's record
                    result = {"status": "crashed", "error": f"Ray task failed: {type(exc).__name__}: {exc}"[:1500]}
                yield task, result
            submit()

    def stop() -> None:
        for ref in list(inflight):
            with contextlib.suppress(Exception):  # already finished
                ray.cancel(ref, force=True)
        inflight.clear()
        queue.clear()
        if started:
            ray.shutdown()

    return results, stop
