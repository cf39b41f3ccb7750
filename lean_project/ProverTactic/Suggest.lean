import Lean

/-!
# `prover?`: the goal to the external `prover`, its proof back as "Try this:"

**Not compiled on our machines** (no Lean toolchain exists there). Written against the sources of
Lean `v4.16.0` and Mathlib `v4.16.0` (the pins of `lean_project/`); every API used is listed with
its source file in `docs/lean-tactic.md`. Build it with `lake build ProverTactic` before relying on
it. Nothing else in this project imports it.

`prover?` prints the main goal with its local context as the infoview shows it
(`Lean.Meta.ppGoal`, with every numeral typed and nothing abbreviated), runs
`prover lean suggest - --json --time-limit N` with that text on the standard input, reads the JSON
answer (`Lean.Json`), runs the tactic block it carries on the goal, and offers it with
`Lean.Meta.Tactic.TryThis.addSuggestion`; a block Lean rejects is an error that shows it.
The command is `set_option prover.cmd "…"`, else the environment variable `PROVER_CMD`, else
`prover` on the `PATH`. Modelled on Mathlib's `polyrith` at v4.16.0
(`Mathlib/Tactic/Polyrith.lean`: an external process, JSON back, "Try this:").

```lean
import Mathlib
import ProverTactic

example (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) :
    a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2 := by
  prover?
```
-/

namespace ProverTactic

open Lean Elab Tactic Meta

