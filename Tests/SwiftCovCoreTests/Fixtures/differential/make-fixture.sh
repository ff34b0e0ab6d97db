#!/usr/bin/env bash
# Makes the differential-coverage fixture: swift-log at two revisions of a made-up pull request,
# each side's coverage cut down to the files involved, the diff between them and llvm-cov's lcov
# output of each side (the tests' independent answer).
#
# usage: make-fixture.sh BASE_CORPUS HEAD_CORPUS REPO
#   BASE_CORPUS, HEAD_CORPUS: folders from scripts/make-corpus of revision A and B (coverage.json,
#   profdata, binary, source); REPO: the git repository with A as HEAD~1 and B as HEAD.
#
# Revision B, from swift-log 1.16.x (A): in Sources/InMemoryLogging/InMemoryLogHandler.swift a
# changed line in `==`, the deprecated `log(level:message:…)` deleted (never run), the
# `subscript(metadataKey:)` moved above `log(event:)`, `count` added with a test, `entries(at:)`
# added without one; in the tests `clear()`'s test removed (its code loses coverage) and a test
# of two entries without errors added (a line gains coverage); MetadataProvider.swift renamed to
# Logger+MetadataProvider.swift with a comment line added at its top.
set -euo pipefail
base=$(cd "$1" && pwd); head=$(cd "$2" && pwd); repo=$3
out=$(cd "$(dirname "$0")" && pwd)
repository=$(cd "$out/../../../.." && pwd)
tools=$(dirname "$(readlink -f "$(command -v swift)")")
base_files=(Sources/InMemoryLogging/InMemoryLogHandler.swift Sources/Logging/MetadataProvider.swift
    Sources/Logging/LogEvent.swift Sources/Logging/Locks.swift)
head_files=(Sources/InMemoryLogging/InMemoryLogHandler.swift Sources/Logging/Logger+MetadataProvider.swift
    Sources/Logging/LogEvent.swift Sources/Logging/Locks.swift)
# Each side as if checked out somewhere else, as on two CI runs.
cut() { # corpus, new root, output name, files...
    local corpus=$1 root=$2 name=$3; shift 3
    local paths=(); for f in "$@"; do paths+=("$corpus/source/$f"); done
    "$repository/scripts/cut-export" --clear-totals "$corpus/coverage.json" "$out/$name.json" "$corpus/source" "$root" "${paths[@]}"
    "$tools/llvm-cov" export -format=lcov -instr-profile "$corpus/profdata" "$corpus/binary" "${paths[@]}" \
        | sed "s#$corpus/source/#$root/#g" >"$out/$name.lcov"
}
cut "$base" /ci/base/swift-log base "${base_files[@]}"
cut "$head" /ci/head/swift-log head "${head_files[@]}"
git -C "$repo" diff HEAD~1 HEAD >"$out/change.diff"
