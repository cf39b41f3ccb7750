"""Mathlib version profiles: which release a rendered file targets (``--mathlib TAG``).

The renderer writes Lean for Mathlib ``v4.16.0`` (the pin of ``lean_project/`` and the version the
replay model ``prover.lean.replay`` models). A profile says how that text is adapted to another
release: whole-identifier renames (old name → new name, never a substring of another name), the
header line that names the version, and the ``lean-toolchain`` the file needs. What was checked for
each release, and from which source text, is recorded in docs/lean-names.md ("Mathlib versions").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from prover.frontend.lexer import is_identifier
from prover.lean.render.common import MATHLIB_TAG

#: Start of the first line of every rendered file (``prover.lean.render.statement.HEADER_LINE``).
HEADER_PREFIX = "-- Rendered by prover for Mathlib "


@dataclass(frozen=True)
class MathlibProfile:
    """One Mathlib release a rendered file can target."""

    tag: str
    #: The Mathlib commit the tag names.
    mathlib_commit: str
    #: Exact content of the ``lean-toolchain`` file (without the newline).
    lean_toolchain: str
    #: Whole-identifier renames applied to the v4.16.0 text (old full name → new full name).
    renames: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: Does ``positivity`` have an extension for ``a - b``? ``None``: not established from source.
    positivity_sub: bool | None = False
    #: Does the replay model (which models v4.16.0) describe this release too, as far as was read?
    replay_model_applies: bool = True
    #: One line on how this profile was established.
    evidence: str = ""

    @property
    def project_dir(self) -> str:
        """Where the Lake project files of this profile live, relative to the repository root."""
        return "lean_project" if self.tag == MATHLIB_TAG else f"lean_project/profiles/{self.tag}"


PROFILES: dict[str, MathlibProfile] = {
    "v4.16.0": MathlibProfile(
        tag="v4.16.0",
        mathlib_commit="a6276f4c6097675b1cf5ebd49b1146b735f38c02",
        lean_toolchain="leanprover/lean4:v4.16.0",
        positivity_sub=False,
        evidence="lean_project/ pin (lakefile.lean @ v4.16.0, lake-manifest.json); the replay model's version",
    ),
    "v4.29.0": MathlibProfile(
        tag="v4.29.0",
        mathlib_commit="8a178386ffc0f5fef0b77738bb5449d50efeea95",
        lean_toolchain="leanprover/lean4:v4.29.0",
        # No name the renderer emits was found renamed or removed (docs/lean-names.md); the map is
        # empty until one is.
        renames=MappingProxyType({}),
        positivity_sub=None,
        replay_model_applies=True,
        evidence=("tag commit and toolchain from downstream pins; names checked against a 2026 Mathlib "
                  "source snapshot, not the tag commit itself (docs/lean-names.md)"),
    ),
}

#: The profile used when ``--mathlib`` is not given. It stays v4.16.0: see docs/lean-names.md
#: ("Which version is the default") — the newest profile was checked by bracketing, not at its tag.
DEFAULT_TAG = MATHLIB_TAG


class UnknownMathlibVersion(ValueError):
    """``--mathlib TAG`` names no profile; the message is one line listing the known tags."""


def known_tags() -> list[str]:
    return sorted(PROFILES, key=lambda t: tuple(int(p) for p in t.lstrip("v").split(".")))


def get_profile(tag: str | None = None) -> MathlibProfile:
    """The profile for ``tag`` (default: :data:`DEFAULT_TAG`); ``4.29.0`` and ``v4.29.0`` both work."""
    if tag is None or tag == "":
        return PROFILES[DEFAULT_TAG]
    key = tag.strip()
    if not key.startswith("v"):
        key = "v" + key
    if key not in PROFILES:
        raise UnknownMathlibVersion(f"unknown Mathlib version {tag!r}; known: {', '.join(known_tags())} "
                                    f"(default {DEFAULT_TAG})")
    return PROFILES[key]


def _ident_char(ch: str) -> bool:
    return is_identifier("a" + ch)


def _ident_first(ch: str) -> bool:
    return is_identifier(ch)


def _names(text: str):
    """``(start, end, name)`` for each dotted identifier (``Real.sqrt_nonneg``, ``h₀``) in ``text``,
    taken whole: a name that merely contains another one is one token, never split."""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if _ident_first(ch) and not (i > 0 and (_ident_char(text[i - 1]) or text[i - 1] == ".")):
            j = i + 1
            while j < n:
                if _ident_char(text[j]):
                    j += 1
                elif text[j] == "." and j + 1 < n and _ident_first(text[j + 1]):
                    j += 2
                else:
                    break
            yield i, j, text[i:j]
            i = j
        elif _ident_char(ch) or ch == ".":
            # inside a token that did not start as a name here (``2x``, ``h.1``): skip the run
            j = i + 1
            while j < n and (_ident_char(text[j]) or text[j] == "."):
                j += 1
            i = j
        else:
            i += 1


def rename_identifiers(text: str, renames: Mapping[str, str]) -> str:
    """``text`` with every whole identifier in ``renames`` replaced (token-exact)."""
    if not renames:
        return text
    out, last = [], 0
    for start, end, name in _names(text):
        new = renames.get(name)
        if new is not None:
            out.append(text[last:start])
            out.append(new)
            last = end
    out.append(text[last:])
    return "".join(out)


def header_line(profile: MathlibProfile) -> str:
    """The first line of a file rendered for ``profile``."""
    where = profile.project_dir + "/"
    return (f"{HEADER_PREFIX}{profile.tag} ({where}); not compiled when written: "
            "check it with `prover lean check FILE`.")


def adapt(text: str, profile: MathlibProfile | str | None = None) -> str:
    """A rendered (v4.16.0) file adapted to ``profile``: names renamed, header naming the version.

    The default profile returns ``text`` unchanged."""
    prof = profile if isinstance(profile, MathlibProfile) else get_profile(profile)
    if prof.tag == MATHLIB_TAG:
        return text
    first, sep, rest = text.partition("\n")
    body = rename_identifiers(rest, prof.renames)
    if first.startswith(HEADER_PREFIX):
        return header_line(prof) + sep + body
    return header_line(prof) + "\n" + rename_identifiers(text, prof.renames)


def toolchain_file(profile: MathlibProfile | str, root: Path | None = None) -> Path:
    """The ``lean-toolchain`` file of ``profile`` in this repository."""
    prof = profile if isinstance(profile, MathlibProfile) else get_profile(profile)
    base = root or Path(__file__).resolve().parents[2]
    return base / prof.project_dir / "lean-toolchain"
