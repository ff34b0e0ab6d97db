import Testing

@testable import SwiftCovCore

@Suite("Scope and modules")
struct CoverageScopeTests {
    let scope = CoverageScope(root: "/work/pkg")

    @Test(
        "by default a report covers what the package owns",
        arguments: [
            ("/work/pkg/Sources/TriviaGame/Game.swift", true),
            ("Sources/TriviaGame/Game.swift", true),
            ("/work/pkg/Tests/TriviaGameTests/GameTests.swift", false),
            ("/work/pkg/.build/checkouts/swift-numerics/Sources/RealModule/Real.swift", false),
            ("/work/pkg/.build/x86_64-unknown-linux-gnu/debug/pkgPackageTests.derived/runner.swift", false),
            (
                "/work/pkg/.build/x86_64-unknown-linux-gnu/debug/X.build/DerivedSources/resource_bundle_accessor.swift",
                false
            ),
            ("/work/other/Sources/Other/Other.swift", false),
            ("/work/pkgextra/Sources/A/A.swift", false),
        ])
    func defaults(path: String, included: Bool) {
        #expect(scope.includes(path) == included)
        #expect(CoverageScope(root: "/work/pkg", allFiles: true).includes(path))
    }

    @Test("--include brings files back, --exclude always wins")
    func patterns() {
        let tests = CoverageScope(root: "/work/pkg", includes: [Glob("Tests/**")])
        #expect(tests.includes("/work/pkg/Tests/ATests/A.swift"))
        #expect(!tests.includes("/work/pkg/Sources/A/A.swift"))
        let excluded = CoverageScope(
            root: "/work/pkg", excludes: [Glob("Sources/trivia/main.swift"), Glob("*+Generated.swift")])
        #expect(!excluded.includes("/work/pkg/Sources/trivia/main.swift"))
        #expect(!excluded.includes("/work/pkg/Sources/A/Deep/Model+Generated.swift"))
        #expect(excluded.includes("/work/pkg/Sources/A/Model.swift"))
    }

    @Test(
        "each file belongs to the target that owns it",
        arguments: [
            ("/work/pkg/Sources/TriviaCore/Models/Question.swift", "TriviaCore"),
            ("Sources/trivia/main.swift", "trivia"),
            ("/work/pkg/Tests/TriviaGameTests/GameTests.swift", "TriviaGameTests"),
            ("/work/pkg/.build/checkouts/swift-numerics/Sources/RealModule/Real.swift", "RealModule"),
            ("/work/pkg/.build/x86_64-unknown-linux-gnu/debug/pkgPackageTests.derived/runner.swift", "pkgPackageTests"),
            (
                "/work/pkg/.build/x86_64-unknown-linux-gnu/debug/X.build/DerivedSources/resource_bundle_accessor.swift",
                "X"
            ),
            ("/work/pkg/Tools/gen.swift", "Tools"),
            ("/elsewhere/gen.swift", "(other)"),
        ])
    func modules(path: String, module: String) {
        #expect(scope.module(of: path) == module)
    }

    @Test("paths a person reads are relative to the package root")
    func displayPaths() {
        #expect(scope.displayPath("/work/pkg/Sources/A/A.swift") == "Sources/A/A.swift")
        #expect(scope.displayPath("./Sources/A/A.swift") == "Sources/A/A.swift")
        #expect(scope.displayPath("/elsewhere/B.swift") == "/elsewhere/B.swift")
    }

    @Test("the package root is inferred from the export's paths")
    func inferredRoot() {
        let paths = [
            "/ci/build/pkg/Sources/A/A.swift", "/ci/build/pkg/Sources/B/B.swift", "/ci/build/pkg/Tests/ATests/T.swift",
            "/ci/build/pkg/.build/checkouts/dep/Sources/D/D.swift",
        ]
        #expect(CoverageScope.inferredRoot(from: paths) == "/ci/build/pkg")
        #expect(
            CoverageInput.defaultRoot(for: ["x.json"], exportPaths: paths, workingDirectory: "/home/me")
                == "/ci/build/pkg")
        #expect(
            CoverageInput.defaultRoot(for: ["x.json"], exportPaths: paths, workingDirectory: "/ci/build/pkg")
                == "/ci/build/pkg")
        #expect(
            CoverageInput.defaultRoot(for: ["x.json"], exportPaths: ["Sources/A/A.swift"], workingDirectory: "/w")
                == "/w")
    }

    @Test(
        "glob patterns",
        arguments: [
            ("Sources/**", "Sources/A/B/c.swift", true),
            ("Sources/*/c.swift", "Sources/A/c.swift", true),
            ("Sources/*/c.swift", "Sources/A/B/c.swift", false),
            ("Sources/**/c.swift", "Sources/c.swift", true),
            ("**/Generated/**", "Sources/A/Generated/x.swift", true),
            ("*.swift", "Sources/A/x.swift", true),
            ("x?.swift", "Sources/xy.swift", true),
            ("Sources/A/", "Sources/A/x.swift", true),
            ("Sources/A", "Sources/AB/x.swift", false),
        ])
    func globs(pattern: String, path: String, matches: Bool) {
        #expect(Glob(pattern).matches(path) == matches)
    }

    @Test(
        "paths that normalizing would change are found in one pass",
        arguments: [
            ("", false), ("/", true), (".", true), ("..", true), ("a", false), ("/a/b.swift", false),
            ("a/", true), ("a//b", true), ("//a", true), ("./a", true), ("../a", true), ("a/.", true),
            ("a/..", true), ("a/./b", true), ("a/../b", true), (".a/b.", false), ("a/.b/..c", false),
            ("a/.../b", false), ("Sources/A/B.swift", false),
        ])
    func needsNormalizing(path: String, expected: Bool) {
        #expect(CoverageScope.needsNormalizing(path) == expected)
        if !expected { #expect(CoverageScope.normalized(path) == path || path.isEmpty) }
    }

    @Test(
        "a path as seen from a folder: down, up and across, as `realpath --relative-to` gives it",
        arguments: [
            ("/p/out/a.png", "/p", "out/a.png"), ("/p/out/a.png", "/p/reports", "../out/a.png"),
            ("/p/a.png", "/p/x/y/", "../../a.png"), ("/p", "/p", "."), ("/q/a", "/p/b", "../../q/a"),
            ("/p/./out/../a", "/p", "a"), ("out/a.png", "reports", "../out/a.png"), ("out/a", ".", "out/a"),
            ("/p/a", "reports", "/p/a"), ("/a", "/", "a"),
        ])
    func relativeToFolder(path: String, folder: String, expected: String) {
        #expect(CoverageScope.path(path, relativeTo: folder) == expected)
    }

    @Test("needsNormalizing agrees with the definition by String.contains it replaced")
    func needsNormalizingAgreesWithOldDefinition() {
        // The definition it replaced, as the answer.
        func expected(_ path: String) -> Bool {
            path.hasSuffix("/") || path.contains("//") || path == "." || path == ".." || path.hasPrefix("./")
                || path.hasPrefix("../") || path.hasSuffix("/.") || path.hasSuffix("/..") || path.contains("/./")
                || path.contains("/../")
        }
        let parts = ["", "/", ".", "..", "a", "..a", ".a", "a.", "é", "//", "/./", "/../", "a/b"]
        for first in parts {
            for second in parts {
                for third in ["", "/", ".", "x", "/.."] {
                    let path = first + second + third
                    #expect(CoverageScope.needsNormalizing(path) == expected(path), "\(path)")
                }
            }
        }
    }
}
