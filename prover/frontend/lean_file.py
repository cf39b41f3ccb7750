"""A Lean file read as Lean reads it, up to one declaration: its commands and their effect.

Lean elaborates a file command by command; what a theorem's statement means depends only on the
commands before it (and on ``open … in`` / ``set_option … in`` prefixes of the theorem itself).
The whole file is tokenized (:mod:`.lexer`: nested comments, doc comments, strings, ``«»``
names), split into commands (:func:`split_commands`), and the commands before the theorem are
read against a whitelist whose effect is modelled exactly (:func:`context_before`):

==========================  =============================================================
``import M``                 ``M`` in Mathlib or its dependencies (their notations are the
                             ones we model); at the head of the file
``open A B`` / ``… in``      every ``A`` a namespace whose names and scoped notations we know
                             (:data:`prover.frontend.names.NAMESPACES`); ``open scoped A``
``namespace A.B`` / ``end``  scoping: names resolve through the namespace; ``end`` must match
``section`` / ``end``        scoping (``noncomputable section`` too)
``set_option O v [in]``      only options that change nothing a statement means
``macro_rules`` (LIPS)       ``| `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))``, recognised token
                             by token: every ``/`` is real division while it is in effect
                             (``local``: until its section ends; a global one declared in a
                             section that closed before the theorem is refused)
``theorem``/``lemma``        earlier declarations (their names join the environment; their
/``example``                 proofs are skipped)
==========================  =============================================================

Anything else before the theorem (``notation``, ``macro``, ``syntax``, ``instance``, ``variable``,
``def``, ``abbrev``, ``attribute``, ``#eval`` …) can change what the statement means and is refused
with one line naming the command and its line. After the theorem nothing matters.

A command starts at a keyword that only begins commands (:data:`COMMAND_KEYWORDS`), at ``@[``,
at a ``#command`` first on its line, or at ``open`` / ``set_option`` unless they are followed by
``in`` and a term or tactic (then they are local to a proof).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from prover.frontend.errors import Located
from prover.frontend.lexer import Token
from prover.frontend.names import NAMESPACES, NameContext

DECLARATIONS = ("theorem", "lemma", "example")
MODIFIERS = {"private", "protected", "noncomputable", "nonrec", "unsafe", "partial"}
COMMAND_KEYWORDS = frozenset({
    "import", "namespace", "section", "end", "theorem", "lemma", "example", "def", "abbrev",
    "instance", "structure", "class", "inductive", "coinductive", "axiom", "variable", "universe",
    "notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix", "macro",
    "macro_rules", "syntax", "elab", "elab_rules", "attribute", "mutual", "deriving", "initialize",
    "opaque", "export", "alias", "irreducible_def", "include", "omit", "add_decl_doc",
    "declare_syntax_cat", "register_option", "builtin_initialize", "unif_hint",
    "suppress_compilation", "assert_not_exists", *MODIFIERS,
})
#: ``local notation``, ``scoped instance`` …: a command when followed by a command keyword.
SCOPE_PREFIXES = ("local", "scoped")
#: Roots of the modules an ``import`` may name (Mathlib and what it is built on).
IMPORT_ROOTS = frozenset({"Mathlib", "Batteries", "Aesop", "Qq", "ProofWidgets", "Plausible",
                          "ImportGraph", "LeanSearchClient", "Lean", "Init", "Std"})
#: Options a ``set_option`` may set before the theorem: none changes what a statement means.
HARMLESS_OPTIONS = ("maxHeartbeats", "maxRecDepth", "synthInstance.maxHeartbeats",
                    "synthInstance.maxSize", "autoImplicit", "relaxedAutoImplicit", "profiler",
                    "linter.", "pp.", "trace.", "diagnostics", "profiler.")


@dataclass(frozen=True)
class Command:
    """Tokens ``start .. end`` (exclusive) of one command; ``key`` indexes its keyword."""

    start: int
    key: int
    end: int
    keyword: str
    scoped_in: bool = False   # ``open … in`` / ``set_option … in``: scopes the next command only


@dataclass(frozen=True)
class Declaration:
    """A ``theorem``/``lemma``/``example`` of the file, its keyword at ``tokens[key]``."""

    index: int          # position in the command list
    key: int
    keyword: str
    name: str           # as written ("example" for an anonymous one)


@dataclass(frozen=True)
class FileContext:
    """What the commands before a declaration make of its statement."""

    names: NameContext
    real_division: bool


def _is(tok: Token, text: str) -> bool:
    return tok.kind in ("ident", "op") and tok.text == text


def _first_on_line(text: str, tok: Token) -> bool:
    start = text.rfind("\n", 0, tok.pos) + 1
    return not text[start:tok.pos].strip() or text[start:tok.pos].strip().endswith("-/")


class _Splitter:
    def __init__(self, tokens: list[Token], text: str) -> None:
        self.toks, self.text = tokens, text

    def starts(self, i: int, depth: int) -> bool:
        """Does a command start at ``tokens[i]`` (``depth``: open ``[`` brackets before it)?"""
        t = self.toks[i]
        if t.kind == "ident" and not t.text.startswith("«"):
            if t.text in ("open", "set_option"):
                return not self._local_in(i)
            if depth:
                return False
            if t.text in SCOPE_PREFIXES:
                nxt = self.toks[i + 1]
                return nxt.kind == "ident" and nxt.text in COMMAND_KEYWORDS
            return t.text in COMMAND_KEYWORDS
        if _is(t, "@"):
            return _is(self.toks[i + 1], "[") and self.toks[i + 1].pos == t.pos + 1
        if _is(t, "#"):
            nxt = self.toks[i + 1]
            return nxt.kind == "ident" and nxt.pos == t.pos + 1 and _first_on_line(self.text, t)
        return False

    def _in_position(self, i: int) -> int | None:
        """For ``open``/``set_option`` at ``i``: the index of its ``in``, if it has one. The
        arguments are read by shape (``open`` names, ``set_option`` name and value), so the ``in``
        of a later command is never taken for this one's."""
        toks, k = self.toks, i + 1
        if toks[i].text == "set_option":
            k = i + 3 if toks[i + 1].kind == "ident" and toks[i + 2].kind in ("ident", "num", "str") else i + 1
        else:
            while toks[k].kind == "ident" and toks[k].text != "in" and toks[k].text not in COMMAND_KEYWORDS \
                    and toks[k].text not in ("open", "set_option"):
                k += 1
        return k if k < len(toks) and toks[k].kind == "ident" and toks[k].text == "in" else None

    def _local_in(self, i: int) -> bool:
        """``open X in tac`` inside a proof: ``in`` followed by something that is no command."""
        k = self._in_position(i)
        return k is not None and not self.starts(k + 1, 0) and self.toks[k + 1].kind != "eof"

    def split(self) -> list[Command]:
        toks, out, i = self.toks, [], 0
        while toks[i].kind != "eof":
            key = self._skip_modifiers(i)
            in_at = self._in_position(key) if toks[key].text in ("open", "set_option") else None
            scoped_in = in_at is not None
            if in_at is not None:
                end = in_at + 1
            else:
                end, depth = key + 1, 0
                while toks[end].kind != "eof" and not (end > key and self.starts(end, depth)):
                    depth = max(0, depth + _is(toks[end], "[") - _is(toks[end], "]"))
                    end += 1
            keyword = toks[key].text if self.starts(i, 0) else "?"
            out.append(Command(i, key, end, keyword, scoped_in))
            i = end
        return out

    def _skip_modifiers(self, i: int) -> int:
        """The keyword after ``@[…]`` attributes, modifiers and a ``local``/``scoped`` prefix."""
        toks = self.toks
        while True:
            t = toks[i]
            if _is(t, "@") and _is(toks[i + 1], "["):
                depth, i = 0, i + 1
                while toks[i].kind != "eof":
                    depth += _is(toks[i], "[") - _is(toks[i], "]")
                    i += 1
                    if depth == 0:
                        break
            elif t.kind == "ident" and (t.text in MODIFIERS or t.text in SCOPE_PREFIXES) and \
                    toks[i + 1].kind == "ident" and toks[i + 1].text in COMMAND_KEYWORDS:
                i += 1
            else:
                return i


def split_commands(tokens: list[Token], text: str) -> list[Command]:
    """The file's commands in order; text before the first command is a command ``"?"``."""
    return _Splitter(tokens, text).split()


def unquote(name: str) -> str:
    """The name ``«567_P1»`` stands for (``567_P1``); other names as they are."""
    return name[1:-1] if name.startswith("«") and name.endswith("»") else name


def declarations(tokens: list[Token], commands: list[Command]) -> list[Declaration]:
    out = []
    for n, c in enumerate(commands):
        if c.keyword in DECLARATIONS:
            nxt = tokens[c.key + 1]
            name = "example" if c.keyword == "example" else (unquote(nxt.text) if nxt.kind == "ident" else "")
            out.append(Declaration(n, c.key, c.keyword, name))
    return out


@dataclass
class _Scope:
    kind: str                       # "namespace" | "section"
    name: tuple[str, ...]           # the components written after the keyword
    opens: set[str] = field(default_factory=set)      # names and scoped notations
    scoped: set[str] = field(default_factory=set)     # scoped notations (``open scoped`` too)
    local_macro: bool = False
    global_macro: bool = False      # a global real-division macro_rules was declared in it


class _Reader:
    """Reads the commands before the target, keeping the state Lean keeps."""

    def __init__(self, tokens: list[Token], text: str) -> None:
        self.toks, self.text = tokens, text
        self.scopes: list[_Scope] = [_Scope("section", ())]
        self.declared: set[str] = set()
        self.global_macro = False
        self.closed_global_macro: int | None = None   # offset of a macro whose section closed
        self.seen_other = False

    # -- helpers
    def _line(self, tok: Token) -> int:
        return self.text.count("\n", 0, tok.pos) + 1

    def refuse(self, c: Command, why: str) -> Located:
        t = self.toks[c.key]
        return Located(f"{why} (line {self._line(t)}); only import, open, namespace, section, end, "
                       "set_option, the real-division macro_rules and other theorems may come "
                       "before the theorem", t.pos)

    def namespace(self) -> tuple[str, ...]:
        return tuple(part for s in self.scopes if s.kind == "namespace" for part in s.name)

    def opens(self) -> set[str]:
        return set().union(*(s.opens for s in self.scopes))

    def scoped(self) -> set[str]:
        return set().union(*(s.scoped for s in self.scopes))

    # -- commands
    def read(self, c: Command) -> None:
        kw = c.keyword
        if kw == "?":
            raise self.refuse(c, f"`{self.toks[c.start].text}` does not start a Lean command")
        handler = getattr(self, f"_cmd_{kw}", None)
        if kw in DECLARATIONS:
            self._declaration(c)
        elif handler is None:
            raise self.refuse(c, f"command `{self._head(c)}` before the theorem is not supported: it "
                                  "may change what the statement means")
        else:
            handler(c)
        if kw != "import":
            self.seen_other = True

    def _head(self, c: Command) -> str:
        return " ".join(t.text for t in self.toks[c.start:c.key + 1])

    def _args(self, c: Command) -> list[Token]:
        stop = c.end - 1 if c.scoped_in else c.end
        return self.toks[c.key + 1:stop]

    def _cmd_import(self, c: Command) -> None:
        if self.seen_other:
            raise self.refuse(c, "`import` after other commands")
        for t in self._args(c):
            if t.kind != "ident" or t.text.split(".")[0] not in IMPORT_ROOTS:
                raise self.refuse(c, f"import of `{t.text}`: only Mathlib and its dependencies are modelled")

    def open_names(self, c: Command) -> tuple[set[str], bool]:
        """The namespaces an ``open`` command opens (refusing forms we do not model), and whether
        it is ``open scoped`` (their scoped notations only, no names)."""
        args = self._args(c)
        scoped = bool(args) and args[0].kind == "ident" and args[0].text == "scoped"
        if scoped:
            args = args[1:]
        if not args:
            raise self.refuse(c, "`open` without a namespace")
        out = set()
        for t in args:
            if t.kind != "ident" or t.text in ("hiding", "renaming", "in"):
                raise self.refuse(c, f"`open … {t.text}`: only `open A B …` is modelled")
            if t.text not in NAMESPACES:
                raise self.refuse(c, f"`open {t.text}`: the names and notations of namespace "
                                      f"`{t.text}` are not modelled")
            out.add(t.text)
        return out, scoped

    def _cmd_open(self, c: Command) -> None:
        names, scoped = self.open_names(c)
        self.scopes[-1].scoped |= names
        if not scoped:
            self.scopes[-1].opens |= names

    def _cmd_namespace(self, c: Command) -> None:
        args = self._args(c)
        if len(args) != 1 or args[0].kind != "ident":
            raise self.refuse(c, "`namespace` needs one name")
        self.scopes.append(_Scope("namespace", tuple(args[0].text.split("."))))

    def _cmd_section(self, c: Command) -> None:
        args = self._args(c)
        if len(args) > 1 or (args and args[0].kind != "ident"):
            raise self.refuse(c, "`section` takes at most one name")
        self.scopes.append(_Scope("section", tuple(args[0].text.split(".")) if args else ()))

    def _cmd_end(self, c: Command) -> None:
        args = self._args(c)
        name = tuple(args[0].text.split(".")) if args and args[0].kind == "ident" else ()
        if len(args) > 1 or (args and not name):
            raise self.refuse(c, "`end` takes at most one name")
        if len(self.scopes) == 1:
            raise self.refuse(c, "`end` without an open `section` or `namespace`")
        scope = self.scopes[-1]
        if scope.name != name:
            raise self.refuse(c, f"`end {'.'.join(name)}` does not close "
                                  f"`{scope.kind} {'.'.join(scope.name)}`")
        self.scopes.pop()
        if scope.global_macro:
            self.closed_global_macro = self.toks[c.key].pos

    def _cmd_set_option(self, c: Command) -> None:
        args = self._args(c)
        if len(args) != 2 or args[0].kind != "ident":
            raise self.refuse(c, "`set_option` needs an option and a value")
        opt = args[0].text
        if not any(opt == h or (h.endswith(".") and opt.startswith(h)) for h in HARMLESS_OPTIONS):
            raise self.refuse(c, f"`set_option {opt}` may change how the statement is read")

    def _cmd_macro_rules(self, c: Command) -> None:
        if not is_real_division_macro(self.toks[c.key + 1:c.end]):
            raise self.refuse(c, "a `macro_rules` other than the real-division one "
                                  "(`| `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))`)")
        prefix = self.toks[c.key - 1] if c.key > c.start else None
        if prefix is not None and prefix.text == "scoped":
            raise self.refuse(c, "`scoped macro_rules` is not modelled")
        if c.key != c.start and (prefix is None or prefix.text != "local"):
            raise self.refuse(c, "attributes on `macro_rules` are not modelled")
        if prefix is not None and prefix.text == "local":
            self.scopes[-1].local_macro = True
        else:
            self.global_macro = True
            for s in self.scopes[1:]:
                s.global_macro = True

    def _declaration(self, c: Command) -> None:
        nxt = self.toks[c.key + 1]
        if c.keyword != "example" and nxt.kind == "ident":
            self.declared.add(".".join((*self.namespace(), unquote(nxt.text))))

    # -- the context at the target
    def context(self, extra_opens: set[str], extra_scoped: set[str], lips: bool) -> FileContext:
        ns = self.namespace()
        opens = self.opens() | extra_opens
        scoped = self.scoped() | extra_scoped | opens
        ctx = NameContext(ns, frozenset(opens), frozenset(self.declared), sqrt_notation=lips,
                          scoped=frozenset(scoped))
        local = any(s.local_macro for s in self.scopes)
        if self.closed_global_macro is not None and not lips:
            raise Located("the real-division `macro_rules` was declared in a `section`/`namespace` "
                          "that closed before the theorem; its scope there is not modelled",
                          self.closed_global_macro)
        return FileContext(ctx, lips or self.global_macro or local)


#: The LIPS macro, token by token: ``$`` and the name after it are one antiquotation (no space).
_MACRO = ("|", "`", "(", "$X", "/", "$Y", ")", "=>", "`", "(", "HDiv.hDiv", "(", "$X", ":", "ℝ", ")",
          "(", "$Y", ":", "ℝ", ")", ")")


def is_real_division_macro(toks: list[Token]) -> bool:
    """Are ``toks`` (after ``macro_rules``) exactly ``| `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))``?"""
    names: dict[str, str] = {}
    k = 0
    for want in _MACRO:
        if k >= len(toks):
            return False
        t = toks[k]
        if want.startswith("$"):
            nxt = toks[k + 1] if k + 1 < len(toks) else None
            if not (_is(t, "$") and nxt is not None and nxt.kind == "ident" and nxt.pos == t.pos + 1):
                return False
            if names.setdefault(want, nxt.text) != nxt.text:
                return False
            k += 2
            continue
        if want == "ℝ":
            if not (t.kind == "ident" and t.text in ("ℝ", "Real")):
                return False
        elif not _is(t, want):
            return False
        if want == "`" and not (k + 1 < len(toks) and toks[k + 1].pos == t.pos + 1):
            return False   # `( is one token
        k += 1
    return k == len(toks) and names["$X"] != names["$Y"]


def context_before(tokens: list[Token], text: str, commands: list[Command], target: int, *,
                   lips: bool = False) -> FileContext:
    """The context the commands before ``commands[target]`` give it (raises :class:`Located`).

    ``lips``: the data declares the LIPS header (``open Real``, the prefix notation ``sqrt`` and
    the real-division macro) in front of the text.
    """
    reader = _Reader(tokens, text)
    prefix = target   # the ``… in`` commands that scope the target itself
    while prefix > 0 and commands[prefix - 1].scoped_in:
        prefix -= 1
    for n in range(prefix):
        c = commands[n]
        if c.scoped_in:
            scoped = commands[n + 1].keyword
            if scoped not in DECLARATIONS and not commands[n + 1].scoped_in:
                raise reader.refuse(c, f"`{c.keyword} … in` before `{scoped}` is not modelled")
            continue   # it scopes the next declaration only (a section around it)
        if n > 0 and commands[n - 1].scoped_in and c.keyword == "macro_rules":
            raise reader.refuse(c, "`macro_rules` under `… in` is not modelled")
        reader.read(c)
    pending: set[str] = set()
    pending_scoped: set[str] = set()
    for c in commands[prefix:target]:
        if c.keyword == "open":
            names, scoped = reader.open_names(c)
            pending_scoped |= names
            if not scoped:
                pending |= names
        elif c.keyword == "set_option":
            reader._cmd_set_option(c)
        else:  # pragma: no cover - only open/set_option take `in`
            raise reader.refuse(c, f"`{c.keyword} … in` is not modelled")
    extra = pending | ({"Real"} if lips else set())
    return reader.context(extra, pending_scoped, lips)


@dataclass(frozen=True)
class DeclarationSpan:
    """Character offsets of one declaration: its first token, its ``:=`` (None if it has none)
    and the end of its last token."""

    start: int
    assign: int | None
    end: int


def locate_declaration(tokens: list[Token], text: str, name: str) -> DeclarationSpan:
    """Where the theorem or lemma ``name`` stands in ``text`` (the file's commands, so a name in a
    comment or a string is never found); :class:`Located` when it is missing or declared twice."""
    commands = split_commands(tokens, text)
    found = [d for d in declarations(tokens, commands) if d.keyword != "example" and d.name == name]
    if not found:
        raise Located(f"no theorem or lemma `{name}` in the file", 0)
    if len(found) > 1:
        raise Located(f"`{name}` is declared twice (Lean rejects the second)", tokens[found[1].key].pos)
    c = commands[found[0].index]
    assign = next((k for k in range(c.key, c.end) if _is(tokens[k], ":=")), None)
    last = tokens[c.end - 1]
    end = last.pos + len(last.text)   # the command's last token: a comment after it is not its own
    return DeclarationSpan(tokens[c.start].pos, tokens[assign].pos if assign is not None else None, end)
