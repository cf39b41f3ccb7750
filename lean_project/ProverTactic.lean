import ProverTactic.Suggest

/-! `prover?` — the tactic that asks the external `prover` for a proof (see `ProverTactic/Suggest.lean`
and `docs/lean-tactic.md`). Not compiled on our machines; nothing else in this project imports it. -/
