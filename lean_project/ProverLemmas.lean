import ProverLemmas.Basic
import ProverLemmas.Catalogue
