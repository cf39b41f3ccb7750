"""Tactic syntax: a block split into items (Lean's column rule) and the tactic parser."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from prover.lean.replay.lexing import Tok, lex
from prover.lean.replay.report import NotModelled
from prover.lean.replay.term_parser import _CLOSERS, _OPENERS, _TokenCursor


@dataclass
class Item:
    """One tactic of a block: its tokens and, when its first line ends with ``by``, the block."""

    line: int
    toks: list[Tok]
    block: list[Item] | None = None
    text: str = ""
    bullet: bool = False


def split_block(lines: list[tuple[int, str]]) -> list[Item]:
    """Tactic items of an indented block (Lean's column rule)."""
    lines = [(n, s) for n, s in lines if s.strip()]
    if not lines:
        return []
    col = len(lines[0][1]) - len(lines[0][1].lstrip())
    groups: list[list[tuple[int, str]]] = []
    for n, s in lines:
        ind = len(s) - len(s.lstrip())
        if ind <= col or not groups:
            groups.append([(n, s)])
        else:
            groups[-1].append((n, s))
    items = []
    for g in groups:
        n0, first = g[0]
        stripped = first.strip()
        if stripped.startswith(("·", ". ")):
            inner_col = len(first) - len(first.lstrip()) + 2
            sub = [(n0, " " * inner_col + stripped[1:].lstrip())] + g[1:]
            items.append(Item(n0, [], split_block(sub), stripped, bullet=True))
            continue
        head = next((k for k, (_, s) in enumerate(g[:-1]) if re.search(r"(^|\s)by\s*$", s.strip())), None)
        if head is not None:
            # a header over several lines (continuation lines indented deeper) ending with ``by``:
            # the lines after it are the block, whatever their column relative to the header's
            text = "\n".join(s for _, s in g[:head + 1])
            items.append(Item(n0, lex(text, n0), split_block(g[head + 1:]),
                              " ".join(s.strip() for _, s in g[:head + 1])))
            continue
        text = "\n".join(s for _, s in g)
        items.append(Item(n0, lex(text, n0), None, " ".join(s.strip() for _, s in g)))
    return items


_EXTRA_ARG_TACTICS = ("linarith", "nlinarith", "polyrith", "field_simp", "norm_num", "simp", "ring_nf", "simp_all",
                      "norm_cast", "push_cast", "gcongr", "nlinarith!", "linarith!", "aesop", "omega", "decide",
                      "simpa", "exact_mod_cast", "assumption", "trivial", "tauto", "bound")


class TacParser(_TokenCursor):
    """Tactic syntax over tokens (terms are kept as token slices, parsed per goal)."""

    def __init__(self, toks: list[Tok], block: list[Item] | None = None):
        self.toks = toks
        self.i = 0
        self.block = block

    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t.kind != "eof" and t.text in texts

    def expect(self, text: str) -> None:
        t = self.next()
        if t.text != text:
            raise NotModelled(f"syntax: expected {text!r}, found {t.text or 'end'!r}")

    def seq(self) -> Any:
        tacs = [self.then()]
        while self.at(";"):
            self.next()
            if self.done():
                break
            tacs.append(self.then())
        return tacs[0] if len(tacs) == 1 else ("seq", tacs)

    def then(self) -> Any:
        t = self.one()
        while self.at("<;>"):
            self.next()
            t = ("then", t, self.one())
        return t

    def term_slice(self, stops: tuple[str, ...] = ()) -> list[Tok]:
        """Tokens of a term: up to a top-level ``;``, ``<;>``, ``|`` or a stop word."""
        return self.balanced_slice(lambda t: t.kind == "sym" and t.text in (";", "<;>", "|") or t.text in stops)

    def by_body(self) -> Any:
        """After ``by``: the nested block, or the rest of the tokens."""
        if self.done() and self.block is not None:
            b, self.block = self.block, None
            return b
        depth, start = 0, self.i
        while not self.done():
            t = self.peek()
            if t.text in _OPENERS:
                depth += 1
            elif t.text in _CLOSERS:
                if depth == 0:
                    break
                depth -= 1
            self.i += 1
        return self.toks[start:self.i]

    def one(self) -> Any:
        t = self.next()
        if t.kind == "eof":
            raise NotModelled("syntax: missing tactic")
        s = t.text
        if s == "(":
            inner = self.seq()
            self.expect(")")
            return inner
        if s == "first":
            return self.first_alts()
        if s in ("have", "suffices"):
            return self.have_or_suffices(s)
        if s == "linear_combination":
            opts = self.linear_combination_opts()
            return ("linear_combination", opts, self.term_slice())
        if s in ("positivity", "ring", "ring1", "constructor", "skip"):
            return (s,)
        if s == "simp" and self.at("only") and self.peek(1).text == "[":
            return self.simp_only()
        if s == "subst":
            names = []
            while self.peek().kind == "ident":
                names.append(self.next().text)
            if not names:
                raise NotModelled("syntax: subst without a hypothesis")
            return ("subst", names)
        if s in _EXTRA_ARG_TACTICS:
            return self.extra_args(s)
        if s == "exact" or s == "refine" or s == "apply":
            return (s, self.term_slice())
        if s == "show":
            return ("show", self.term_slice())
        if s == "intro":
            names = []
            while self.peek().kind == "ident" or self.at("_"):
                names.append(self.next().text)
            return ("intro", names)
        if s in ("obtain", "rcases"):
            if s == "obtain":
                pat = self.pattern()
                self.expect(":=")
                return ("obtain", pat, self.term_slice())
            term = self.term_slice(("with",))
            self.expect("with")
            return ("rcases", self.pattern(), term)
        if s == "rw" or s == "rewrite":
            return self.rewrite_rules()
        if s == "calc":
            raise NotModelled("calc is only modelled with one step a line")
        raise NotModelled(f"not modelled: tactic `{s}`")

    def first_alts(self) -> Any:
        alts = []
        while self.at("|"):
            self.next()
            alts.append(self.then())
        if not alts:
            raise NotModelled("syntax: first without alternatives")
        return ("first", alts)

    def have_or_suffices(self, s: str) -> Any:
        name = "this"
        if self.peek().kind == "ident" and self.peek(1).text in (":", ":="):
            name = self.next().text
        ty = None
        if self.at(":"):
            self.next()
            ty = self.term_slice((":=", "by", "from"))
        if s == "suffices":
            if ty is None:
                raise NotModelled("syntax: suffices without a type")
            if self.at("by"):
                self.next()
                return ("suffices", name, ty, "by", self.by_body())
            if self.at("from"):
                self.next()
                return ("suffices", name, ty, "term", self.term_slice())
            raise NotModelled("syntax: suffices without by/from")
        self.expect(":=")
        if self.at("by"):
            self.next()
            return ("have", name, ty, "by", self.by_body())
        return ("have", name, ty, "term", self.term_slice())

    def linear_combination_opts(self) -> list[str]:
        """Texts of the leading ``(norm := …)`` / ``(exp := …)`` options."""
        opts = []
        while self.at("(") and self.peek(1).text in ("norm", "exp") and self.peek(2).text == ":=":
            depth = 0
            while True:
                tk = self.next()
                opts.append(tk.text)
                depth += tk.text == "("
                depth -= tk.text == ")"
                if depth == 0 or tk.kind == "eof":
                    break
        return opts

    def extra_args(self, s: str) -> Any:
        """A closing tactic with its (unmodelled) arguments kept as tokens."""
        extra = []
        only = self.at("only")
        if only:
            self.next()
        if self.at("["):
            extra = self.term_slice()
        while not self.done() and not self.at(";", "<;>", "|", ")"):
            extra.append(self.next())
        if s == "linarith":       # ``linarith only [t, …]``: the goal and the listed facts alone
            return ("linarith", extra, only)
        return (s, extra)

    def simp_only(self) -> Any:
        """``simp only [r₁, …] (at h)?``: the rules as token slices and the hypothesis name or None."""
        self.expect("only")
        self.expect("[")
        rules = []
        while not self.done() and not self.at("]"):
            rules.append(self.term_slice((",",)))
            if self.at(","):
                self.next()
        self.expect("]")
        loc = None
        if self.at("at"):
            self.next()
            t = self.next()
            if t.kind != "ident" and t.text != "*":
                raise NotModelled(f"not modelled: simp only at {t.text!r}")
            loc = t.text
        if not self.done() and not self.at(";", "<;>", ")", "|"):
            raise NotModelled(f"not modelled: simp only … {self.peek().text!r}")
        return ("simp_only", rules, loc)

    def rewrite_rules(self) -> Any:
        self.expect("[")
        rules = []
        while not self.done() and not self.at("]"):
            rev = False
            if self.at("←", "<-"):
                self.next()
                rev = True
            toks = self.term_slice((",",))
            # a rule is a term up to a top-level comma
            rules.append((rev, _rule_term(toks)))
            if self.at(","):
                self.next()
        self.expect("]")
        return ("rw", rules, self.location() if self.at("at") else None)

    def location(self) -> tuple[tuple[str, ...], bool]:
        """``at h₁ h₂ ⊢``: the hypothesis names and whether the goal is one of the locations."""
        self.expect("at")
        names: list[str] = []
        while self.peek().kind == "ident":
            names.append(self.next().text)
        goal = self.at("⊢")
        if goal:
            self.next()
        if not names and not goal:
            raise NotModelled(f"not modelled: location {self.peek().text!r}")
        return tuple(names), goal

    def pattern(self) -> Any:
        alts = [self.pattern1()]
        while self.at("|"):
            self.next()
            alts.append(self.pattern1())
        return alts[0] if len(alts) == 1 else ("alts", tuple(alts))

    def pattern1(self) -> Any:
        if self.at("⟨"):
            self.next()
            parts = []
            while not self.done() and not self.at("⟩"):
                parts.append(self.pattern())
                if self.at(","):
                    self.next()
            self.expect("⟩")
            return ("tuple", tuple(parts))
        if self.at("("):
            self.next()
            p = self.pattern()
            self.expect(")")
            return p
        t = self.next()
        if t.kind != "ident" and t.text != "_":
            raise NotModelled(f"syntax: rcases pattern {t.text!r}")
        return ("name", t.text)


def _rule_term(toks: list[Tok]) -> Any:
    if len(toks) == 1 and toks[0].kind == "ident":
        return ("const", toks[0].text)
    return ("tokens", " ".join(t.text for t in toks))
