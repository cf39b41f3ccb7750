"""The ``prover`` command line: one module per command (group).

Modules:

* ``common`` — Helpers shared by the commands: one-line errors (plain, or JSON in ``--json`` mode).
* ``conformal`` — ``prover conformal calibrate | filter | eval | build-set``: the coherent-factuality filter.
* ``evaluate`` — ``prover eval``: batch evaluation on benchmark files, and ``--compare`` of two runs.
* ``failure`` — What ``prover prove`` says when the search found no proof: open goals, closers tried, nearest miss, a hint.
* ``guard`` — Run a command's body in a forked child under a hard wall-clock limit (and an address-space limit), so that …
* ``lean`` — ``prover lean setup|check|render|replay``: the Lean side, for users who have Lean (via elan).
* ``lean_suggest`` — ``prover lean suggest GOAL|-``: a goal as Lean prints it in, the tactic block that proves it out.
* ``page`` — ``prover page FILE``: write the page of a saved proof or counterexample again.
* ``parse_check`` — ``prover parse`` (front-end: show a parsed statement) and ``prover check`` (kernel).
* ``progress`` — A progress line on stderr while a command works (``prover prove``'s search).
* ``prove`` — ``prover prove THEOREM``: search for a kernel-checked proof of one theorem.

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""
