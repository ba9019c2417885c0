#!/usr/bin/env bash
# Run every criterion benchmark (release build, headless) and print one line per benchmark:
# its name and criterion's median estimate, the figures docs/performance.md lists.
# Usage: scripts/bench.sh [bench ...]   (default: every bench in benches/)
# Run it on a quiet machine: the figures are wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
benches=("$@")
if [ ${#benches[@]} -eq 0 ]; then
    for f in benches/*.rs; do benches+=("$(basename "$f" .rs)"); done
fi
echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes')  $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for bench in "${benches[@]}"; do
    # criterion prints the benchmark's name, then "time: [low median high]" (on the same line
    # when the name is short).
    cargo bench --quiet --no-default-features --bench "$bench" 2>/dev/null | awk -v bench="$bench" '
        /time:/ {
            # The "change:" block repeats "time:" with percentages against the last run.
            if ($0 ~ /%/) next
            line = $0
            sub(/^[ \t]+/, "", line)
            name = line
            sub(/[ \t]*time:.*/, "", name)
            if (name == "") name = previous
            match($0, /\[[^]]*\]/)
            split(substr($0, RSTART + 1, RLENGTH - 2), t, " ")
            printf "%-10s %-90s %s %s\n", bench, name, t[3], t[4]
        }
        { if ($0 !~ /^[ \t]*$/ && $0 !~ /time:|thrpt:|change:|Found|outlier|Performance|No change|within noise|Benchmarking|Warning|[0-9]+ \(/) previous = $0 }
    '
done
