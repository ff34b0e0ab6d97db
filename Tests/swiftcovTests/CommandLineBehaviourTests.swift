import Foundation
import Testing

/// The command-line boundary as a new user meets it: mistakes, the package root, CI annotations.
@Suite("swiftcov's command line, end to end", .removingTemporaryFolders)
struct CommandLineBehaviourTests {
    @Test("a misspelt command or option gets a suggestion and exit 2; a missing --root folder too")
    func mistakes() throws {
        let command = try swiftcov(["reprot", "SampleReports/coverage.json"])
        #expect(command.status == 2)
        #expect(command.stderr == "swiftcov: error: unknown command 'reprot'; did you mean 'report'?\n")
        let root = try swiftcov(["report", "SampleReports/coverage.json", "--root", "no/such/folder"])
        #expect(root.status == 2)
        #expect(root.stdout.isEmpty)
        #expect(root.stderr.hasPrefix("swiftcov report: error: --root 'no/such/folder' is not a folder\n"))
        let percent = try swiftcov(["check", "SampleReports/coverage.json", "--min-lines", "80%"])
        #expect(percent.status == 2)
        #expect(percent.stderr.contains("invalid value '80%' for '--min-lines'; expected a percentage from 0 to 100"))
    }

    @Test("the gate's verdict is the same from the package, its parent or elsewhere; a guessed root is named")
    func rootFromExportPaths() throws {
        let outside = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let package = outside + "/pkg"
        try FileManager.default.createDirectory(atPath: package, withIntermediateDirectories: true)
        // Sources/A/a.swift: 4 lines, 3 run; Tests/ATests/t.swift: 4 lines, none run (not counted).
        func file(_ path: String, count: Int) -> String {
            #"{"filename":"\#(package)/\#(path)","segments":[[1,1,\#(count),true,true,false],[4,2,0,false,false,false]]}"#
        }
        let source =
            #"{"filename":"\#(package)/Sources/A/a.swift","segments":[[1,1,1,true,true,false],[3,1,0,true,true,false],[4,2,0,false,false,false]]}"#
        let json =
            #"{"data":[{"files":[\#(source),\#(file("Tests/ATests/t.swift", count: 0))]}],"type":"llvm.coverage.json.export","version":"3.0.1"}"#
        let export = outside + "/coverage.json"
        try json.write(toFile: export, atomically: true, encoding: .utf8)
        let fromPackage = try swiftcov(["check", export, "--min-lines", "60"], in: package)
        let fromParent = try swiftcov(["check", export, "--min-lines", "60"], in: outside)
        let fromRoot = try swiftcov(["check", export, "--min-lines", "60"], in: "/")
        #expect(fromPackage.status == 0)
        #expect(fromPackage.stderr.isEmpty)
        for other in [fromParent, fromRoot] {
            #expect(other.status == fromPackage.status)
            #expect(other.stdout == fromPackage.stdout)
            #expect(other.stderr.hasPrefix("swiftcov: note: package root "))
            #expect(other.stderr.contains("pkg inferred from the export's paths; give --root DIR to choose another"))
        }
    }

    @Test("on GitHub Actions every failure is annotated, with paths from the repository's top")
    func annotations() throws {
        let parent = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path
        let folder = URL(fileURLWithPath: packageRoot).lastPathComponent
        let result = try swiftcov(
            ["junit", "SampleReports/swift-test-failing.log", "-o", "/dev/null", "--root", "."],
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": parent])
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        // Both failed expectations of testWrapsToFirstQuestionAfterLast, not only the first.
        #expect(
            errors.filter {
                $0.hasPrefix("::error file=\(folder)/Tests/TriviaGameTests/GameWrappingTests.swift,line=1")
            }.count == 2)
        #expect(
            errors.contains { $0.contains("file=\(folder)/Tests/TriviaCoreTests/QuestionsLoaderTests.swift,line=45") })
        let outsideGitHub = try swiftcov(["junit", "SampleReports/swift-test-failing.log", "-o", "/dev/null"])
        #expect(!outsideGitHub.stderr.contains("::error"))
    }
}
