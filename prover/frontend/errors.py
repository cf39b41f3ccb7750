"""The one error type of the front-end: a user mistake or an unsupported construct.

``str(err)`` is one line naming the construct and its 1-based column (and the line, for
multi-line input), which the CLI prints as ``error: ...`` before exiting with status 2.
"""

from __future__ import annotations


class ParseError(ValueError):
    def __init__(self, message: str, column: int = 1, line: int = 1) -> None:
        self.message = message
        self.column = column
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line > 1:
            return f"{self.message} (line {self.line}, column {self.column})"
        return f"{self.message} (column {self.column})"


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of character ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


class Located(Exception):
    """Internal: an error at a character offset, turned into :class:`ParseError` at the top."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def to_parse_error(self, text: str) -> ParseError:
        line, col = line_col(text, self.offset)
        return ParseError(self.message, col, line)
