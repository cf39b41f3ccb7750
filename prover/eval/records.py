"""The append-only record log ``records.jsonl``: one JSON object per finished problem.

Crash safety: each record is one ``write`` of a full line on an ``O_APPEND`` descriptor,
followed by ``fsync``; only the runner's main thread writes. A kill at any moment can
therefore leave at most one torn (unterminated or unparsable) last line, which
:meth:`RecordLog.open` detects and cuts off, so that problem is attempted again.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class RecordLog:
    path: Path
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    repaired: list[str] = field(default_factory=list)   # what open() had to drop, for the user
    _fd: int | None = None

    @staticmethod
    def read(path: Path) -> tuple[dict[str, dict[str, Any]], list[str]]:
        """Parse ``path``; return (records by key, notes on the lines dropped).

        A bad line that is not the last one cannot come from a torn write; it is still dropped
        (and reported) rather than trusted.
        """
        records: dict[str, dict[str, Any]] = {}
        notes: list[str] = []
        if not path.exists():
            return records, notes
        data = path.read_bytes()
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            end = len(data) if nl < 0 else nl + 1
            line = data[pos:end]
            rec = None
            if nl >= 0:
                try:
                    rec = json.loads(line)
                except (json.JSONDecodeError, UnicodeDecodeError):
                    rec = None
            if isinstance(rec, dict) and not isinstance(rec.get("key"), str) and isinstance(rec.get("id"), str):
                rec = {**rec, "key": rec["id"]}   # a slim copy in results/ (the key is the id)
            if isinstance(rec, dict) and isinstance(rec.get("key"), str):
                if rec["key"] in records:
                    notes.append(f"duplicate record for {rec['key']} ignored")
                else:
                    records[rec["key"]] = rec
            else:
                where = "torn last line" if end == len(data) else f"bad line at byte {pos}"
                notes.append(f"{where} dropped ({len(line)} bytes)")
            pos = end
        return records, notes

    @classmethod
    def open(cls, path: Path) -> RecordLog:
        """Load existing records, repair the file if needed, and open it for appending."""
        path.parent.mkdir(parents=True, exist_ok=True)
        records, notes = cls.read(path)
        if notes:
            _rewrite(path, records)
        log = cls(path, records, notes)
        log._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        return log

    def append(self, record: dict[str, Any]) -> None:
        """Durably append one record (one write + fsync)."""
        assert self._fd is not None, "RecordLog not open"
        line = (json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
        n = os.write(self._fd, line)
        if n != len(line):  # a short write on a regular file means the disk is full
            raise OSError(f"short write to {self.path} ({n} of {len(line)} bytes)")
        os.fsync(self._fd)
        self.records[record["key"]] = record

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _rewrite(path: Path, records: dict[str, dict[str, Any]]) -> None:
    """Replace ``path`` atomically by the good records only."""
    tmp = path.with_suffix(".jsonl.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n" for rec in records.values())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_records(path: Path) -> dict[str, dict[str, Any]]:
    """Records of a finished or interrupted run (read-only; torn lines ignored)."""
    return RecordLog.read(path)[0]


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``path`` via a temporary file + rename, so readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
