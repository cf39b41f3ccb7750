"""Closers for polynomial goals (SOS, difference substitution), for equalities (ideal membership) and
the exact algebra behind them.

Modules:

* ``closers`` — The registered closers for a polynomial goal ``p >= 0`` (``> 0``), and for an equality goal …
* ``difference_substitution`` — Difference substitution (SDS) for polynomial goals on the nonnegative orthant.
* ``ideal`` — Equalities from equality hypotheses: ideal membership over ℚ with explicit multipliers.
* ``linear_combination`` — The goal's slack as a nonnegative combination of the hypotheses' slacks (``linarith``'s job).
* ``rational_linalg`` — Exact rational helpers for certificates: polynomials as ``{exponent tuple: fmpq}`` dicts, sympy …
* ``signs`` — What a goal's hypotheses say about signs, read syntactically (a filter, never a proof): the variables …
* ``sos_zeros`` — Irrational zeros of an SOS target (numeric, refined at 60 digits), for facial reduction.
* ``sos`` — SOS closer: a Gram-matrix SDP (cvxpy + Clarabel/SCS) turned into an exact certificate.

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""
