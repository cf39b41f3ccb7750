import ProverLemmas.Basic
