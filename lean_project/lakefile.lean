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

@[default_target]
lean_lib ProverLemmas where
