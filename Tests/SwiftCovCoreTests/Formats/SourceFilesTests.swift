import Foundation
import Testing

@testable import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which source files a report reads: regular files of bounded size inside the package root,
/// whatever path an export names. The folders, links and FIFOs here are invented for the test.
@Suite("Reading source files", .removingTemporaryFolders)
struct SourceFilesTests {
    /// `outside/secret.txt` and `outside/pkg/Sources/A/a.swift`, with `pkg` as the root.
    struct Tree {
        let outside: String
        let root: String

        init() throws {
            outside = try temporaryDirectory()
            root = outside + "/pkg"
            try FileManager.default.createDirectory(atPath: root + "/Sources/A", withIntermediateDirectories: true)
            try "TOP SECRET\n".write(toFile: outside + "/secret.txt", atomically: true, encoding: .utf8)
            try "let a = 1\n".write(toFile: root + "/Sources/A/a.swift", atomically: true, encoding: .utf8)
        }
    }

    func problem(_ result: Result<SourceText, SourceText.Problem>) -> SourceText.Problem? {
        if case .failure(let problem) = result { return problem }
        return nil
    }

    @Test("a file inside the root is read, by relative or absolute path")
    func inside() throws {
        let tree = try Tree()
        let sources = SourceFiles(root: tree.root)
        #expect(try sources.read("Sources/A/a.swift").get().lineCount == 1)
        #expect(try sources.read(tree.root + "/Sources/A/../A/a.swift").get().lineCount == 1)
    }

    @Test("`..` out of the root and symlinks out of it are not read")
    func outside() throws {
        let tree = try Tree()
        let sources = SourceFiles(root: tree.root)
        #expect(problem(sources.read("Sources/../../secret.txt")) == .outsideRoot)
        #expect(problem(sources.read(tree.root + "/Sources/../../secret.txt")) == .outsideRoot)
        try FileManager.default.createSymbolicLink(
            atPath: tree.root + "/Sources/A/link.swift", withDestinationPath: tree.outside + "/secret.txt")
        #expect(problem(sources.read("Sources/A/link.swift")) == .outsideRoot)
        try FileManager.default.createSymbolicLink(
            atPath: tree.root + "/Sources/A/zero.swift", withDestinationPath: "/dev/zero")
        #expect(problem(sources.read("Sources/A/zero.swift")) == .outsideRoot)
        // A root that contains them admits them.
        #expect(try SourceFiles(root: tree.outside).read("pkg/Sources/A/link.swift").get().lineCount == 1)
    }

    @Test("devices and FIFOs are never opened for reading; a file over 64 MiB is not read")
    func notRegular() throws {
        let tree = try Tree()
        #expect(problem(SourceText.read("/dev/zero")) == .notARegularFile)
        #expect(problem(SourceFiles(root: "/").read("/dev/zero")) == .notARegularFile)
        #expect(problem(SourceFiles(root: nil).read("/dev/null")) == .notARegularFile)
        let fifo = tree.root + "/Sources/A/fifo.swift"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO without a writer would block: it must not be opened at all.
        #expect(problem(SourceFiles(root: tree.root).read("Sources/A/fifo.swift")) == .notARegularFile)
        let big = tree.root + "/Sources/A/big.swift"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, off_t(SourceText.maximumSize + 1)) == 0)
        #expect(problem(SourceText.read(big)) == .tooLarge(bytes: SourceText.maximumSize + 1))
        #expect(SourceText.Problem.tooLarge(bytes: 67_108_865).description == "larger than 64 MiB (67108865 bytes)")
        #expect(problem(SourceText.read(tree.root + "/missing.swift")) == .unreadable("No such file or directory"))
    }

    @Test("the scope resolves `..` before deciding what is inside the root")
    func scope() {
        let scope = CoverageScope(root: "/work/pkg")
        #expect(scope.relativePath("Sources/../../../../etc/passwd") == nil)
        #expect(scope.defaultExclusion("Sources/../../../../etc/passwd") == .outsideRoot)
        #expect(!scope.includes("Sources/../../../../etc/passwd"))
        #expect(scope.displayPath("Sources/../../../../etc/passwd") == "/etc/passwd")
        #expect(scope.module(of: "Sources/../../../../etc/passwd") == CoverageScope.otherModule)
        #expect(!scope.includes("/work/pkg/Sources/../../../etc/passwd"))
        #expect(scope.displayPath("/work/pkg/Sources/A/../B/x.swift") == "Sources/B/x.swift")
        #expect(scope.includes("Sources/A/../B/x.swift"))
        // --all-files or an --include that names it brings it in, as any file outside the root.
        #expect(CoverageScope(root: "/work/pkg", allFiles: true).includes("Sources/../../../../etc/passwd"))
        #expect(
            CoverageScope(root: "/work/pkg", includes: [Glob("/etc/**")]).includes("Sources/../../../../etc/passwd"))
        #expect(CoverageScope.normalized("../../a/./b/") == "../../a/b")
        #expect(CoverageScope.normalized("/../a/..") == "/")
        #expect(CoverageScope.normalized("a/../..") == "..")
    }
}
