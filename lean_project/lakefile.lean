import Lake
open Lake DSL

/-! The Lean side of `prover`: the catalogue lemmas Mathlib lacks, and the REPL that
`prover prove --backend lean-repl` drives. Everything is pinned to one Mathlib release
(`v4.16.0`, Lean `v4.16.0`); the REPL tag matches the toolchain. -/

package prover_lean where
  leanOptions := #[⟨`autoImplicit, false⟩, ⟨`relaxedAutoImplicit, false⟩]

require mathlib from git
  "https://github.com/leanprover-community/mathlib4" @ "v4.16.0"

require REPL from git
  "https://github.com/leanprover-community/repl.git" @ "v4.16.0"

-- The `prover?` tactic (`ProverTactic/Suggest.lean`): the goal to the external `prover` command,
-- its proof back as "Try this:". Not a default target and imported by nothing else here; build it
-- with `lake build ProverTactic`. Not compiled on our machines (see docs/lean-tactic.md).
lean_lib ProverTactic

@[default_target]
lean_lib ProverLemmas where
