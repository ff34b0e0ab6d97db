#!/usr/bin/env bash
# Records Tests/Fixtures/FlakyHistory from Tests/Fixtures/FlakyPackage (see
# Tests/Fixtures/FlakyPackage/README.md): real runs of the package, no seed.
#
#   record.sh runs             the suite runs, the infrastructure failure, the runs alone, manifest.tsv
#   record.sh change SWIFTCOV  the change and `SWIFTCOV run --per-test` after it, into change/
#
# The package runs in a git copy at $FLAKY_WORK (default /tmp/flaky-fixture/FlakyPackage), the
# path the recorded logs, event streams and store name.
set -euo pipefail
history=$(cd "$(dirname "$0")" && pwd)
fixture=$(cd "$history/../FlakyPackage" && pwd)
work=${FLAKY_WORK:-/tmp/flaky-fixture/FlakyPackage}
unset FLAKY_SEED FLAKY_INFRA

# Fake commits and trees: runs 01-17 (and what ran between them) on the first, the rest on the second.
commit1=c0ffeec0ffeec0ffeec0ffeec0ffeec0ffee0001
tree1=7ee7ee7ee7ee7ee7ee7ee7ee7ee7ee7ee7ee0001
commit2=c0ffeec0ffeec0ffeec0ffeec0ffeec0ffee0002
tree2=7ee7ee7ee7ee7ee7ee7ee7ee7ee7ee7ee7ee0002
start=$(date -u -d 2026-11-02T08:00:00Z +%s)

copy() {
    rm -rf "$work"
    mkdir -p "$(dirname "$work")"
    cp -r "$fixture" "$work"
    rm -rf "$work/.build"
    git -C "$work" init -q -b main
    git -C "$work" add -A
    git -C "$work" -c user.name=fixture -c user.email=fixture@example.com commit -q -m "FlakyPackage"
}

runs() {
    copy
    rm -f "$history"/*.log "$history"/*.events.jsonl "$history/manifest.tsv"
    (cd "$work" && swift build --build-tests --enable-code-coverage >/dev/null)
    local slot=0 normal=0 commit=$commit1 tree=$tree1
    record() { # NAME KIND [ENV…]: one `swift test`, then its manifest line
        local name=$1 kind=$2 status=0
        shift 2
        local arguments=(--enable-code-coverage)
        if [[ $kind == alone ]]; then
            arguments+=(--filter FlakyTests.RegistryTests/testBReadsDefaults)
        else
            arguments+=(--experimental-event-stream-output "$history/$name.events.jsonl"
                --experimental-event-stream-version 0)
        fi
        (cd "$work" && env "$@" swift test "${arguments[@]}" >"$history/$name.log" 2>&1) || status=$?
        printf '%s\t%s\t%s\tmain\t%s\t%s\t%s\n' "$name.log" "$commit" "$tree" \
            "$(date -u -d "@$((start + slot * 3600))" +%Y-%m-%dT%H:%M:%SZ)" "$status" "$kind" >>"$history/manifest.tsv"
        slot=$((slot + 1))
        echo "$name: exit $status"
    }
    suite() {
        normal=$((normal + 1))
        if ((normal == 18)); then commit=$commit2 tree=$tree2; fi
        record "$(printf 'run-%02d' "$normal")" suite
    }
    # Whether a flaky test has yet to fail, or to pass, in the suite runs so far.
    unsettled() {
        local failure
        for failure in 'testFlakyMean : ' 'testFlakyMedian : ' 'flakyTitleCase() recorded' 'flakyReversedWords() recorded'; do
            local failed
            failed=$({ grep -l -F "$failure" "$history"/run-*.log || true; } | wc -l)
            if ((failed == 0 || failed == normal)); then return 0; fi
        done
        return 1
    }
    for _ in 1 2 3 4 5 6; do suite; done
    record alone-01 alone
    for _ in 1 2 3 4 5 6; do suite; done
    record infra-01 infra FLAKY_INFRA=1
    for _ in 1 2 3 4 5 6 7 8; do suite; done
    record alone-02 alone
    for _ in 1 2 3 4; do suite; done
    while ((normal < 40)) && unsettled; do suite; done
    record alone-03 alone
}

change() {
    local swiftcov=$1
    copy
    # The change: `percent` rounds to the nearest whole percentage instead of down.
    local file=$work/Sources/Flaky/Statistics.swift
    grep -q '    return scaled / whole' "$file"
    sed -i 's|^    return scaled / whole$|    let rounded = scaled + whole / 2\n    return rounded / whole|' "$file"
    git -C "$work" -c user.name=fixture -c user.email=fixture@example.com commit -q -am "percent rounds to the nearest"
    mkdir -p "$history/change"
    git -C "$work" diff HEAD~1 HEAD >"$history/change/change.diff"
    local status=0
    # A seed for which the flaky tests that run none of the changed lines fail (see the README).
    (cd "$work" && FLAKY_SEED=${FLAKY_CHANGE_SEED:-11} "$swiftcov" run --per-test --color never \
        >"$history/change/swiftcov-run.log" 2>&1) || status=$?
    cp "$work/.build/swiftcov/per-test.swiftcov" "$history/change/per-test.swiftcov"
    echo "swiftcov run --per-test: exit $status"
}

case ${1:-} in
runs) runs ;;
change) change "$(realpath "$2")" ;;
*) sed -n '2,9p' "$0" >&2; exit 2 ;;
esac
