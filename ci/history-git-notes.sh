#!/usr/bin/env bash
# Keeps swiftcov's history of runs in git notes (refs/notes/swiftcov) on the CI's remote: fetches
# them, runs COMMAND (which adds the run: `swiftcov run --history git-notes`), then pushes them,
# merging line by line (`cat_sort_uniq`) with what other jobs pushed meanwhile, so no run is lost.
# Exits with COMMAND's status (a failed test stays a failed job), or 2 when the notes could not be
# pushed after 5 tries.
#
# usage: ci/history-git-notes.sh [--remote NAME] -- COMMAND [ARGUMENT…]
#   e.g. ci/history-git-notes.sh -- swiftcov run --history git-notes
# The job needs to push to the remote (GitHub Actions: `permissions: contents: write`) and the
# repository's history (a full clone, `fetch-depth: 0`, lets swiftcov refuse another repository's).
set -uo pipefail

remote=origin
while [ $# -gt 0 ]; do
    case "$1" in
        --remote) remote="$2"; shift 2 ;;
        --) shift; break ;;
        *) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "history-git-notes: give the command after --" >&2; exit 2; }

ref=refs/notes/swiftcov
identity=(-c user.name=swiftcov -c user.email=swiftcov@localhost)
# None yet on a first run: that is fine.
git fetch --quiet "$remote" "+$ref:$ref" 2>/dev/null || true

"$@"
status=$?

for _ in 1 2 3 4 5; do
    if git push --quiet "$remote" "$ref" 2>/dev/null; then
        exit "$status"
    fi
    # Another job pushed first: take its notes in, line by line, and try again.
    git fetch --quiet "$remote" "+$ref:refs/notes/swiftcov-theirs" &&
        git "${identity[@]}" notes --ref=swiftcov merge --quiet -s cat_sort_uniq refs/notes/swiftcov-theirs
    sleep $((RANDOM % 3))
done
echo "history-git-notes: could not push $ref to $remote after 5 tries" >&2
exit 2
