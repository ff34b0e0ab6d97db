#!/usr/bin/env bash
# Makes the diff fixtures: real `git diff` (and `diff -u`) output.
#
#   make-diffs.sh PACKAGE_ROOT [YAMS_CHECKOUT]
#
# trivia-*.diff: a throwaway repository whose first commit is an older, invented state of the
# trivia modules and whose second commit is their current sources — the ones SampleReports/coverage.json
# measured — so the diff's new line numbers are those of the sample's coverage. The change has
# added, changed, deleted, renamed (with and without edits), binary, mode-only,
# test, resource, documentation and oddly named (space, non-ASCII) files.
# yams-5.0.1-6.2.2.diff: Yams' own history (a make-corpus checkout), for the files of the
# yams fixture plus a deleted and an added one.
set -euo pipefail
root=$(cd "${1:?usage: make-diffs.sh PACKAGE_ROOT [YAMS_CHECKOUT]}" && pwd)
yams=${2:-}
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git=(git -C "$work/repo" -c user.name=swiftcov -c user.email=swiftcov@example.invalid -c core.autocrlf=false)

mkdir -p "$work/repo"
git -C "$work/repo" init -q
cd "$work/repo"

# --- the older state ---------------------------------------------------------------------
mkdir -p Sources/TriviaCore/Resources Sources/TriviaGame Sources/trivia Tests/TriviaCoreTests Docs scripts
for file in Question.swift QuestionsLoader.swift NetworkTriviaAPI.swift TriviaAPIProviding.swift \
    LaunchConfiguration.swift OfflineTriviaAPI.swift Question+Decodable.swift QuestionsLoaderError.swift; do
    cp "$root/Sources/TriviaCore/$file" Sources/TriviaCore/
done
cp "$root/Sources/TriviaCore/Resources/TriviaQuestions.json" Sources/TriviaCore/Resources/
cp "$root/Sources/TriviaGame/Game.swift" "$root/Sources/TriviaGame/TriviaTerminal.swift" Sources/TriviaGame/
cp "$root/Sources/TriviaGame/ScreenElement.swift" Sources/TriviaGame/Screen.swift
cp "$root/Sources/TriviaGame/TerminalCommand.swift" Sources/TriviaGame/Command.swift
cp "$root/Sources/trivia/main.swift" Sources/trivia/
cp "$root/Tests/TriviaCoreTests/QuestionDecodingTests.swift" Tests/TriviaCoreTests/
printf '# Trivia\n\nA movie-trivia game.\n' >README.md
printf '#!/bin/sh\necho tool\n' >scripts/tool.sh
cat >Sources/TriviaCore/LegacyScoring.swift <<'SWIFT'
/// Points for a streak of right answers (replaced by the game's own scoring).
public func legacyScore(streak: Int) -> Int {
    streak * 10
}
SWIFT
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR old' >Sources/TriviaCore/Resources/banner.png

python3 - <<'PY'
import re
def edit(path, fn):
    text = open(path).read()
    new = fn(text)
    assert new != text, path
    open(path, "w").write(new)
# Question.swift: isCorrect(_:) is new; correctAnswerIndex and a doc comment changed.
edit("Sources/TriviaCore/Question.swift", lambda t: t
     .replace("    public var correctAnswerIndex: Int { correctAnswer.index }\n",
              "    public var correctAnswerIndex: Int { answers.firstIndex(of: answer(for: correctAnswer))! }\n")
     .replace("    /// The text of the answer for `choice`.\n", "    /// The answer for `choice`.\n")
     .replace("\n    /// Whether `choice` is the correct answer.\n    public func isCorrect(_ choice: AnswerChoice) -> Bool {\n        choice == correctAnswer\n    }\n", ""))
# QuestionsLoader.swift: the catch-all's message and the @unknown default are new.
edit("Sources/TriviaCore/QuestionsLoader.swift", lambda t: t
     .replace('            throw .malformedData(path: "", reason: String(describing: error))\n',
              '            throw .malformedData(path: "", reason: "\\(error)")\n')
     .replace('        @unknown default:\n            return .malformedData(path: "", reason: String(describing: error))\n', '')
     .replace('reason: "missing key")', 'reason: "key not found")'))
# NetworkTriviaAPI.swift (never called by the tests): the status check is new.
edit("Sources/TriviaCore/NetworkTriviaAPI.swift", lambda t: t
     .replace("        let (data, response) = try await session.data(from: url)\n        if let response = response as? HTTPURLResponse, !(200..<300).contains(response.statusCode) {\n            throw TriviaAPIError.unexpectedStatus(code: response.statusCode, url: url)\n        }\n        return data\n",
              "        try await session.data(from: url).0\n"))
