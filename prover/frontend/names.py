"""Name resolution as Lean 4 does it, for the names a statement may use.

An identifier in a statement is a bound variable (locals shadow every global), or it resolves,
given the current namespace, the ``open`` namespaces and the declarations earlier in the file, to
Mathlib constants. Lean's rules (``Lean.ResolveName.resolveGlobalName``; see
docs/mathlib-name-facts.md §4):

1. the namespace walk: in ``namespace A.B``, ``A.B.x`` then ``A.x``; the first that exists is the
   only answer (a *protected* declaration is skipped for an unqualified ``x``);
2. otherwise the exact name, the root ``x`` and ``N.x`` for every open ``N`` are pooled;
3. several candidates are an overload: each is elaborated, the ones that fail on the argument
   drop out; one success is the answer, several are "ambiguous" (an error in Lean).

We model this only where every fact is known: the namespaces in :data:`NAMESPACES` (with the
names among the functions we read that exist there, and the tokens their scoped notations add).
Any other namespace, open or current, could hold a declaration of the same short name, so a
function name resolved through it is refused. The functions the statement language reads are
``Real.sqrt`` (``√`` is its notation, hygienic: always ``Real.sqrt``) and the root ``abs``
(``|a|`` is its notation, hygienic; ``open Complex`` adds ``Complex.abs``, which takes ``↑x : ℂ``,
so an unqualified ``abs`` is ambiguous there), and the root ``max``/``min`` (export aliases of
``Max.max``/``Min.min``; ``Nat.max``/``min`` and ``Finset.max``/``min`` are protected, so no modelled
namespace declares them for a short name).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Functions we read: Mathlib constant -> the front-end's node kind.
MODELLED = {"Real.sqrt": "sqrt", "abs": "abs", "max": "max", "min": "min", "Real.exp": "exp", "Real.log": "log",
            "Real.logb": "logb", "Real.pi": "pi"}

#: Intervals a membership hypothesis ``x ∈ Set.Icc a b`` may name: Mathlib constant -> the
#: relations ``x ∈ I`` unfolds to (``Set.mem_Icc`` … are ``Iff.rfl``): ``("lo", op)`` is
#: ``lo op x``, ``("hi", op)`` is ``x op hi``; the bounds are the arguments in this order.
INTERVALS: dict[str, tuple[tuple[str, str], ...]] = {
    "Set.Icc": (("lo", "<="), ("hi", "<=")), "Set.Ico": (("lo", "<="), ("hi", "<")),
    "Set.Ioc": (("lo", "<"), ("hi", "<=")), "Set.Ioo": (("lo", "<"), ("hi", "<")),
    "Set.Ici": (("lo", "<="),), "Set.Ioi": (("lo", "<"),),
    "Set.Iic": (("hi", "<="),), "Set.Iio": (("hi", "<"),),
}
#: Short names of the intervals (``Icc`` …): declared in ``Set`` and, for a locally finite order,
#: in ``Finset`` (``Finset.Icc``), never at the root.
INTERVAL_NAMES = frozenset(n.rpartition(".")[2] for n in INTERVALS)
_INTERVAL_TEXT = " ".join(sorted(INTERVAL_NAMES))


@dataclass(frozen=True)
class NamespaceFacts:
    """What a Mathlib namespace holds, as far as our short names go."""

    #: short names of functions (among :data:`SHORT_NAMES`) declared there, not protected
    declares: frozenset[str] = frozenset()
    #: tokens its scoped notations add after ``open`` (a bound variable so named stops parsing)
    scoped_tokens: frozenset[str] = frozenset()
    #: the declared function takes a real argument only through a coercion that fails on ℝ
    #: (``NNReal.sqrt``, ``Nat.sqrt``): it drops out of an overload when the argument is real
    fails_on_real: bool = True


def _ns(declares: str = "", tokens: str = "", fails_on_real: bool = True) -> NamespaceFacts:
    return NamespaceFacts(frozenset(declares.split()), frozenset(tokens.split()), fails_on_real)


#: Namespaces whose facts are known (docs/mathlib-name-facts.md §1–3). ``Complex.sqrt`` exists in
#: newer Mathlib releases and takes ``↑x : ℂ``, so it never drops out.
NAMESPACES: dict[str, NamespaceFacts] = {
    "Real": _ns("sqrt exp log", "π rexp φ ψ", fails_on_real=False),
    "NNReal": _ns("sqrt", "ℝ≥0"),
    "Nat": _ns("sqrt log", "π π' φ ! ‼"),
    "Int": _ns("sqrt log", "-["),
    "Rat": _ns("sqrt", "/."),
    "Complex": _ns("sqrt abs exp log", "cexp", fails_on_real=False),
    "Topology": _ns("", "𝓝 𝓝[ 𝓝ˢ"),
    "BigOperators": _ns(),
    "Finset": _ns(_INTERVAL_TEXT, "#"),
    "Set": _ns(_INTERVAL_TEXT),
    "Filter": _ns("", "𝓟"),
    "Classical": _ns(),
    "ENNReal": _ns("log", fails_on_real=False),
    "EReal": _ns("exp", fails_on_real=False),
    "Polynomial": _ns(),
}

#: Short names of functions whose resolution we model (every namespace above says if it has one).
SHORT_NAMES = frozenset({"sqrt", "abs", "max", "min", "exp", "log", "logb"})
#: Short names whose declarations are charted only for the modelled constant (``Real.logb``,
#: ``Real.pi``; ``NNReal.pi`` exists and coerces to ℝ):
#: whether ``Nat.logb``, a root ``logb`` or any other ``….logb`` exists is not known here, so a
#: name that may resolve to one of them is refused (``logb`` after ``open Real``: write ``Real.logb``).
UNCHARTED = frozenset({"logb", "pi"})


class NameError_(ValueError):
    """A name that does not resolve to exactly one modelled constant (the message is one line)."""


@dataclass(frozen=True)
class NameContext:
    """Where a statement sits in its file: the namespace, the opens and the file's declarations."""

    namespace: tuple[str, ...] = ()
    opens: frozenset[str] = frozenset()
    declared: frozenset[str] = frozenset()
    #: the LIPS header's prefix notation `sqrt` (a token meaning ``Real.sqrt``), declared by the data
    sqrt_notation: bool = False
    #: namespaces whose scoped notations are active (every open one, and ``open scoped`` ones)
    scoped: frozenset[str] = frozenset()

    def scoped_tokens(self) -> frozenset[str]:
        """Tokens the open namespaces' scoped notations add."""
        out: set[str] = set()
        inside = {".".join(self.namespace[:k]) for k in range(1, len(self.namespace) + 1)}
        for n in self.opens | self.scoped | inside:
            out |= NAMESPACES[n].scoped_tokens if n in NAMESPACES else set()
        return frozenset(out)


