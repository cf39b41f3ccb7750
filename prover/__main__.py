"""``python -m prover``: the same command line as ``prover``."""

from prover.cli import main

if __name__ == "__main__":
    main()
