#!/usr/bin/env bash
# Fuzzing TripLedger's parsers with libFuzzer (issue 5). `make fuzz` / `make fuzz-smoke` call this.
#
#   Tests/Fuzz/fuzz.sh build                 build every target into .build-fuzz/bin/fuzz-<target>
#   Tests/Fuzz/fuzz.sh run SECONDS [TARGET…]  build, then run each target for SECONDS, one at a time
#   Tests/Fuzz/fuzz.sh replay [TARGET…]       build, then run every seed and regression input once
# FUZZ_SKIP_BUILD=1 reuses the built binaries (e.g. to run two targets side by side).
#
# Targets (harness in Targets/<target>.swift, invariants in its header comment):
#   amount       AmountExpression.evaluate + AdjustmentSpec.parse            (TripCore)
#   frankfurter  Frankfurter.parseDay / parseSeries, JSON scanner, RateText   (RateService)
#   openerapi    OpenERAPI.parseLatest                                        (RateService)
#   ecb          ECBXML.parse, the <Cube> scanner                             (RateService)
#   csv          CSVReader(bytes:chunkSize:).next()                           (Exchange)
#   splits       StoredSplit.read / exportCell: stored payers and splits       (TripLedger)
#
# How it builds: SwiftPM compiles the library targets once, instrumented, into the separate
# scratch path .build-fuzz (so the normal .build is untouched), with
# `-Xswiftc -sanitize=fuzzer,address` (one flag: with two -sanitize= flags swiftc keeps only the
# last, and the modules would get no coverage). `--target RateSync` and `--target Exchange` are
# built because between them they depend on every parsed module (TripCore, RateService,
# TripLedger, Exchange). Each harness is then one swiftc
# call, `-parse-as-library -sanitize=fuzzer,address -O`, linking the modules' object files;
# libFuzzer supplies main(). Harnesses use only public entry points, so a rewritten parser
# needs at most its harness's one call re-pointed.
#
# Files: Corpus/<target>/ are small valid seeds (read only; new inputs go to
# .build-fuzz/corpus/<target>); Dictionaries/ hold libFuzzer token lists per format;
# Regressions/<target>/ hold every input that ever failed a target (replayed by `replay` here
# and by the FuzzRegressionTests suites under `swift test`). A failure found by `run` is saved
# as .build-fuzz/crashes/<target>/<run time>/crash-*: copy it into Regressions/<target>/ under
# a name saying what broke, fix the parser, and check the replay test fails without the fix.
#
# Limits: -max_len 4 KiB for amounts, 64 KiB for provider bodies, CSV and splits; -timeout 10 s per input
# (a hang is a finding); -rss_limit_mb 2048.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
SCRATCH=$ROOT/.build-fuzz
PRODUCTS=$SCRATCH/release
BIN=$SCRATCH/bin
FUZZ=$ROOT/Tests/Fuzz
ALL_TARGETS=(amount frankfurter openerapi ecb csv splits)

# The Swift runtime's own crash backtracer reads the stack in a way ASan reports as a second error;
# libFuzzer and ASan report crashes themselves. Leak checking is off: Swift globals look leaked.
RUN_ENV="env SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0"

max_len() { case $1 in amount) echo 4096 ;; *) echo 65536 ;; esac; }

# Dictionaries/<name>.dict: the tokens a target's format is made of, so mutations reach past the
# first syntax check sooner.
dictionary() { case $1 in frankfurter | openerapi) echo json ;; *) echo "$1" ;; esac; }

objects() { ls "$PRODUCTS/$1.build/"*.o; }

