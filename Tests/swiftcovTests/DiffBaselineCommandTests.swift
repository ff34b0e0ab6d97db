import Foundation
import Testing

/// `swiftcov diff --base-coverage` on the swift-log two-revision fixture (its categories are checked
/// line by line in SwiftCovCoreTests): exit codes, formats, the gate and GitHub Actions.
@Suite("swiftcov diff --base-coverage, end to end", .removingTemporaryFolders)
struct DiffBaselineCommandTests {
    static let fixture = "Tests/SwiftCovCoreTests/Fixtures/differential/"
    static let arguments = [
        "diff", fixture + "head.json", "--base-coverage", fixture + "base.json", "--diff",
        fixture + "change.diff",
    ]

    @Test("the table, and exit 1 when a --fail-on category has lines, 0 when none has")
    func gate() throws {
        let failing = try swiftcov(Self.arguments + ["--fail-on", "UNC,LBC"])
        #expect(failing.status == 1)
        #expect(failing.stdout.hasPrefix("Differential coverage of the changes in \(Self.fixture)change.diff"))
        #expect(failing.stdout.contains("Fail on UNC, LBC: FAILED (15 lines)."))
        let passing = try swiftcov(Self.arguments + ["--fail-on", "UIC,EUB"])
        #expect(passing.status == 0)
        let noGate = try swiftcov(Self.arguments)
        #expect(noGate.status == 0)
        // The old name: the same output, and one warning that names the new one.
        let old = try swiftcov(Self.arguments.map { $0 == "--base-coverage" ? "--baseline" : $0 })
        #expect(old.status == 0)
        #expect(old.stdout == noGate.stdout)
        #expect(
            old.stderr == "swiftcov diff: warning: --baseline is deprecated: use --base-coverage FILE\n" + noGate.stderr
        )
        let both = try swiftcov(Self.arguments + ["--baseline", Self.fixture + "base.json"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("give --base-coverage once (--baseline is its old name)"), "\(both.stderr)")
    }

