import SwiftCovCommandLine
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command-line boundary's pieces: typed options, diagnostics, annotations, table widths.
@Suite("Command line: typed options and diagnostics")
struct CommandLineTests {
    enum Shape: String, CaseIterable, Sendable { case round, square }

    static let shape = ValueOption<Shape>(["--shape", "-s"], value: "SHAPE", help: "A shape.")
    static let percent = ValueOption<Double>.percentage(["--min"], help: "A minimum.")
    static let count = ValueOption<Int>.positiveInteger(["--count"], help: "How many.")
    static let name = ValueOption<String>(["--name"], value: "NAME", repeatable: true, help: "Names.")
    static let verbose = FlagOption(["--verbose", "-v"], help: "More.")
    static let spec = CommandSpec(
        name: "try", abstract: "Tries.", positional: "PATH…",
        options: [shape.spec, percent.spec, count.spec, name.spec, verbose.spec])

    @Test("values come back typed, in order, with defaults left to the command")
    func typedValues() throws {
        let parsed = try CommandLineParser.parse(
            ["-s", "square", "--min=12.5", "--name", "a", "x", "--name", "b", "-v", "--", "--count"], spec: Self.spec)
        #expect(try parsed.value(Self.shape) == .square)
        #expect(try parsed.value(Self.percent) == 12.5)
        #expect(try parsed.value(Self.count) == nil)
        #expect(try parsed.values(Self.name) == ["a", "b"])
        #expect(parsed.has(Self.verbose))
        #expect(parsed.positionals == ["x", "--count"])
        #expect(
            CommandLineParser.help(for: Self.spec, tool: "t").contains(
                "--shape, -s SHAPE       A shape. (round|square)"))
    }

    @Test(
        "invalid values are usage errors that say what is expected",
        arguments: [
            (["--shape", "oval"], "invalid value 'oval' for '--shape'; expected one of: round, square"),
            (["--min", "101"], "invalid value '101' for '--min'; expected a percentage from 0 to 100"),
            (["--min", "nan"], "invalid value 'nan' for '--min'; expected a percentage from 0 to 100"),
            (["--count", "0"], "invalid value '0' for '--count'; expected a positive whole number"),
            (["--shpe", "round"], "unknown option '--shpe' for 'try'; did you mean '--shape'?"),
            (["--min", "1", "--min", "2"], "option '--min' may be given only once"),
        ])
    func invalidValues(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) {
            let parsed = try CommandLineParser.parse(arguments, spec: Self.spec)
            _ = try parsed.value(Self.percent)
            _ = try parsed.value(Self.count)
        }
        #expect(error?.message == message)
        #expect(error?.diagnostic.kind == .usage)
        #expect(error?.diagnostic.exitCode == 2)
    }

    @Test("diagnostics print as compilers print them, with the file and where in it")
    func diagnosticFormats() {
        #expect(
            Diagnostic(file: "a.swift", at: .line(3, column: 9), "bad").formatted(program: "swiftcov")
                == "a.swift:3:9: error: bad")
        #expect(Diagnostic(file: "x.log", at: .line(12), "odd").description == "x.log:12: error: odd")
        #expect(
            Diagnostic(file: "c.json", at: .byteOffset(94, keyPath: "data[0].files"), "expected ','").description
                == "c.json: error: expected ',' (byte offset 94, at data[0].files)")
        #expect(
            Diagnostic.warning(file: ".swiftcov.json", at: .keyPath("modules.A"), "no such module").description
                == ".swiftcov.json: warning: modules.A: no such module")
        #expect(
            Diagnostic("cannot run git", notes: ["give --diff FILE"]).formatted(program: "swiftcov diff")
                == "swiftcov diff: error: cannot run git\nswiftcov diff: note: give --diff FILE")
        #expect(Diagnostic(kind: .failure, "3 tests failed").exitCode == 1)
        #expect(Diagnostic("unreadable").exitCode == 2)
    }

    @Test("every engine error is a diagnostic naming its file")
    func engineErrors() {
        let errors: [any Error] = [
            CoverageInputError.malformed(path: "e.json", offset: 7, keyPath: "data", message: "expected '['"),
            TestResultsError.malformedEventStream(path: "s.jsonl", line: 4, message: "not JSON"),
            SystemCallError(.write, path: "out.xml", errno: ENOSPC),
            CoverageMergeError(filename: "/p/a.swift"),
            Git.Failure(directory: "/repo", message: "git diff failed"),
        ]
        let lines = errors.map { $0.asDiagnostic.description }
        #expect(
            lines == [
                "e.json: error: expected '[' (byte offset 7, at data)",
                "s.jsonl:4: error: not a Swift Testing event stream record: not JSON",
                "out.xml: error: cannot write: No space left on device",
                "/p/a.swift: error: appears in several exports, and one of them has no function records "
                    + "(made with -skip-functions or -summary-only), so their counts cannot be added up",
                "/repo: error: git diff failed",
            ])
        #expect(
            Toolchain.NotFound().diagnostic.formatted(program: "swiftcov").hasPrefix("swiftcov: error: llvm-profdata"))
    }

    @Test(
        "annotations: errors before warnings, at most ten of each, the rest for the summary, paths from the repository")
    func annotationLimits() {
        var annotations = (1...12).map { (line: Int) in
            GitHubAnnotation(.warning, file: "w.swift", line: line, title: "W", message: "w\(line)")
        }
        annotations += (1...11).map { (line: Int) in
            GitHubAnnotation(.error, file: "Sources/A/e.swift", line: line, title: "T: a,b", message: "50% of\nit")
        }
        let (commands, leftOut) = GitHubAnnotations.commands(annotations, pathPrefix: "pkg/")
        let lines = commands.split(separator: "\n")
        #expect(lines.count == 20)
        #expect(lines.prefix(10).allSatisfy { $0.hasPrefix("::error file=pkg/Sources/A/e.swift,line=") })
        #expect(lines.suffix(10).allSatisfy { $0.hasPrefix("::warning file=pkg/w.swift,line=") })
        #expect(lines[0] == "::error file=pkg/Sources/A/e.swift,line=1,title=T%3A a%2Cb::50%25 of%0Ait")
        #expect(leftOut.map { $0.line ?? 0 } == [11, 11, 12])
        #expect(leftOut.map(\.severity) == [.error, .warning, .warning])
        let markdown = GitHubAnnotations.markdown(leftOut: leftOut)
        #expect(markdown.contains("3 more problems"))
        #expect(markdown.contains("| error | Sources/A/e.swift:11 | T: a,b: 50% of ⏎ it |"))
        #expect(GitHubAnnotations.markdown(leftOut: []).isEmpty)
    }

    @Test("a table narrower than its names shortens them in the middle, never the numbers")
    func tableWidth() {
        var table = TextTable(columns: [TextTable.Column("Name", .left), TextTable.Column("Lines")])
        table.add(["  Sources/VeryLongModuleName/Deeply/Nested/Folder/FileName.swift", "123456"])
        let text = table.render(maxWidth: 40)
        let row = text.split(separator: "\n")[2]
        // 32 columns for the name: the indentation, 10 characters, "…", the last 19.
        #expect(row == "  Sources/Ve…lder/FileName.swift  123456")
        #expect(row.count <= 40)
        #expect(table.render(maxWidth: 200) == table.render())
        #expect("short".shortened(to: 10) == "short")
    }
}
