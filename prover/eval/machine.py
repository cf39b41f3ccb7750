"""What a run ran on (for ``run.json``): CPU, cores, memory, load, Python, git commit."""

from __future__ import annotations

import os
import platform
import socket
import subprocess
from pathlib import Path
from typing import Any


def _proc_field(path: str, key: str) -> str | None:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def git_commit(cwd: Path | None = None) -> dict[str, Any]:
    def git(*args: str) -> str | None:
        try:
            r = subprocess.run(["git", *args], check=False, cwd=cwd, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return r.stdout.strip() if r.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": bool(dirty) if dirty is not None else None}


def machine_info() -> dict[str, Any]:
    mem_kb = _proc_field("/proc/meminfo", "MemTotal")
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {
        "host": socket.gethostname(),
        "cpu_model": _proc_field("/proc/cpuinfo", "model name") or platform.processor() or None,
        "cores": os.cpu_count(),
        "memory_gib": round(int(mem_kb.split()[0]) / 1024 / 1024, 1) if mem_kb else None,
        "load_avg": [round(x, 2) for x in load] if load else None,
        "python": platform.python_version(),
        "python_hash_seed": os.environ.get("PYTHONHASHSEED", "0"),   # what the attempts run with
        "platform": platform.platform(),
        "git": git_commit(Path(__file__).resolve().parent),
    }