def _exists(full: str) -> bool | None:
    """Does the constant ``full`` exist? None when we cannot know (an unmodelled namespace)."""
    if full in MODELLED:
        return True
    ns, _, short = full.rpartition(".")
    if ns and ns not in NAMESPACES and all(part in NAMESPACES for part in ns.split(".")):
        return False   # ``NNReal.Real.sqrt`` and the like: no such nested namespace in Mathlib
    if short in UNCHARTED:
        return None
    known = SHORT_NAMES | INTERVAL_NAMES
    if not ns:
        return False if short in known else None   # no root sqrt (nor Icc …) in Mathlib or core
    if ns in NAMESPACES:
        return short in NAMESPACES[ns].declares if short in known else None
    return None


def _candidate(full: str, ctx: NameContext, name: str) -> bool:
    """Is ``full`` a declaration (raising when that cannot be known)?"""
    if full in ctx.declared:
        raise NameError_(f"`{name}` may name `{full}`, declared earlier in this file")
    known = _exists(full)
    if known is None:
        raise NameError_(f"cannot resolve `{name}`: `{full}` may exist "
                         f"(namespace `{full.rpartition('.')[0] or '_root_'}` is not modelled)")
    return known


#: Namespaces whose scoped notation ``π`` is active makes the token mean: Mathlib constant.
PI_NOTATIONS = {"Real": "Real.pi", "Nat": "Nat.primeCounting"}


def resolve_pi_token(ctx: NameContext) -> str:
    """What the token ``π`` denotes: ``Real.pi`` when ``Real``'s scoped notation is the only one
    active (``open Real``, ``open scoped Real``, inside ``namespace Real``). With ``Nat``'s too
    (``open Real Nat``) the token has two notations, resolved by elaboration in ways we do not
    model: refused (write ``Real.pi``); with neither, ``π`` is not a notation here."""
    inside = {".".join(ctx.namespace[:k]) for k in range(1, len(ctx.namespace) + 1)}
    active = sorted(n for n in PI_NOTATIONS if n in ctx.opens | ctx.scoped | inside)
    if active == ["Real"]:
        return "Real.pi"
    if not active:
        raise NameError_("`π` is a notation only after `open Real` (write `Real.pi`)")
    raise NameError_(f"`π` has the notations of {' and '.join(active)} here "
                     f"({', '.join(PI_NOTATIONS[n] for n in active)}); write `Real.pi`")


def resolve_function(name: str, ctx: NameContext, argument_is_real: bool) -> str:
    """The Mathlib constant ``name`` (applied to one argument) elaborates to.

    ``argument_is_real``: the argument is a real term (so candidates that cannot take a real,
    like ``NNReal.sqrt``, drop out of an overload); a numeral-only argument keeps them all.
    Raises :class:`NameError_` unless exactly one modelled constant results.
    """
    if ctx.sqrt_notation and name == "sqrt":
        return "Real.sqrt"
    if name == "π":
        return resolve_pi_token(ctx)
    if name.startswith("_root_."):
        name = name[len("_root_."):]
        return _single(name, [name] if _candidate(name, ctx, name) else [], argument_is_real)
    # 1. the namespace walk: the innermost namespace with a declaration wins outright
    for k in range(len(ctx.namespace), 0, -1):
        full = ".".join(ctx.namespace[:k]) + "." + name
        if _candidate(full, ctx, name):
            return _single(name, [full], argument_is_real)
    # 2. exact / root name and every open namespace, pooled
    pool = [name] if _candidate(name, ctx, name) else []
    for ns in sorted(ctx.opens):
        full = f"{ns}.{name}"
        if _candidate(full, ctx, name):
            pool.append(full)
    return _single(name, pool, argument_is_real)


