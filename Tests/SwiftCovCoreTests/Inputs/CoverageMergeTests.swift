import Testing

@testable import SwiftCovCore

@Suite("Merging several exports", .removingTemporaryFolders)
struct CoverageMergeTests {
    let fixture = Fixture(name: "yams")
    let scope = CoverageScope(root: "/package", allFiles: true)

    /// A run whose one test failed in `Tests/ATests/aTests.swift`, a file the reports leave out.
    static var failingInTests: TestRun {
        var failing = TestRun.Case(className: "ATests", testName: "testA", status: .failed)
        failing.issues = [
            TestRun.Issue(
                kind: .failure, message: "no",
                location: TestRun.SourceLocation(file: "Tests/ATests/aTests.swift", line: 1))
        ]
        var tests = TestRun()
        tests.suites = [TestRun.Suite(name: "ATests", framework: .xctest, timestamp: nil)]
        tests.suites[0].cases = [failing]
        return tests
    }

    @Test("the files failures point at come from the export the report was made from, not from reading it again")
    func failureFilesFromTheExportRead() throws {
        let file = #"{"filename":"/package/PATH","summary":{"lines":{"count":2,"covered":1}}}"#
        let files = ["Sources/A/a.swift", "Tests/ATests/aTests.swift"].map { file.replacing("PATH", with: $0) }
        let json =
            #"{"data":[{"files":[\#(files.joined(separator: ","))]}],"type":"llvm.coverage.json.export","version":"3.0.1"}"#
        let path = try temporaryDirectory() + "/coverage.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let request = CoverageRequest(inputs: [path], root: "/package", includes: [Glob("Sources/**")])
        let export = try CoverageInput.readExport(path, keepMappings: false)
        let report = try request.makeReport(workingDirectory: "/package", read: export)
        #expect(report.files.map(\.displayPath) == ["Sources/A/a.swift"])
        // The file on disk is no export any more: only the export already read can give the test file.
        try "not an export".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            request.failureFiles(of: Self.failingInTests, report: report, coverage: .llvmCov(export)).map(\.displayPath)
                == [
                    "Tests/ATests/aTests.swift"
                ])
    }

    @Test("Xcode's coverage too: the files failures point at come from the coverage read, not from reading it again")
    func failureFilesFromXcodeCoverageRead() throws {
        func target(_ name: String, _ path: String, covered: Int) -> String {
            let file =
                #"{"name":"\#(path.split(separator: "/").last!)","path":"/package/\#(path)","coveredLines":\#(covered),"#
                + #""executableLines":1,"lineCoverage":\#(covered),"functions":[{"name":"f()","lineNumber":1,"#
                + #""executionCount":\#(covered),"coveredLines":\#(covered),"executableLines":1,"lineCoverage":\#(covered)}]}"#
            return #"{"name":"\#(name)","buildProductPath":"/package/\#(name)","coveredLines":\#(covered),"#
                + #""executableLines":1,"lineCoverage":\#(covered),"files":[\#(file)]}"#
        }
        let json =
            #"{"coveredLines":1,"executableLines":2,"lineCoverage":0.5,"targets":["#
            + target("A.framework", "Sources/A/a.swift", covered: 1) + ","
            + target("ATests.xctest", "Tests/ATests/aTests.swift", covered: 0) + "]}"
        let path = try temporaryDirectory() + "/xccov.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let request = CoverageRequest(inputs: [path], root: "/package")
        let (report, coverage) = try request.makeReportKeepingCoverage(workingDirectory: "/package")
        // Xcode's test bundles are test code: the report leaves them out.
        #expect(report.files.map(\.displayPath) == ["Sources/A/a.swift"])
        try "not Xcode's coverage".write(toFile: path, atomically: true, encoding: .utf8)
        let files = request.failureFiles(of: Self.failingInTests, report: report, coverage: coverage)
        #expect(files.map(\.displayPath) == ["Tests/ATests/aTests.swift"])
        #expect(files.map(\.summary.lines) == [Metric(count: 1, covered: 0)])
    }

    @Test("the same export twice: counts add up, coverage stays the same")
    func sameExportTwice() throws {
        let single = try fixture.report()
        let first = try fixture.export(keepMappings: true)
        let second = try fixture.export(keepMappings: true)
        let merged = try CoverageReport.build(exports: [first, second], scope: scope)
        #expect(merged.totals == single.totals)
        #expect(merged.files.count == single.files.count)
        for (a, b) in zip(single.files, merged.files) {
            #expect(a.summary == b.summary)
            #expect(
                a.functions.map { $0.executionCount.addingSaturating($0.executionCount) }
                    == b.functions.map(\.executionCount))
            let doubled = try a.lineCounts().map {
                LineCount(line: $0.line, count: $0.count.addingSaturating($0.count))
            }
            // Rebuilt from merged regions, so clamped Int64.max counts double to 2⁶⁴-2 there too.
            #expect(try b.lineCounts().map(\.line) == doubled.map(\.line))
            #expect(
                try zip(b.lineCounts(), doubled).allSatisfy { $0.count == $1.count || $1.count >= UInt64(Int64.max) })
        }
    }

    @Test("exports of different packages: files side by side, totals add up")
    func disjointExports() throws {
        let other = Fixture(name: "swift-algorithms")
        let merged = try CoverageReport.build(
            exports: [fixture.export(keepMappings: true), other.export(keepMappings: true)], scope: scope)
        let a = try fixture.report()
        let b = try other.report()
        #expect(merged.totals == a.totals + b.totals)
        #expect(merged.files.count == a.files.count + b.files.count)
    }

    @Test("one run covers what the other missed: a function covered in either is covered")
    func complementaryRuns() throws {
        // The same export with every count zeroed stands for a run that executed nothing.
        var zeroed = try fixture.export(keepMappings: true)
        for index in zeroed.functions.indices {
            zeroed.functions[index].executionCount = 0
            for region in zeroed.functions[index].mapping!.regions.indices {
                zeroed.functions[index].mapping!.regions[region].executionCount = 0
            }
        }
        let merged = try CoverageReport.build(exports: [zeroed, fixture.export(keepMappings: true)], scope: scope)
        #expect(merged.totals == (try fixture.report()).totals)
    }

    @Test("two partial test runs merge to exactly what llvm-profdata merge of their profiles gives")
    func mergeEqualsLLVMProfdataMerge() throws {
        // Real exports (scripts/make-merge-fixture): TriviaCoreTests alone, TriviaGameTests alone,
        // and the export of `llvm-profdata merge` of the two runs' profiles.
        let shards = Fixture(name: "trivia-shards")
        let merged = try CoverageReport.build(
            exports: [shards.export("core.json", keepMappings: true), shards.export("game.json", keepMappings: true)],
            scope: scope)
        let expected = try CoverageReport.build(exports: [shards.export("merged.json")], scope: scope)
        let exported = try shards.export("merged.json")
        #expect(merged.totals == expected.totals)
        #expect(merged.files.map(\.path) == expected.files.map(\.path))
        for (mine, theirs) in zip(merged.files, expected.files) {
            #expect(mine.summary == exported.files.first { $0.filename == mine.path }?.exportedSummary, "\(mine.path)")
            #expect(try mine.lineCounts() == theirs.lineCounts(), "\(mine.path)")
            #expect(try mine.segments() == theirs.segments(), "\(mine.path)")
            #expect(mine.functions.map(\.executionCount) == theirs.functions.map(\.executionCount), "\(mine.path)")
        }
        // Each shard alone covers less than the two together.
        let core = try CoverageReport.build(exports: [shards.export("core.json")], scope: scope)
        #expect(core.totals.lines.covered < merged.totals.lines.covered)
    }

    @Test("shards run in different folders merge by each file's path in its package, as if they ran in one")
    func differentFolders() throws {
        let shards = Fixture(name: "trivia-shards")
        let folder = try temporaryDirectory()
        // The same real exports, as two runners at different places would have written them.
        var inputs: [String] = []
        for (file, root) in [
            ("core.json", "/home/runner/work/trivia/trivia"), ("game.json", "/Users/ci/builds/x/trivia"),
        ] {
            let text = try shards.text(file).replacing("\"Sources/", with: "\"\(root)/Sources/")
            inputs.append(folder + "/" + file)
            try text.write(toFile: inputs.last!, atomically: true, encoding: .utf8)
        }
        let expected = try CoverageReport.build(exports: [shards.export("merged.json")], scope: scope)
        for request in [
            CoverageRequest(inputs: inputs), CoverageRequest(inputs: inputs.reversed()),
            CoverageRequest(inputs: inputs, root: "/elsewhere/trivia"),
        ] {
            let merged = try request.makeReport(workingDirectory: folder)
            #expect(merged.totals == expected.totals)
            #expect(merged.files.map(\.displayPath) == expected.files.map(\.displayPath))
            for (mine, theirs) in zip(merged.files, expected.files) {
                #expect(try mine.lineCounts() == theirs.lineCounts(), "\(mine.path)")
                #expect(mine.functions.map(\.executionCount) == theirs.functions.map(\.executionCount))
            }
        }
        // The first export's folder is the root, unless one is given.
        let report = try CoverageRequest(inputs: inputs).makeReport(workingDirectory: folder)
        #expect(report.scope.root == "/home/runner/work/trivia/trivia")
        #expect(report.files.first?.path.hasPrefix("/home/runner/work/trivia/trivia/Sources/") == true)
        let given = try CoverageRequest(inputs: inputs, root: "/elsewhere/trivia").makeReport(workingDirectory: "/")
        #expect(given.files.allSatisfy { $0.path.hasPrefix("/elsewhere/trivia/Sources/") })
    }

    @Test("exports of two different packages are not merged: one line names the export that does not fit")
    func differentPackages() throws {
        let other = Fixture(name: "swift-algorithms")
        let request = CoverageRequest(
            inputs: [fixture.path("coverage.json"), other.path("coverage.json")], root: "/package")
        #expect(
            throws: CoverageInputError.differentPackages(
                path: other.path("coverage.json"), otherPath: fixture.path("coverage.json"))
        ) {
            try request.makeReport(workingDirectory: "/")
        }
        let message = CoverageInputError.differentPackages(path: "b.json", otherPath: "a.json").description
        #expect(message.hasPrefix("b.json: error: not an export of the package a.json covers"))
    }

    @Test("moving an export's files renames them everywhere: file list, record files, mappings")
    func moveFiles() throws {
        var export = try Fixture(name: "trivia-shards").export("core.json", keepMappings: true)
        export.moveFiles(from: "Sources", to: "/new/Sources")
        #expect(export.files.allSatisfy { $0.filename.hasPrefix("/new/Sources/") })
        #expect(export.filenames.allSatisfy { $0.hasPrefix("/new/Sources/") })
        #expect(export.functions.allSatisfy { $0.mapping!.filenames.allSatisfy { $0.hasPrefix("/new/Sources/") } })
    }

    @Test("a file shared with an export that has no functions cannot be merged, and says which")
    func sharedFileWithoutFunctions() throws {
        let full = try fixture.export(keepMappings: true)
        let skipped = try fixture.export("coverage-skip-functions.json", keepMappings: true)
        let error = #expect(throws: CoverageInputError.self) {
            try CoverageReport.build(exports: [full, skipped], scope: scope)
        }
        guard case .cannotMerge? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    /// One export holding the `files` and `functions` of several, in that order of members
    /// (or functions first), as when exports of the same files are put together.
    func puttingTogether(_ texts: [String], functionsFirst: Bool = false) throws -> String {
        var files: [String] = []
        var functions: [String] = []
        for text in texts {
            let members = try Array(text.utf8).withUnsafeBytes { try Self.filesAndFunctions(in: $0) }
            files.append(members.files)
            functions.append(members.functions)
        }
        let members = [
            #""files":[\#(files.joined(separator: ","))]"#, #""functions":[\#(functions.joined(separator: ","))]"#,
        ]
        return #"{"data":[{"# + (functionsFirst ? members.reversed() : members).joined(separator: ",")
            + #"}],"type":"llvm.coverage.json.export","version":"3.0.1"}"#
    }

    /// The text inside the `files` and `functions` arrays of an export's only `data` entry.
    static func filesAndFunctions(in buffer: UnsafeRawBufferPointer) throws -> (files: String, functions: String) {
        var scanner = JSONScanner(buffer)
        var found: [String: String] = [:]
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            guard key.equals("data") else {
                try scanner.skipValue()
                continue
            }
            try scanner.beginArray()
            var more = false
            while try scanner.nextElement(&more) {
                try scanner.beginObject()
                var member = false
                while let name = try scanner.nextMember(&member) {
                    _ = scanner.peek()
                    let start = scanner.offset + 1
                    try scanner.skipValue()
                    found[name.decoded()] = String(decoding: buffer[start..<(scanner.offset - 1)], as: UTF8.self)
                }
            }
        }
        return (found["files"] ?? "", found["functions"] ?? "")
    }

    @Test(
        "an export that names its files twice (two exports put together) is their merge, whatever its member order",
        arguments: [false, true])
    func filesNamedTwice(functionsFirst: Bool) throws {
        let shards = Fixture(name: "trivia-shards")
        let folder = try temporaryDirectory()
        let path = folder + "/together.json"
        try puttingTogether([shards.text("core.json"), shards.text("game.json")], functionsFirst: functionsFirst)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let together = try CoverageInput.readExport(path, keepMappings: false)
        #expect(together.needsMerging)
        #expect(together.files.allSatisfy { $0.occurrences == 2 })
        // The reader adds a record read again to the first one as it reads: no function is held twice.
        let mergedExport = try shards.export("merged.json")
        #expect(together.functions.count == mergedExport.functions.count)
        #expect(Set(together.functions.map(\.name)).count == together.functions.count)
        let report = try CoverageReport.build(exports: [together], scope: scope)
        // The export of `llvm-profdata merge` of both runs' profiles.
        let expected = try CoverageReport.build(exports: [shards.export("merged.json")], scope: scope)
        #expect(report.totals == expected.totals)
        #expect(report.files.map(\.path) == expected.files.map(\.path))
        for (mine, theirs) in zip(report.files, expected.files) {
            #expect(mine.summary == theirs.summary, "\(mine.path)")
            #expect(try mine.segments() == theirs.segments(), "\(mine.path)")
            #expect(mine.functions.map(\.executionCount) == theirs.functions.map(\.executionCount), "\(mine.path)")
        }
    }

    @Test("a function read again is merged by its name, files and regions; a name escaped another way is merged later")
    func recordsReadAgain() throws {
        func record(_ name: String, count: Int, regions: String) -> String {
            #"{"count":\#(count),"filenames":["/package/Sources/A/a.swift"],"name":"\#(name)","regions":[\#(regions)]}"#
        }
        func twoRegions(_ outer: Int, _ inner: Int) -> String { "[1,1,9,2,\(outer),0,0,0],[3,5,4,6,\(inner),0,0,0]" }
        func export(_ records: [String], fileTwice: Bool = true) throws -> LLVMCovExport {
            let file = #"{"filename":"/package/Sources/A/a.swift","segments":[],"summary":{}}"#
            let files = fileTwice ? [file, file] : [file]
            let text =
                #"{"data":[{"files":[\#(files.joined(separator: ","))],"#
                + #""functions":[\#(records.joined(separator: ","))]}],"type":"llvm.coverage.json.export","version":"2.0.1"}"#
            let path = try temporaryDirectory() + "/export.json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return try CoverageInput.readExport(path, keepMappings: false)
        }
        let twice = try export([
            // The inner region never ran in the first run, and ran in the second.
            record("$s1A1fyyF", count: 1, regions: twoRegions(1, 0)),
            // The same function again: its counts are added to the first.
            record("$s1A1fyyF", count: 2, regions: twoRegions(2, 1)),
            // The same name with other regions (another build of the file): kept apart.
            record("$s1A1fyyF", count: 5, regions: "[1,1,2,2,5,0,0,0]"),
            // The same name escaped another way: the reader keeps it, the report merges it.
            record(#"\u0024s1A1fyyF"#, count: 4, regions: twoRegions(4, 0)),
        ])
        #expect(twice.functions.map(\.executionCount) == [3, 5, 4])
        #expect(twice.functions[0].mapping?.regions.map(\.executionCount) == [3, 1])
        // Summarized again once the counts were added: every line ran, as in one record with their sum.
        let once = try export([record("$s1A1fyyF", count: 3, regions: twoRegions(3, 1))], fileTwice: false)
        #expect(twice.functions[0].lines == Metric(count: 9, covered: 9))
        #expect(twice.functions[0].lines == once.functions[0].lines)
        #expect(twice.functions[0].regions == once.functions[0].regions)

        let report = try CoverageReport.build(exports: [twice], scope: scope)
        let functions = try #require(report.files.first).functions
        #expect(functions.map(\.executionCount).sorted() == [5, 7])
    }

    @Test("merging as the exports are read holds each file's segments where they are: in its only export")
    func filesOfOneExportKeepTheirSegments() throws {
        let other = Fixture(name: "swift-algorithms")
        var merger = ExportMerger()
        merger.add(try fixture.export(keepMappings: true))
        merger.add(try other.export(keepMappings: true))
        let merged = merger.merged()
        #expect(merged.files.allSatisfy { $0.occurrences == 1 && $0.source != nil })
        let report = try CoverageReport.build(export: merged, scope: scope)
        let alone = try fixture.report().files + other.report().files
        #expect(report.files.count == alone.count)
        for file in report.files {
            let expected = try #require(alone.first { $0.path == file.path })
            #expect(try file.lineCounts() == expected.lineCounts(), "\(file.path)")
        }
    }
}
