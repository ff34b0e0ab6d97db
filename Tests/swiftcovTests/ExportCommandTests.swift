import Foundation
import Testing

/// `swiftcov export` run as a CI job runs it. The expected files are the library's golden files:
/// the command adds nothing but the package root and the time.
@Suite("swiftcov export, end to end", .removingTemporaryFolders)
struct ExportCommandTests {
    /// The golden files were rendered with root /checkout at this time.
    static let environment = ["SOURCE_DATE_EPOCH": "1763800000"]

    @Test(
        "each format to stdout equals its golden file",
        arguments: [
            ("cobertura", "export-sample-cobertura.xml"), ("lcov", "export-sample-lcov.lcov"),
            ("sonarqube", "export-sample-sonarqube.xml"),
        ])
    func formats(format: String, goldenName: String) throws {
        let result = try swiftcov(
            ["export", "SampleReports/coverage.json", "--format", format], environment: Self.environment)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        // The sample's paths are relative: the package root is the folder it runs in.
        let version = try swiftcov(["--version"]).stdout.dropFirst("swiftcov ".count).dropLast()
        let expected = try golden(goldenName)
            .replacing("<source>/checkout</source>", with: "<source>\(packageRoot)</source>")
            .replacing("swiftcov 0.1.0 -->", with: "swiftcov \(version) -->")
            .replacing(" version=\"0.1.0\"", with: " version=\"\(version)\"")
        #expect(result.stdout == expected)
    }

    @Test("--output writes the file atomically and nothing to stdout")
    func output() throws {
        let directory = try temporaryDirectory()
        let result = try swiftcov(
            ["export", "-c", "SampleReports/coverage.json", "-f", "lcov", "-o", directory + "/coverage.lcov"],
            environment: Self.environment)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(
            try String(contentsOfFile: directory + "/coverage.lcov", encoding: .utf8)
                == golden("export-sample-lcov.lcov"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["coverage.lcov"])
    }

    @Test("scope options apply as in report")
    func scope() throws {
        let result = try swiftcov([
            "export", "SampleReports/coverage.json", "-f", "sonarqube", "--include", "Sources/TriviaGame/**",
            "--exclude", "Game.swift",
        ])
        #expect(result.status == 0)
        let paths = result.stdout.split(separator: "\n").filter { $0.contains("<file path=") }
        #expect(paths.count == 3)
        #expect(paths.allSatisfy { $0.contains("Sources/TriviaGame/") && !$0.contains("/Game.swift") })
    }

    @Test(
        "no format, or a bad input: exit 2 with one line on stderr",
        arguments: [
            (["export", "SampleReports/coverage.json"], "choose a format with --format cobertura, lcov or sonarqube"),
            (["export", "SampleReports/coverage.json", "-f", "xml"], "invalid value 'xml' for '-f'"),
            (["export", "missing.json", "-f", "lcov"], "missing.json: error: no such file or directory"),
        ])
    func errors(arguments: [String], message: String) throws {
        let result = try swiftcov(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("--help lists every option")
    func help() throws {
        let help = try swiftcov(["export", "--help"])
        #expect(help.status == 0)
        for option in ["--coverage", "--format", "--include", "--exclude", "--all-files", "--root", "--output"] {
            #expect(help.stdout.contains(option))
        }
        #expect(try swiftcov(["--help"]).stdout.contains("export"))
    }
}