# TriviaAPIProviding.swift: the messages changed (never run), around non-executable lines.
edit("Sources/TriviaCore/TriviaAPIProviding.swift", lambda t: t
     .replace('        case .unexpectedStatus(let code, let url):\n', '        case let .unexpectedStatus(code, url):\n')
     .replace("            \"\\(url.absoluteString) answered with HTTP status \\(code)\"\n        }\n    }\n",
              "            \"\\(url.absoluteString) returned \\(code)\"\n        }  // switch\n    }  // description\n")
     .replace("    public var errorDescription: String? { description }\n", "    public var errorDescription: String? { \"\\(self)\" }\n"))
# main.swift: both failure paths changed.
edit("Sources/trivia/main.swift", lambda t: t
     .replace('    showError("\\(error.description) (run with --ui-testing to play the bundled questions)")\n    exit(1)\n',
              '    showError(error.description)\n    exit(2)\n')
     .replace("    showError(QuestionsLoaderError.noQuestions.description)\n    exit(1)\n", "    fatalError(\"no questions\")\n"))
# Screen.swift becomes ScreenElement.swift with one line changed; Game.swift only loses lines.
edit("Sources/TriviaGame/Screen.swift", lambda t: t.replace("///", "//", 1))
edit("Sources/TriviaGame/Game.swift", lambda t: t.replace("import TriviaCore\n", "import TriviaCore\n\n// Game rules.\n// More rules.\n", 1))
edit("Tests/TriviaCoreTests/QuestionDecodingTests.swift", lambda t: t + "\n// An old note.\n")
edit("Sources/TriviaCore/Resources/TriviaQuestions.json", lambda t: t.replace("Who directed Jaws (1975)?", "Who directed Jaws?", 1))
PY
"${git[@]}" add -A
"${git[@]}" commit -q -m "Older trivia"

# --- the current state ----------------------------------------------------------------------
git rm -q Sources/TriviaCore/LegacyScoring.swift
git mv Sources/TriviaGame/Screen.swift Sources/TriviaGame/ScreenElement.swift
git mv Sources/TriviaGame/Command.swift Sources/TriviaGame/TerminalCommand.swift
for file in Sources/TriviaCore/*.swift Sources/TriviaGame/*.swift Sources/trivia/main.swift Tests/TriviaCoreTests/QuestionDecodingTests.swift; do
    cp "$root/$file" "$file"
done
cp "$root/Sources/TriviaCore/AnswerChoice.swift" Sources/TriviaCore/
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR new' >Sources/TriviaCore/Resources/banner.png
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR logo' >Sources/TriviaCore/Resources/logo.png
printf '# Trivia\n\nA movie-trivia game, with its coverage.\n' >README.md
printf '# Spiel für zwei\n\nZwei Spieler, abwechselnd.\n' >"Docs/Spiel für zwei.md"
printf 'Release notes\n' >"Docs/release notes.md"
chmod +x scripts/tool.sh
cp "$root/Sources/TriviaCore/Resources/TriviaQuestions.json" Sources/TriviaCore/Resources/
"${git[@]}" add -A
"${git[@]}" commit -q -m "Current trivia"

"${git[@]}" diff -M HEAD~1 HEAD >"$out/trivia.diff"
"${git[@]}" diff -M --unified=0 HEAD~1 HEAD >"$out/trivia-unified0.diff"
"${git[@]}" diff -M --no-prefix HEAD~1 HEAD >"$out/trivia-no-prefix.diff"
"${git[@]}" diff -M --binary HEAD~1 HEAD -- Sources/TriviaCore/Resources Sources/TriviaCore/Question.swift >"$out/trivia-binary-patch.diff"
# The same change to one file from diff(1), with its a/ b/ folders and timestamps.
mkdir -p "$work/a/Sources/TriviaCore" "$work/b/Sources/TriviaCore"
git show HEAD~1:Sources/TriviaCore/Question.swift >"$work/a/Sources/TriviaCore/Question.swift"
cp Sources/TriviaCore/Question.swift "$work/b/Sources/TriviaCore/Question.swift"
(cd "$work" && diff -u a/Sources/TriviaCore/Question.swift b/Sources/TriviaCore/Question.swift >"$out/trivia-diff-u.diff") || true

if [ -n "$yams" ]; then
    git -C "$yams" diff 5.0.1 6.2.2 -- Sources/Yams/Constructor.swift Sources/Yams/Emitter.swift \
        Sources/Yams/Resolver.swift Tests/YamsTests/TestHelper.swift Tests/LinuxMain.swift \
        Sources/Yams/Anchor.swift >"$out/yams-5.0.1-6.2.2.diff"
fi
ls -l "$out"