    @Test("JSON to a file; Markdown with links; a baseline made by swiftcov report --show lines")
    func formats() throws {
        let directory = try temporaryDirectory()
        let json = try swiftcov(Self.arguments + ["-f", "json", "-o", directory + "/d.json"])
        #expect(json.status == 0 && json.stdout.isEmpty)
        let text = try String(contentsOfFile: directory + "/d.json", encoding: .utf8)
        #expect(text.contains("\"UNC\": [178, 179, 180, 181, 182, 183, 184]"))
        let markdown = try swiftcov(
            Self.arguments + ["-f", "markdown", "--url-template", "https://x.test/{path}#L{line}"])
        #expect(markdown.stdout.hasPrefix("### 7 new lines no test runs; 8 lines lost their coverage\n"))
        #expect(markdown.stdout.contains("(https://x.test/Sources/InMemoryLogging/InMemoryLogHandler.swift#L178)"))

        let report = try swiftcov([
            "report", Self.fixture + "base.json", "--format", "json", "--show", "lines",
            "-o", directory + "/base-report.json",
        ])
        #expect(report.status == 0)
        var fromReport = Self.arguments
        fromReport[3] = directory + "/base-report.json"
        let viaReport = try swiftcov(fromReport + ["-f", "json"])
        #expect(viaReport.status == 0)
        // The same categories and numbers; only the baseline's name differs.
        #expect(
            viaReport.stdout.replacing(directory + "/base-report.json", with: "B")
                == text.replacing(Self.fixture + "base.json", with: "B"))
    }

    @Test("on GitHub Actions: annotations on UNC and LBC lines, the Markdown in the job summary")
    func githubActions() throws {
        let summary = try temporaryDirectory() + "/summary.md"
        let result = try swiftcov(
            Self.arguments + ["--fail-on", "UNC", "-o", summary + ".txt"],
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == 1)
        let output = result.stdout + result.stderr
        #expect(
            output.contains(
                "::error file=Sources/InMemoryLogging/InMemoryLogHandler.swift,line=178,endLine=184,title=New code no test runs (UNC)::"
            ))
        #expect(
            output.contains("::warning file=Sources/InMemoryLogging/InMemoryLogHandler.swift,line=113,endLine=117,"))
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(text.hasPrefix("### 7 new lines no test runs; 8 lines lost their coverage"))
    }

    @Test(
        "bad input exits 2 with one line naming the file, and writes nothing",
        arguments: [
            (["--base-coverage", "SampleReports/coverage.json"], "no file in common with this coverage or the diff"),
            (["--base-coverage", "Package.swift"], "Package.swift: error:"),
            (["--base-coverage", "missing.json"], "missing.json: error:"),
            (["--diff", "Tests/SwiftCovCoreTests/Fixtures/diffs/trivia.diff"], "InMemoryLogHandler.swift: error:"),
            (["--fail-on", "UNC,NOPE"], "unknown category 'NOPE'"),
        ])
    func errors(replacing: [String], message: String) throws {
        var arguments = Self.arguments
        if replacing[0] == "--fail-on" {
            arguments += replacing
        } else {
            let index = arguments.firstIndex(of: replacing[0])!
            arguments[index + 1] = replacing[1]
        }
        let output = try temporaryDirectory() + "/out.txt"
        let result = try swiftcov(arguments + ["-o", output])
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("--fail-on and --url-template need --base-coverage; --fail-under does not go with it")
    func usage() throws {
        let withoutBaseline = try swiftcov([
            "diff", "SampleReports/coverage.json", "--diff", "x.diff", "--fail-on", "UNC",
        ])
        #expect(withoutBaseline.status == 2)
        #expect(withoutBaseline.stderr.contains("--fail-on needs --base-coverage FILE"))
        let both = try swiftcov(Self.arguments + ["--fail-under", "80"])
        #expect(both.status == 2)
    }

    @Test(
        "html --base-coverage (or --baseline, its old name): categories on the file pages, the changed files on the index; bad input writes no site"
    )
    func html() throws {
        let site = try temporaryDirectory() + "/site"
        var arguments = Self.arguments
        arguments[0] = "html"
        let result = try swiftcov(arguments + ["-o", site])
        #expect(result.status == 0, "\(result.stderr)")
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(index.contains("<h2 id=\"changes\">Changed files</h2>"))
        #expect(index.contains("<strong>7 new lines no test runs; 8 lines lost their coverage.</strong>"))
        #expect(index.contains("changes in \(Self.fixture)change.diff"))
        let page = "files/Sources_InMemoryLogging_InMemoryLogHandler.swift-a4a21ca85a480147.html"
        let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
        #expect(html.contains("<tr class=\"deleted\" id=\"D162\">"))
        #expect(html.contains(">UNC</span></td>"))
        // The old name: the same site, and one warning that names the new one.
        let oldSite = try temporaryDirectory() + "/old"
        let old = try swiftcov(arguments.map { $0 == "--base-coverage" ? "--baseline" : $0 } + ["-o", oldSite])
        #expect(old.status == 0)
        #expect(
            old.stderr
                == "swiftcov html: warning: --baseline is deprecated: use --base-coverage FILE\n"
                + result.stderr.replacingOccurrences(of: site, with: oldSite))
        #expect(try String(contentsOfFile: oldSite + "/" + page, encoding: .utf8) == html)

        // A wrong baseline: exit 2, one line, no site.
        let bad = try temporaryDirectory() + "/bad"
        arguments[3] = "SampleReports/coverage.json"
        let wrong = try swiftcov(arguments + ["-o", bad])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("no file in common with this coverage or the diff"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bad))
        // --base or --diff without --base-coverage.
        let usage = try swiftcov(["html", Self.fixture + "head.json", "--diff", "x.diff", "-o", bad])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("give --base-coverage FILE"))
    }
}
