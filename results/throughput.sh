#!/usr/bin/env bash
# Throughput of `prover eval` with 2 workers vs 1 on the same N problems (default: the 20 of MO-INT-20).
# Usage: results/throughput.sh [ATTEMPT] [TIME_LIMIT] [BENCH.jsonl] [N]
#   ATTEMPT defaults to the CPU-bound fake tests/eval_fakes.py:spin (fixed work per problem);
#   pass prover.eval.attempt:run_attempt to time the real prover.
# Prints wall times, the ratio T1/T2 and the load average; appends nothing by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
ATTEMPT=${1:-tests/eval_fakes.py:spin}
TL=${2:-60}
BENCH=${3:-benchmarks/mo-int-20.jsonl}
N=${4:-20}
TMP=$(mktemp -d)
head -n "$N" "$BENCH" > "$TMP/bench.jsonl"   # the same N problems for both runs
trap 'rm -rf "$TMP"' EXIT
run() {  # $1 = workers
  local t0 t1
  t0=$(date +%s.%N)
  .venv/bin/prover eval "$TMP/bench.jsonl" --workers "$1" --time-limit "$TL" \
      --attempt "$ATTEMPT" --out "$TMP/w$1" --no-progress >/dev/null 2>&1
  t1=$(date +%s.%N)
  python3 -c "print(f'{$t1 - $t0:.2f}')"
  grep -o '"status": "[a-z_]*"' "$TMP/w$1/records.jsonl" | sort | uniq -c | tr '\n' ' ' >&2; echo >&2
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
T1=$(run 1); echo "workers 1: $T1 s"
T2=$(run 2); echo "workers 2: $T2 s"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 -c "print(f'throughput ratio (2 workers / 1 worker) = {$T1 / $T2:.2f}')"
