import Foundation
import Testing

/// The built `swiftcov` run as a user runs it: arguments in; stdout, stderr, files and the exit
/// code out. Expected reports are the library's golden files, so the CLI adds nothing to them.
@Suite("swiftcov report, end to end", .removingTemporaryFolders)
struct ReportCommandTests {
    @Test("the README's command prints the trivia modules' table")
    func readmeCommand() throws {
        let result = try swiftcov(["report", "SampleReports/coverage.json"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == (try golden("sample-table-name.txt")))
    }

    @Test("hostile numbers and names (invented exports): a clamped report, or one line and exit 2, never a trap")
    func hostileExports() throws {
        func export(files: String, functions: String = "[]") -> Data {
            Data(
                #"{"data":[{"files":\#(files),"functions":\#(functions)}],"type":"llvm.coverage.json.export","version":"3.0.1"}"#
                    .utf8)
        }
        let max = Int64.max
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Lines far apart, counts at Int64.max, and a C1 control (CSI) in the file's name.
        let name = root + "/Sources/M/a\u{9B}2J.swift"
        let record =
            #"{"count":\#(max),"filenames":["\#(name)"],"name":"f","regions":[[1,1,4294967295,1,\#(max),0,0,0]]}"#
        let files =
            #"[{"filename":"\#(name)","segments":[[1,1,\#(max),true,true,false],[4294967295,1,0,false,false,false]]}]"#
        let report = try swiftcov(
            ["report", "-", "--root", root, "--show", "functions"],
            stdin: export(files: files, functions: "[" + record + "]"))
        #expect(report.status == 0)
        #expect(report.stdout.contains("  Sources/M/a\u{FFFD}2J.swift"))
        #expect(!report.stdout.utf8.contains(0x9B))
        #expect(report.stdout.contains("4294967295       0  100.00%"))
        // Its line view would list 4294967295 lines: refused, naming the file.
        let lines = try swiftcov(
            ["report", "-", "--root", root, "-f", "json", "--show", "lines"], stdin: export(files: files))
        #expect(lines.status == 2)
        #expect(lines.stderr.hasPrefix(root + "/Sources/M/a\u{FFFD}2J.swift: error: the coverage data gives this file"))
        // A region that ends before it starts.
        let backwards = #"{"count":1,"filenames":["/p/a.swift"],"name":"f","regions":[[9,1,2,1,1,0,0,0]]}"#
        let error = try swiftcov(
            ["report", "-", "--root", root], stdin: export(files: "[]", functions: "[" + backwards + "]"))
        #expect(error.status == 2)
        #expect(
            error.stderr
                == "-: error: region ends at 2:1, before it starts at 9:1 (byte offset 94, at data[0].functions[0].regions[0])\n"
        )
    }

