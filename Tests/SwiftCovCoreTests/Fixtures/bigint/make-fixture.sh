#!/usr/bin/env bash
# Makes the BigInt fixture: attaswift/BigInt 6.0.1's coverage cut down to two source files, its
# package description, and llvm-cov's own lcov output of the same files (the tests' independent
# answer, with the exact unsigned counts llvm-cov prints where a counter went below zero).
#
# usage: make-fixture.sh CORPUS
#   CORPUS: a folder made by scripts/make-corpus https://github.com/attaswift/BigInt DIR (coverage.json, profdata,
#   binary, source). BigInt's tests run concurrently in one process, and its instrumentation
#   counters are not atomic: in some runs an expression counter goes below zero (llvm-cov show
#   prints 18.4E at Sources/Division.swift:73-75 or :137-138). Run `swift test
#   --enable-code-coverage` again until it does (make-corpus once, then re-merge the .profraw).
set -euo pipefail
corpus=$(cd "$1" && pwd)
source=$(cd "$corpus/source" && pwd -P)
out=$(cd "$(dirname "$0")" && pwd)
repository=$(cd "$out/../../../.." && pwd)
tools=$(dirname "$(readlink -f "$(command -v swift)")")
root=/ci/BigInt
files=(Sources/Division.swift Sources/BigInt.swift)
paths=(); for f in "${files[@]}"; do paths+=("$source/$f"); done
"$repository/scripts/cut-export" --clear-totals "$corpus/coverage.json" "$out/coverage.json" "$source" "$root" "${paths[@]}"
"$tools/llvm-cov" export -format=lcov -instr-profile "$corpus/profdata" "$corpus/binary" "${paths[@]}" \
    2>/dev/null | sed "s#$source/#$root/#g" >"$out/llvm-cov.lcov"
(cd "$source" && swift package describe --type json) | sed "s#$source#$root#g" >"$out/describe.json"
cp "$source/LICENSE.md" "$out/LICENSE.md"