initialize registerTraceClass `prover

register_option prover.cmd : String := {
  defValue := ""
  group := "prover"
  descr := "the command `prover?` runs (words separated by spaces); empty: $PROVER_CMD, else `prover`"
}

register_option prover.timeLimit : Nat := {
  defValue := 60
  group := "prover"
  descr := "seconds of proof search `prover?` asks for (`--time-limit`)"
}

/-- How the goal is printed for `prover`: every numeral with its type (`x ^ (2 : ℕ)` and
`x ^ (1 / 3 : ℝ)` differ, which the default printing hides), nothing abbreviated as `⋯`, and
`Real.sqrt x` never printed as `x.sqrt`. -/
def ppOptions (o : Options) : Options :=
  (((o.setBool `pp.numericTypes true).setBool `pp.deepTerms true).setNat `pp.maxSteps 1000000).setBool
    `pp.fieldNotation false

/-- The command line of `prover`: `prover.cmd`, else `$PROVER_CMD`, else `prover`, split at
spaces (so `python -m prover` or a virtual environment's path works). -/
def proverCommand : CoreM (String × Array String) := do
  let opt := prover.cmd.get (← getOptions)
  let env ← IO.getEnv "PROVER_CMD"
  let line := if opt.isEmpty then env.getD "prover" else opt
  let words := (line.splitOn " ").filter (fun w => !w.isEmpty)
  match words with
  | [] => return ("prover", #[])
  | w :: ws => return (w, ws.toArray)

/-- Writes `input` to the child's standard input and returns the child without it: the handle is
dropped here, which closes it, so the child reads an end of file (the pattern of Mathlib's
`MLList.runCmd`, `Mathlib/Data/MLList/IO.lean`). -/
def feedStdin (child : IO.Process.Child { stdin := .piped, stdout := .piped, stderr := .piped })
    (input : String) : IO (IO.Process.Child { stdin := .null, stdout := .piped, stderr := .piped }) := do
  let (stdin, child) ← child.takeStdin
  stdin.putStr input
  stdin.flush
  return child

/-- Runs `cmd args` with `input` on its standard input; its exit code, standard output and
standard error (read as `IO.Process.output` reads them). -/
def runWithInput (cmd : String) (args : Array String) (input : String) : IO IO.Process.Output := do
  let child ← IO.Process.spawn
    { cmd := cmd, args := args, stdin := .piped, stdout := .piped, stderr := .piped }
  let child ← feedStdin child input
  let stdout ← IO.asTask child.stdout.readToEnd Task.Priority.dedicated
  let stderr ← child.stderr.readToEnd
  let exitCode ← child.wait
  let stdout ← IO.ofExcept stdout.get
  return { exitCode := exitCode, stdout := stdout, stderr := stderr }

/-- The string field `k` of a JSON object (`none` when missing, `null` or not a string). -/
def jsonString? (j : Json) (k : String) : Option String :=
  (j.getObjValAs? String k).toOption

/-- `text` with every line after the first indented by `col` spaces: a "Try this:" string replaces
`prover?` verbatim, its first line at `prover?`'s column. -/
def indentAfterFirst (text : String) (col : Nat) : String :=
  let pad := "".pushn ' ' col
  match text.splitOn "\n" with
  | [] => text
  | l :: ls => ls.foldl (fun acc ln => acc ++ "\n" ++ (if ln.isEmpty then ln else pad ++ ln)) l

/--
`prover?` sends the main goal (an inequality over ℝ, with its context) to the external `prover`
(`prover lean suggest - --json`), runs the proof it finds and offers it as "Try this:".

* `set_option prover.cmd "/path/to/.venv/bin/prover"` (or the environment variable `PROVER_CMD`)
  chooses the command; by default `prover` on the `PATH`.
* `set_option prover.timeLimit 120` gives the search more time (seconds; default 60).
* `set_option trace.prover true` shows the goal text sent and the answer.
-/
syntax (name := proverQuery) "prover?" : tactic

elab_rules : tactic
  | `(tactic| prover?%$tk) => do
    let g ← getMainGoal
    let goalText ← g.withContext do
      let fmt ← withOptions ppOptions (ppGoal g)
      pure (toString fmt)
    let (cmd, pre) ← proverCommand
    let limit := prover.timeLimit.get (← getOptions)
    let args := pre ++ #["lean", "suggest", "-", "--json", "--time-limit", toString limit]
    trace[prover] "running {cmd} {args} on the goal\n{goalText}"
    let out ← do
      try
        runWithInput cmd args goalText
      catch e =>
        throwErrorAt tk m!"prover?: cannot run `{cmd}` ({e.toMessageData}); install `prover` or set `PROVER_CMD` / `set_option prover.cmd`"
    trace[prover] "exit code {out.exitCode}; answer {out.stdout}; stderr {out.stderr}"
    let json ← match Json.parse out.stdout with
      | .ok j => pure j
      | .error err =>
        throwErrorAt tk m!"prover?: `{cmd}` exited with code {out.exitCode} without a JSON answer ({err})\n{out.stderr}"
    let error := (jsonString? json "error").getD "no proof"
    if out.exitCode == 2 then
      throwErrorAt tk m!"prover?: {error}"
    let status := (jsonString? json "status").getD "error"
    let some block := jsonString? json "tactic"
      | throwErrorAt tk m!"prover?: {status}: {error}"
    -- the block runs here, as Lean will run it once pasted: a tactic sequence in parentheses,
    -- every line indented by one space, the parentheses on lines of their own
    let env ← getEnv
    match Parser.runParserCategory env `tactic ("(" ++ indentAfterFirst ("\n" ++ block) 1 ++ "\n)") with
    | .error err =>
      throwErrorAt tk m!"prover?: the proof `{cmd}` sent does not parse ({err}):\n{block}"
    | .ok stx =>
      try
        -- without recovery a term error inside the block is an exception, not a placeholder proof
        -- (`runTermElab` disables `errToSorry` when `recover` is off)
        withoutRecover <| focus do
          evalTactic stx
          unless (← getUnsolvedGoals).isEmpty do
            throwError "goals remain after it"
      catch e =>
        throwErrorAt tk m!"prover?: Lean rejects the proof `{cmd}` sent ({e.toMessageData}):\n{block}"
    let fileMap ← getFileMap
    let col := match tk.getPos? with
      | some pos => (fileMap.toPosition pos).column
      | none => 0
    Lean.Meta.Tactic.TryThis.addSuggestion tk { suggestion := .string (indentAfterFirst block col) }
    if let some n := (json.getObjValAs? Nat "max_heartbeats").toOption then
      logInfoAt tk m!"prover?: the rendered file states `set_option maxHeartbeats {n} in` before its theorem; add it before yours if Lean runs out of heartbeats"
    if let some imps := (json.getObjValAs? (Array String) "imports").toOption then
      unless imps.isEmpty do
        logInfoAt tk m!"prover?: the proof needs `import {imps}`"

end ProverTactic
