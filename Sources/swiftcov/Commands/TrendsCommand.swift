import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov trends`: coverage, tests and test time over the history's commits.
enum TrendsCommand {
    static let spec = CommandSpec(
        name: "trends",
        abstract: "Show coverage, tests and test time over the commits of the history of runs (table, Markdown, HTML).",
        positional: nil,
        positionalHelp: nil,
        options: [HistoryService.option.spec, format.spec, OutputOption.file.spec, since.spec],
        examples: [
            "swiftcov trends --history .swiftcov-history/history.jsonl",
            "swiftcov trends --history git-notes --since origin/main --format markdown >> \"$GITHUB_STEP_SUMMARY\"",
            "swiftcov trends --history history.jsonl --format html -o trends.html",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        let destination = try terminal.output(options.output)
        let (history, root, _) = try HistoryService.load(options.home, terminal: terminal, command: "trends")
        // A ref names its commit; a prefix of a hash is taken as it is.
        var since = options.since
        if let ref = since, let result = try? Git.run(["rev-parse", "--verify", "-q", ref + "^{commit}"], in: root),
            result.status == 0
        {
            since = result.trimmedOutput
        }
        // The commits in the order they were made (HEAD's first-parent line), not the order they were tested in.
        let trends = HistoryTrends(history, firstParents: Git.firstParentCommits(root: root), since: since)
        if trends.placedByTime > 0 {
            let count = trends.placedByTime == 1 ? "1 commit" : "\(trends.placedByTime) commits"
            terminal.emit(
                .note(
                    "\(count) of the history \(trends.placedByTime == 1 ? "is" : "are") not on HEAD's first-parent line "
                        + "(another branch's, or not in this clone): placed by when first run"),
                command: "trends")
        }
        switch options.format {
        case .table: try destination.finish(writing: TrendsReport.table(trends))
        case .markdown: try destination.finish(writing: TrendsReport.markdown(trends))
        case .html: try destination.finish(writing: TrendsReport.html(trends))
        }
        if let output = options.output { terminal.status(wrote: [output]) }
        return .success
    }
}
