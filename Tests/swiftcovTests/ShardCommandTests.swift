import Foundation
import Testing

/// Shards from the command line: merging their JUnit files and exports, and the bad inputs.
@Suite("Shards, end to end", .removingTemporaryFolders)
struct ShardCommandTests {
    static let golden = "Tests/SwiftCovCoreTests/Golden/"
    static let shards = "Tests/SwiftCovCoreTests/Fixtures/trivia-shards/"

    @Test("junit merges JUnit files: each test once, a test given twice a warning, exit 1 for the failures")
    func junitMerges() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/merged.xml"
        let once = try swiftcov(["junit", Self.golden + "junit-linux.xml", "-o", output])
        #expect(once.status == 1)
        #expect(once.stderr.contains("(73 tests in "))
        // The same file twice (as two overlapping shards would report their tests).
        let twice = try swiftcov([
            "junit", Self.golden + "junit-linux.xml", "-t", Self.golden + "junit-linux.xml", "-o", directory + "/2.xml",
        ])
        #expect(twice.status == 1)
        let warnings = twice.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 11)
        #expect(
            warnings.first
                == "swiftcov junit: warning: QuestionsLoaderTests.testBundledQuestionsLoadOffline is reported more than once (failed, failed); kept failed"
        )
        #expect(warnings.last == "swiftcov junit: warning: … and 63 more tests reported twice")
        #expect(twice.stderr.contains("(73 tests in "))
    }

    @Test("a file that is not JUnit XML: one line naming the file, line and column, exit 2")
    func notJUnit() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/page.xml"
        try "<?xml version=\"1.0\"?>\n<html>\n<body/></html>\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try swiftcov(["junit", path, "-o", directory + "/out.xml"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(path):2:"))
        #expect(
            result.stderr.hasSuffix(
                ": error: not JUnit XML: the root element is <html>, not <testsuites> or <testsuite>\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("report merges shards' exports made in different folders into the coverage of one run")
    func reportMerges() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var inputs: [String] = []
        for (file, root) in [("core.json", "/runner-1/trivia"), ("game.json", "/home/runner-2/work/trivia")] {
            let text = try String(contentsOfFile: packageRoot + "/" + Self.shards + file, encoding: .utf8)
            inputs += ["-c", directory + "/" + file]
            try text.replacingOccurrences(of: "\"Sources/", with: "\"\(root)/Sources/")
                .write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
        }
        let merged = try swiftcov(["report"] + inputs + ["--format", "json"], in: directory)
        let expected = try swiftcov(["report", Self.shards + "merged.json", "--format", "json"])
        #expect(merged.status == 0)
        #expect(expected.status == 0)
        func totals(_ json: String) throws -> NSDictionary? {
            let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
            return document?["totals"] as? NSDictionary
        }
        #expect(try totals(merged.stdout) != nil)
        #expect(try totals(merged.stdout) == totals(expected.stdout))
    }

    @Test("exports of two different packages: exit 2, naming the export that does not fit")
    func differentPackages() throws {
        let yams = "Tests/SwiftCovCoreTests/Fixtures/yams/coverage.json"
        let algorithms = "Tests/SwiftCovCoreTests/Fixtures/swift-algorithms/coverage.json"
        let result = try swiftcov(["report", "-c", yams, "-c", algorithms])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(algorithms): error: not an export of the package \(yams) covers"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test(
        "run --shard outside 1…N, or N above 10,000: exit 2 before anything runs (no plan of billions of shards)",
        arguments: ["0/3", "4/3", "two/3", "1/99999999999", "1/10001"])
    func shardOutOfRange(shard: String) throws {
        let result = try swiftcov(["run", "--shard", shard])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("swiftcov run: error: --shard \(shard): "))
        #expect(!result.stderr.contains("running swift"))
    }
}
