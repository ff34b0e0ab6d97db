import Foundation
import Testing

@testable import SwiftCovCore

/// A report's function names are worked out once, by the report, and every writer reads them there.
@Suite("Function names held by the report", .removingTemporaryFolders)
struct FunctionNamesTests {
    func report() throws -> CoverageReport {
        try Fixture.all[0].report()
    }

    /// Every writer that shows function names, each writing `report` once.
    static let writers: [(String, @Sendable (CoverageReport, String) throws -> Void)] = [
        (
            "report --format json --show functions",
            { report, _ in
                _ = try CoverageJSONReport.render(report, options: CoverageReportOptions(showFunctions: true))
            }
        ),
        (
            "report --show functions (table)",
            { report, _ in
                _ = CoverageTableReport.render(report, options: CoverageReportOptions(showFunctions: true))
            }
        ),
        (
            "export --format cobertura",
            { report, _ in
                _ = try InterchangeFormat.cobertura.render(report, options: InterchangeOptions(timestamp: 0))
            }
        ),
        (
            "export --format lcov",
            { report, _ in
                _ = try InterchangeFormat.lcov.render(report, options: InterchangeOptions(timestamp: 0))
            }
        ),
        (
            "html",
            { report, directory in
                try HTMLSite.write(report, to: directory + "/site", options: HTMLReport.Options(version: "0.0.0-test"))
            }
        ),
    ]

    @Test("a report names its functions only when asked, in one table its files share")
    func lazyAndShared() throws {
        let report = try report()
        let withFunctions = report.files.filter { !$0.functions.isEmpty }
        #expect(withFunctions.count > 1)
        let table = try #require(withFunctions.first).nameTable
        #expect(withFunctions.allSatisfy { $0.nameTable === table })
        #expect(table.count == report.files.reduce(0) { $0 + $1.functions.count })
        #expect(table.computations == 0)
        _ = try CoverageJSONReport.render(report, options: CoverageReportOptions())
        _ = CoverageTableReport.render(report, options: CoverageReportOptions())
        #expect(table.computations == 0, "a report that shows no functions demangles nothing")
        for file in withFunctions {
            #expect(file.functionNames.count == file.functions.count)
            for (function, name) in zip(file.functions, file.functionNames) {
                #expect(name == FunctionName(mangledName: function.mangledName))
            }
        }
        #expect(table.computations == 1)
    }

    @Test("each writer but the site reads the names from the report", arguments: 0..<writers.count - 1)
    func eachWriter(_ index: Int) throws {
        let report = try report()
        let table = try #require(report.files.first { !$0.functions.isEmpty }).nameTable
        try Self.writers[index].1(report, try temporaryDirectory())
        #expect(table.computations == 1, "\(Self.writers[index].0) did not take its names from the report")
    }

    @Test("the site names each page's functions and lets them go, unless the report has them")
    func siteReadsOnce() throws {
        let report = try report()
        let table = try #require(report.files.first { !$0.functions.isEmpty }).nameTable
        let (name, writeSite) = try #require(Self.writers.last)
        #expect(name == "html")
        let alone = try temporaryDirectory()
        try writeSite(report, alone)
        #expect(table.computations == 0, "the site kept every name")
        for file in report.files where !file.functions.isEmpty {
            let once = Array(file.functionNamesReadOnce)
            #expect(once == file.functions.map { FunctionName(mangledName: $0.mangledName) })
        }
        #expect(table.computations == 0)
        // With the names worked out (as `swiftcov run` does for the site and coverage.json), the
        // site takes them from the report, and its pages are the same.
        report.workOutFunctionNames()
        #expect(table.computations == 1)
        let shared = try temporaryDirectory()
        try writeSite(report, shared)
        #expect(table.computations == 1)
        for file in report.files where file.hasLineData {
            let page = "/site/" + HTMLReport.pageName(for: file.displayPath)
            #expect(
                try String(contentsOfFile: alone + page, encoding: .utf8)
                    == String(contentsOfFile: shared + page, encoding: .utf8), "\(file.displayPath)")
        }
    }

    @Test("every writer of one report shares one computation of its names (as swiftcov run writes two)")
    func allWriters() throws {
        let report = try report()
        let table = try #require(report.files.first { !$0.functions.isEmpty }).nameTable
        let directory = try temporaryDirectory()
        for (_, write) in Self.writers { try write(report, directory) }
        // The site's pages and coverage.json of one `swiftcov run`: the same report, names worked out once.
        #expect(table.computations == 1)
    }

    @Test("a report made from Xcode's coverage shares one table too")
    func xcode() throws {
        let report = try CoverageReport.build(
            xcode: XcodeCoverage(targets: [
                .init(
                    name: "A.framework", productPath: nil, executableLines: 2, coveredLines: 1,
                    files: [
                        .init(
                            name: "a.swift", path: "/p/Sources/A/a.swift", executableLines: 1, coveredLines: 1,
                            functions: [
                                .init(
                                    name: "f()", lineNumber: 1, executionCount: 1, executableLines: 1, coveredLines: 1)
                            ]),
                        .init(
                            name: "b.swift", path: "/p/Sources/A/b.swift", executableLines: 1, coveredLines: 0,
                            functions: [
                                .init(name: "", lineNumber: 2, executionCount: 0, executableLines: 1, coveredLines: 0)
                            ]),
                    ])
            ]), scope: CoverageScope(root: "/p"), input: "x.xcresult")
        #expect(report.files.count == 2)
        #expect(report.files[0].nameTable === report.files[1].nameTable)
        #expect(report.files.flatMap(\.functionNames).map(\.display) == ["f()", "(unnamed)"])
        #expect(report.files[0].nameTable.computations == 1)
    }
}
