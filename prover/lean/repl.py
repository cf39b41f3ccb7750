"""Client for the leanprover-community REPL (``lake exe repl``): JSON commands on stdin, JSON
replies on stdout, each terminated by a blank line.

Commands used: ``{"cmd": text}`` (new environment; only such a command may ``import``),
``{"cmd": text, "env": n}`` (build on environment ``n``), ``{"tactic": t, "proofState": n}``.
Replies carry ``env``, ``messages`` (``severity``/``data``), ``sorries`` (with ``proofState``),
``proofState``/``goals``, or ``{"message": "..."}`` for an error of the REPL itself (a failing
tactic is reported that way: ``"Lean error:\\n…"``).

The REPL has no time limit of its own and cannot be interrupted, so a command that runs past
its timeout kills the process; the client then restarts it on the next request (re-running the
header, e.g. ``import Mathlib``, once) and bumps :attr:`LeanRepl.generation` so callers know
that environment and proof-state numbers from before are gone. The same happens after a crash
or unreadable output.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self


class ReplError(RuntimeError):
    """Base class: the REPL process could not answer a request."""


class ReplTimeout(ReplError):
    """No reply within the timeout; the process was killed and will be restarted."""


class ReplCrash(ReplError):
    """The process exited (or could not be started)."""


class ReplProtocolError(ReplError):
    """The process wrote something that is not a REPL JSON reply."""


@dataclass
class ReplReply:
    """One JSON reply, with the fields callers look at."""

    data: dict[str, Any]

    @property
    def env(self) -> int | None:
        return self.data.get("env")

    @property
    def proof_state(self) -> int | None:
        return self.data.get("proofState")

    @property
    def goals(self) -> list[str]:
        return list(self.data.get("goals", []))

    @property
    def sorries(self) -> list[dict[str, Any]]:
        return list(self.data.get("sorries", []))

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.data.get("messages", []))

    @property
    def errors(self) -> list[str]:
        """Lean's error messages, or the REPL's own ``message`` (e.g. a failed tactic)."""
        out = [m.get("data", "") for m in self.messages if m.get("severity") == "error"]
        if "message" in self.data:
            out.insert(0, str(self.data["message"]))
        return out

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class LeanRepl:
    """A long-lived REPL process with per-command timeouts and restart on failure.

    ``argv`` is the command line (default ``lake exe repl``) run in ``cwd`` (the Lake project).
    ``header`` is sent once after every (re)start, without ``env``; its environment number is
    :attr:`base_env`, so later commands reuse the elaborated ``import Mathlib``.
    """

    argv: list[str] = field(default_factory=lambda: ["lake", "exe", "repl"])
    cwd: Path | None = None
    timeout: float = 60.0
    header: str | None = "import Mathlib"
    header_timeout: float = 900.0
    env: dict[str, str] | None = None
    generation: int = 0
    restarts: int = 0
    base_env: int | None = None
    _proc: subprocess.Popen | None = field(default=None, repr=False)
    _lines: queue.Queue[str | None] = field(default_factory=queue.Queue, repr=False)
    _stderr: list[str] = field(default_factory=list, repr=False)

    # ------------------------------------------------------------ process management

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Start the process (if not running) and run the header."""
        if self.alive:
            return
        if self.generation:
            self.restarts += 1
        self._kill()
        self.generation += 1
        self._lines = queue.Queue()
        self._stderr = []
        try:
            self._proc = subprocess.Popen(
                self.argv, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1,
                env={**os.environ, **(self.env or {})})
        except OSError as exc:
            self._proc = None
            raise ReplCrash(f"cannot start {' '.join(self.argv)}: {exc}") from None
        threading.Thread(target=self._pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=self._pump_err, args=(self._proc.stderr, self._stderr), daemon=True).start()
        self.base_env = None
        if self.header:
            reply = self._request({"cmd": self.header}, self.header_timeout)
            if not reply.ok or reply.env is None:
                self._kill()
                raise ReplCrash(f"header failed: {'; '.join(reply.errors) or reply.data}")
            self.base_env = reply.env

    def close(self) -> None:
        self._kill()

    def _kill(self) -> None:
        p, self._proc = self._proc, None
        if p is None:
            return
        for stream in (p.stdin,):
            try:
                stream.close()
            except OSError:
                pass
        if p.poll() is None:
            p.kill()
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - kill does not fail in practice
            pass

    @staticmethod
    def _pump(stream: Any, q: queue.Queue[str | None]) -> None:
        for line in iter(stream.readline, ""):
            q.put(line)
        q.put(None)

    @staticmethod
    def _pump_err(stream: Any, sink: list[str]) -> None:
        for line in iter(stream.readline, ""):
            sink.append(line)
            del sink[:-50]

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ requests

    def command(self, cmd: str, env: int | None = None, timeout: float | None = None) -> ReplReply:
        """Elaborate ``cmd`` on top of environment ``env`` (default: the header's)."""
        self.start()
        env = self.base_env if env is None else env
        req: dict[str, Any] = {"cmd": cmd}
        if env is not None:
            req["env"] = env
        return self._request(req, timeout)

    def tactic(self, tactic: str, proof_state: int, timeout: float | None = None) -> ReplReply:
        """Run ``tactic`` on proof state ``proof_state``."""
        self.start()
        return self._request({"tactic": tactic, "proofState": proof_state}, timeout)

    def _request(self, req: dict[str, Any], timeout: float | None) -> ReplReply:
        assert self._proc is not None and self._proc.stdin is not None
        limit = self.timeout if timeout is None else timeout
        try:
            self._proc.stdin.write(json.dumps(req, ensure_ascii=False) + "\n\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._died("while sending a request")
        text = self._read_block(limit)
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            self._kill()
            raise ReplProtocolError(f"unreadable REPL output (process restarted): {text[:200]!r}") from None
        if not isinstance(data, dict):
            self._kill()
            raise ReplProtocolError(f"REPL reply is not a JSON object: {text[:200]!r}")
        return ReplReply(data)

    def _read_block(self, limit: float) -> str:
        deadline = time.monotonic() + limit
        buf: list[str] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._kill()
                raise ReplTimeout(f"no reply within {limit:g} s (Lean process killed; it restarts on the next request)")
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                if buf:
                    return "".join(buf)
                self._died("before replying")
            if line.strip():
                buf.append(line)
            elif buf:
                return "".join(buf)

    def _died(self, when: str) -> None:
        code = self._proc.poll() if self._proc is not None else None
        if self._proc is not None and code is None:
            try:
                code = self._proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        err = "".join(self._stderr[-5:]).strip()
        self._kill()
        raise ReplCrash(f"Lean REPL exited {when} (code {code})" + (f": {err}" if err else ""))