build() {
    if [ -n "${FUZZ_SKIP_BUILD:-}" ]; then return; fi
    echo "fuzz: building instrumented modules into .build-fuzz (SwiftPM)" >&2
    # SwiftPM 6.3 fails on the second `--target` build in a scratch path ("unknown build
    # description") unless the stale build description is removed; build.db keeps it incremental.
    local built
    for built in RateSync Exchange; do
        rm -f "$SCRATCH/release.yaml"
        "$SWIFT" build --scratch-path "$SCRATCH" -c release --target "$built" \
            -Xswiftc -sanitize=fuzzer,address >&2
    done
    mkdir -p "$BIN"
    local common=(-parse-as-library -sanitize=fuzzer,address -O -use-ld=lld -I "$PRODUCTS/Modules"
                  "$FUZZ/Support/FuzzCheck.swift")
    local core=($(objects Embedded) $(objects TripCore))
    local rates=("$FUZZ/Support/RateBatchCheck.swift" ${core[@]} $(objects RateService) $(objects CCurl)
                 -Xcc -fmodule-map-file="$PRODUCTS/CCurl.build/module.modulemap" -I "$ROOT/Sources/CCurl/include" -ldl)
    local ledger=(${core[@]} $(objects TripModel) $(objects Rendering) $(objects Storage) $(objects TripLedger)
                  -Xcc -fmodule-map-file="$ROOT/Sources/CSQLite/module.modulemap" -lsqlite3)
    local target
    for target in "${ALL_TARGETS[@]}"; do
        local extra=()
        case $target in
            amount) extra=(${core[@]}) ;;
            splits) extra=("${ledger[@]}") ;;
            csv) extra=("${ledger[@]}" $(objects Exchange)) ;;
            *) extra=("${rates[@]}") ;;
        esac
        echo "fuzz: linking .build-fuzz/bin/fuzz-$target" >&2
        "$SWIFTC" "${common[@]}" -module-name "Fuzz_$target" "$FUZZ/Targets/$target.swift" "${extra[@]}" \
            -o "$BIN/fuzz-$target" 2> >(grep -v "Cannot export local symbol" >&2 || true)
    done
}

# Runs one target for $2 seconds and prints one summary line; returns 1 when it crashed.
run_one() {
    local target=$1 seconds=$2
    local work=$SCRATCH/corpus/$target crashes=$SCRATCH/crashes/$target/$(date -u +%Y%m%dT%H%M%SZ) log=$SCRATCH/logs/$target.log
    mkdir -p "$work" "$crashes" "$(dirname "$log")"
    local regressions=()
    [ -d "$FUZZ/Regressions/$target" ] && regressions=("$FUZZ/Regressions/$target")
    local status=0
    (cd "$crashes" && $RUN_ENV "$BIN/fuzz-$target" -max_total_time="$seconds" \
        -max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict="$FUZZ/Dictionaries/$(dictionary "$target").dict" \
        -artifact_prefix="$crashes/" "$work" "$FUZZ/Corpus/$target" "${regressions[@]}") >"$log" 2>&1 || status=$?
    local execs rate secs crashes_found
    execs=$(awk '/stat::number_of_executed_units/ {print $NF}' "$log")
    rate=$(awk '/stat::average_exec_per_sec/ {print $NF}' "$log")
    secs=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | awk '{print $5}')
    crashes_found=$(ls "$crashes" | grep -cE '^(crash|timeout|oom|leak)-' || true)
    printf '%-12s %10s exec/s %12s execs %6s s  crashes: %s%s\n' "$target" "${rate:-?}" "${execs:-?}" \
        "${secs:-?}" "$crashes_found" "$([ "$status" -ne 0 ] && echo "  (exit $status: ${log#$ROOT/}, ${crashes#$ROOT/})")"
    [ "$status" -eq 0 ] && [ "$crashes_found" -eq 0 ]
}

replay() {
    local target failed=0
    for target in "$@"; do
        local inputs=("$FUZZ/Corpus/$target"/*)
        [ -d "$FUZZ/Regressions/$target" ] && inputs+=("$FUZZ/Regressions/$target"/*)
        if $RUN_ENV "$BIN/fuzz-$target" -runs=1 "${inputs[@]}" >"$SCRATCH/replay-$target.log" 2>&1; then
            echo "$target: ${#inputs[@]} inputs replayed, no crash"
        else
            echo "$target: CRASH, see .build-fuzz/replay-$target.log"; failed=1
        fi
    done
    return $failed
}

command=${1:-}
shift || true
case $command in
    build) build ;;
    run)
        seconds=${1:?usage: fuzz.sh run SECONDS [TARGET…]}; shift
        targets=("$@"); [ ${#targets[@]} -eq 0 ] && targets=("${ALL_TARGETS[@]}")
        build
        echo "fuzz: ${seconds}s per target; target, exec/s, total executions, seconds run, crashes"
        failed=0
        for t in "${targets[@]}"; do run_one "$t" "$seconds" || failed=1; done
        exit $failed ;;
    replay)
        targets=("$@"); [ ${#targets[@]} -eq 0 ] && targets=("${ALL_TARGETS[@]}")
        build
        replay "${targets[@]}" ;;
    *) sed -n '2,8p' "$0" >&2; exit 64 ;;
esac