def _single(name: str, pool: list[str], argument_is_real: bool) -> str:
    """Overload resolution over ``pool`` (3.): the candidates that elaborate on the argument."""
    if not pool:
        raise NameError_(f"unknown identifier `{name}` ({_hint(name, unknown=True)})")
    live = [c for c in pool if not (argument_is_real and _fails_on_real(c))]
    if len(live) > 1:
        raise NameError_(f"`{name}` is ambiguous here ({', '.join(live)}); {_hint(name)}")
    if not live:
        raise NameError_(f"`{name}` resolves to {', '.join(pool)}, which does not take a real argument")
    if live[0] not in MODELLED:
        raise NameError_(f"`{name}` is `{live[0]}`, which is not supported (only `Real.sqrt` / `√`, "
                         "`abs` / `|x|`, `max`, `min`, `Real.exp`, `Real.log` and `Real.logb`)")
    return live[0]


def _hint(name: str, unknown: bool = False) -> str:
    """How to write the function ``name`` unambiguously."""
    if name.rpartition(".")[2] == "abs":
        return "write `|x|`"
    if name.rpartition(".")[2] in ("max", "min"):
        return f"write `{name.rpartition('.')[2]} a b` at the root"
    if name.rpartition(".")[2] == "logb":
        return "write `Real.logb b x`"
    if name.rpartition(".")[2] in ("exp", "log"):
        return f"write `Real.{name.rpartition('.')[2]}`" + (", or `open Real`" if unknown else "")
    return "write `Real.sqrt` or `√`" + (", or `open Real`" if unknown else "")


def resolve_interval(name: str, ctx: NameContext) -> str:
    """The Mathlib constant the set name ``name`` in ``x ∈ name a b`` elaborates to, which must be
    one of :data:`INTERVALS` (``Set.Icc`` …). The rules are :func:`resolve_function`'s: the
    namespace walk, then the exact name and every open namespace pooled; several candidates are
    refused as ambiguous (``open Set Finset``), a name that may be declared where we cannot see
    (an unmodelled namespace, this file) is refused, never guessed."""
    full_name = name
    if name.rpartition(".")[2] not in INTERVAL_NAMES:
        raise NameError_(f"membership in `{name}` is not supported (only the intervals `Set.Icc a b`, "
                         "`Set.Ioo`, `Set.Ico`, `Set.Ioc`, `Set.Ici`, `Set.Iic`, `Set.Ioi`, `Set.Iio`)")
    if name.startswith("_root_."):
        name = name[len("_root_."):]
        pool = [name] if _candidate(name, ctx, name) else []
    else:
        pool = []
        for k in range(len(ctx.namespace), 0, -1):
            full = ".".join(ctx.namespace[:k]) + "." + name
            if _candidate(full, ctx, name):
                pool = [full]
                break
        else:
            pool = [name] if _candidate(name, ctx, name) else []
            pool += [f"{ns}.{name}" for ns in sorted(ctx.opens) if _candidate(f"{ns}.{name}", ctx, name)]
    if not pool:
        raise NameError_(f"unknown identifier `{full_name}` (write `Set.Icc`, or `open Set`)")
    if len(pool) > 1:
        raise NameError_(f"`{full_name}` is ambiguous here ({', '.join(pool)}); write `Set.{name}`")
    if pool[0] not in INTERVALS:
        raise NameError_(f"membership in `{pool[0]}` is not supported (only the intervals `Set.Icc`, "
                         "`Set.Ioo`, `Set.Ico`, `Set.Ioc`, `Set.Ici`, `Set.Iic`, `Set.Ioi`, `Set.Iio`)")
    return pool[0]


def _fails_on_real(full: str) -> bool:
    ns = full.rpartition(".")[0]
    return ns in NAMESPACES and NAMESPACES[ns].fails_on_real and full not in MODELLED


def resolve_type(name: str, ctx: NameContext) -> bool:
    """Is the identifier ``name`` (``Real``, ``Nat``, … in a binder or ascription) the Lean type
    it reads as? ``ℝ``/``ℕ`` are global notations (hygienic); a spelled-out name is looked up
    through the current namespace, where only modelled namespaces are known not to shadow it."""
    if not name.isascii():
        return True
    for k in range(len(ctx.namespace), 0, -1):
        prefix = ".".join(ctx.namespace[:k])
        if prefix not in NAMESPACES:
            return False
    return name not in ctx.declared and not any(d.endswith("." + name) for d in ctx.declared)