    @Test("JSON with functions and per-line counts, and the same from standard input")
    func jsonAndStdin() throws {
        let expected = try golden("sample-report.json")
        let fromFile = try swiftcov([
            "report", "--coverage", "SampleReports/coverage.json", "--format", "json", "--show=lines", "--show",
            "functions",
        ])
        #expect(fromFile.status == 0)
        #expect(fromFile.stdout == expected)
        let export = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/SampleReports/coverage.json"))
        let fromStdin = try swiftcov(
            ["report", "-", "-f", "json", "--show", "lines", "--show", "functions"], stdin: export)
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout == expected)
    }

    @Test("JSON without --show functions has the summaries and no function lists")
    func jsonWithoutFunctions() throws {
        let result = try swiftcov(["report", "SampleReports/coverage.json", "--format", "json"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\"functions\": ["))
        #expect(!result.stdout.contains("lineCounts"))
        // Everything else is as in the full report.
        let full = try golden("sample-report.json")
        let totals = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("  \"totals\"") } }
        #expect(totals(result.stdout) == totals(full))
    }

    @Test("--output writes the report to a file and nothing to stdout")
    func outputFile() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/report.md"
        let result = try swiftcov(["report", "SampleReports/coverage.json", "--format", "markdown", "-o", output])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == (try golden("sample-report.md")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.md"])
    }

    @Test("on GitHub Actions the Markdown summary is appended to the job summary")
    func githubStepSummary() throws {
        let summary = try temporaryDirectory() + "/summary.md"
        try "earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
        let result = try swiftcov(
            ["report", "SampleReports/coverage.json"], environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == 0)
        #expect(
            try String(contentsOfFile: summary, encoding: .utf8) == "earlier step\n" + (try golden("sample-report.md")))
    }

    @Test("colours only when asked or on a terminal, never with NO_COLOR")
    func colours() throws {
        let piped = try swiftcov(["report", "SampleReports/coverage.json"])
        #expect(!piped.stdout.contains("\u{1B}["))
        let forced = try swiftcov(["report", "SampleReports/coverage.json", "--color", "always"])
        #expect(forced.stdout.contains("\u{1B}[32m"))
        let noColor = try swiftcov(["report", "SampleReports/coverage.json"], environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
    }

    @Test("a package folder is searched for its export; --show functions lists counts")
    func functionsAndFolders() throws {
        let result = try swiftcov([
            "report", "SampleReports/coverage.json", "--show", "functions", "--sort", "coverage",
        ])
        #expect(result.status == 0)
        // Functions by their short names, as Xcode shows them.
        #expect(result.stdout.contains("\n      fetchQuestionsData()   "))
        #expect(result.stdout.contains("\n      init(isUITesting:questionsURL:showsHelp:)   "))
        let lines = result.stdout.split(separator: "\n")
        // Sorted by coverage: the least covered module comes first.
        #expect(lines[2].hasPrefix("trivia "))
    }

    @Test(
        "bad input: one line on stderr naming the file and where, exit 2, nothing on stdout",
        arguments: [
            ("missing.json", "missing.json: error: no such file or directory"),
            ("Package.swift", "Package.swift: error: expected an object, found '/' (byte offset 0, at (root))"),
        ])
    func badInput(path: String, message: String) throws {
        let result = try swiftcov(["report", path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("a truncated export names the byte offset and key path and leaves an existing output untouched")
    func truncatedExport() throws {
        let directory = try temporaryDirectory()
        let export = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/SampleReports/coverage.json"))
        try export.prefix(3000).write(to: URL(fileURLWithPath: directory + "/cut.json"))
        try "previous report\n".write(toFile: directory + "/out.json", atomically: true, encoding: .utf8)
        let result = try swiftcov([
            "report", directory + "/cut.json", "--format", "json", "-o", directory + "/out.json",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cut.json: error:"))
        #expect(result.stderr.contains("byte offset 3000, at data[0].files["))
        #expect(try String(contentsOfFile: directory + "/out.json", encoding: .utf8) == "previous report\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["cut.json", "out.json"])
    }

    @Test(
        "usage errors exit 2 and say what to do",
        arguments: [
            (
                ["report", "x.json", "--formt", "json"],
                "unknown option '--formt' for 'report'; did you mean '--format'?"
            ),
            (["report", "x.json", "--format", "xml"], "invalid value 'xml' for '--format'"),
            (["report", "x.json", "--format"], "option '--format' needs a value"),
            (["cover"], "unknown command 'cover'"),
            (["report", "x.json", "--show", "lines"], "--show lines adds per-line counts to --format json"),
            ([], "OVERVIEW:"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try swiftcov(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("--help and --version")
    func helpAndVersion() throws {
        let help = try swiftcov(["report", "--help"])
        #expect(help.status == 0)
        for option in [
            "--coverage", "--format", "--show", "--sort", "--include", "--exclude", "--all-files", "--root", "--output",
            "--color",
        ] {
            #expect(help.stdout.contains(option))
        }
        let overview = try swiftcov(["--help"])
        #expect(overview.status == 0 && overview.stdout.contains("report"))
        // Each command is listed once, every one of them.
        let listed = overview.stdout.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "COMMANDS:" }
            .dropFirst()
            .prefix { !$0.isEmpty }.map { $0.split(separator: " ")[0] }
        #expect(
            listed == [
                "report", "html", "check", "run", "impacted", "export", "diff", "junit", "history", "flaky", "trends",
                "xcresult",
            ])
        let version = try swiftcov(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("swiftcov "))
    }
}
