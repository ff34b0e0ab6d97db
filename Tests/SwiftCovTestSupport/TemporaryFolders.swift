import Foundation
import Testing

/// A new empty folder for the running test, removed with everything in it when the test ends.
/// The test's suite must carry the `.removingTemporaryFolders` trait, which does the removing;
/// without it the call records an issue, so no test can leave folders behind unnoticed.
public func temporaryDirectory(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftcov-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    if let folders = TemporaryFolders.current {
        folders.add(path)
    } else {
        Issue.record(
            "temporaryDirectory() in a test whose suite lacks .removingTemporaryFolders: \(path) is left behind",
            sourceLocation: sourceLocation)
    }
    return path
}

/// Removes the folders each test of a suite made with `temporaryDirectory()` when that test
/// (or test case, for a parameterized test) ends, whether it passed, failed or threw.
public struct RemovingTemporaryFolders: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let folders = TemporaryFolders()
        defer { folders.removeAll() }
        try await TemporaryFolders.$current.withValue(folders) { try await function() }
    }
}

extension Trait where Self == RemovingTemporaryFolders {
    /// Removes the folders each test made with `temporaryDirectory()` when it ends.
    public static var removingTemporaryFolders: Self { Self() }
}

/// The folders made in one test's scope.
final class TemporaryFolders: @unchecked Sendable {
    @TaskLocal static var current: TemporaryFolders?

    private let lock = NSLock()
    private var paths: [String] = []

    func add(_ path: String) {
        lock.withLock { paths.append(path) }
    }

    func removeAll() {
        for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
