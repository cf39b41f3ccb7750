"""SCRIPTED STAND-IN for the Lean REPL (``lake exe repl``) — NOT Lean.

It speaks the REPL's JSON protocol (requests and replies separated by blank lines) so the
client's protocol handling can be tested on machines without Lean. It proves nothing: replies
are scripted by keywords in the request.

Commands (``{"cmd": ...}``):
  * ``import ...`` without ``env``    → a fresh environment number;
  * text containing ``sorry``          → one sorry with a new proof state, goal ``⊢ <text>``;
  * text containing ``BAD``            → an error message (like a Lean elaboration error);
  * anything else                      → a new environment number.
Tactics (``{"tactic": t, "proofState": n}``), by the first word of ``t``:
  * ``done``    → no goals;   ``split`` → two goals;   ``fail`` → ``{"message": "Lean error: ..."}``;
  * ``errmsg``  → a reply with an error in ``messages``;
  * ``hang``    → never answers (timeout);  ``crash`` → exits with code 3;
  * ``garbage`` → prints a line that is not JSON;
  * a rendered step block (``prover.lean.render``) by its comment: ``-- close`` → the first
    goal is closed; ``-- split`` → two goals, or one per ``=> ?_`` of its ``refine``;
  * anything else → the first goal replaced by one goal echoing the tactic.
``FAKE_REPL_REJECT=text`` makes every tactic containing ``text`` fail like a Lean error;
``FAKE_REPL_EXTRA_GOAL=text`` makes it leave one more goal than scripted.
An unknown proof state gets ``{"message": "Unknown proof state."}`` like the real REPL.
Environment: ``FAKE_REPL_CRASH_ON_START=1`` exits at once; ``FAKE_REPL_LOG=path`` appends
every request (to count restarts).
"""

from __future__ import annotations

import json
import os
import sys
import time


def reply(obj: object) -> None:
    sys.stdout.write(json.dumps(obj, indent=1) + "\n\n")
    sys.stdout.flush()


def main() -> None:
    if os.environ.get("FAKE_REPL_CRASH_ON_START") == "1":
        sys.exit(2)
    log = os.environ.get("FAKE_REPL_LOG")
    envs = 0
    states: dict[int, list[str]] = {}
    buf: list[str] = []
    for line in sys.stdin:
        if line.strip():
            buf.append(line)
            continue
        if not buf:
            continue
        req = json.loads("".join(buf))
        buf = []
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps(req) + "\n")
        if "cmd" in req:
            cmd = req["cmd"]
            if "BAD" in cmd:
                reply({"messages": [{"severity": "error", "pos": {"line": 1, "column": 0},
                                     "endPos": None, "data": "unknown identifier 'BAD'"}], "env": envs})
                envs += 1
            elif "sorry" in cmd:
                n = len(states)
                states[n] = [f"⊢ {cmd}"]
                reply({"sorries": [{"proofState": n, "goal": states[n][0],
                                    "pos": {"line": 1, "column": 0}, "endPos": {"line": 1, "column": 5}}],
                       "messages": [{"severity": "warning", "pos": {"line": 1, "column": 8},
                                     "endPos": {"line": 1, "column": 9}, "data": "declaration uses 'sorry'"}],
                       "env": envs})
                envs += 1
            else:
                reply({"env": envs})
                envs += 1
            continue
        tac, ps = req.get("tactic", ""), req.get("proofState")
        if ps not in states:
            reply({"message": "Unknown proof state."})
            continue
        word = tac.split()[0] if tac.split() else ""
        if word == "hang":
            time.sleep(3600)
        if word == "crash":
            sys.exit(3)
        if word == "garbage":
            sys.stdout.write("PANIC at Lean.Elab this is not json\n\n")
            sys.stdout.flush()
            continue
        if word == "fail":
            reply({"message": "Lean error:\nlinarith failed to find a contradiction"})
            continue
        reject = os.environ.get("FAKE_REPL_REJECT")
        if reject and reject in tac:
            reply({"message": "Lean error:\nlinear_combination failed (scripted rejection)"})
            continue
        n = len(states)
        if word == "errmsg":
            states[n] = list(states[ps])
            reply({"proofState": n, "goals": states[n],
                   "messages": [{"severity": "error", "pos": {"line": 0, "column": 0}, "endPos": None,
                                 "data": "type mismatch"}]})
            continue
        if word == "done" or tac.startswith("-- close"):
            goals = []
        elif word == "split" or tac.startswith("-- split"):
            k = tac.count("=> ?_") or 2
            goals = [f"⊢ case {i + 1}" for i in range(k)]
        else:
            goals = [f"⊢ after {tac.splitlines()[0]}"]
        extra = os.environ.get("FAKE_REPL_EXTRA_GOAL")
        if extra and extra in tac:
            goals = goals + ["⊢ unexpected"]
        # goals after the first are left untouched, as in Lean
        states[n] = goals + states[ps][1:]
        reply({"proofState": n, "goals": states[n]})


if __name__ == "__main__":
    main()
