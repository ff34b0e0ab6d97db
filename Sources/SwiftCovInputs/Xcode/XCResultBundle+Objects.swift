import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// The bundle's object graph: its root (an `ActionsInvocationRecord`), the objects it refers to,
/// and what coverage and tests are read from them.
extension XCResultBundle {
    /// The object `id`, read from its typed encoding.
    package func graphObject(_ id: String) throws(XcodeInputError) -> XCResultObject {
        let bytes = try object(id)
        do throws(TestResultsError) {
            return try bytes.withUnsafeBytes { buffer in
                Result { () throws(TestResultsError) in
                    try XCResultObject.parseTypedEncoding(buffer, path: path + "/Data/data." + id)
                }
            }.get()
        } catch {
            let diagnostic = error.diagnostic
            throw XcodeInputError(path: diagnostic.file ?? path, diagnostic.message)
        }
    }

    /// The root object.
    package func invocationRecord() throws(XcodeInputError) -> XCResultObject {
        let root = try graphObject(rootID)
        guard root.isA("ActionsInvocationRecord") else {
            throw XcodeInputError(path: path, "the root object is a \(root.type), not an ActionsInvocationRecord")
        }
        return root
    }

    /// The coverage report of the bundle's test actions (`actions[].actionResult.coverage.reportRef`),
    /// and the project root from the record's metadata. Several actions with the same numbers
    /// (a test repeated) give one report; different reports cannot be added up.
    package func coverage() throws(XcodeInputError) -> (coverage: XcodeCoverage, workspace: String?) {
        let record = try invocationRecord()
        var reports: [(id: String, coverage: XcodeCoverage)] = []
        for action in record.array("actions") {
            guard let id = action["actionResult"]?["coverage"]?.reference("reportRef"),
                !reports.contains(where: { $0.id == id })
            else { continue }
            let bytes = try object(id)
            let coverage = try bytes.withUnsafeBytes { buffer in
                Result { () throws(XcodeInputError) in
                    try XcodeCoverage.readReportArchive(buffer, path: path + "/Data/data." + id)
                }
            }.get()
            reports.append((id, coverage))
        }
        guard let first = reports.first else {
            throw XcodeInputError(
                path: path,
                "no coverage in this bundle: run the tests with code coverage on (`-enableCodeCoverage YES`, "
                    + "or the scheme's test plan option)")
        }
        if reports.contains(where: { $0.coverage != first.coverage }) {
            throw XcodeInputError(
                path: path,
                "\(reports.count) coverage reports (one per test action) with different numbers: totals cannot "
                    + "be added up; give one action's report (`xcrun xccov view --report --json`) and its archive")
        }
        return (first.coverage, workspaceFolder(of: record))
    }

    /// The project root: the folder the tests ran from (`metadataRef` →
    /// `creatingWorkspaceFilePath`): a package's folder, or the folder holding the `.xcodeproj` or
    /// `.xcworkspace`.
    func workspaceFolder(of record: XCResultObject) -> String? {
        guard let id = record.reference("metadataRef"), let metadata = try? graphObject(id),
            let workspace = metadata.string("creatingWorkspaceFilePath"), workspace.hasPrefix("/")
        else { return nil }
        var folder: [Substring] = []
        for component in workspace.split(separator: "/") {
            if component.hasSuffix(".xcodeproj") || component.hasSuffix(".xcworkspace") || component == ".swiftpm" {
                return "/" + folder.joined(separator: "/")
            }
            folder.append(component)
        }
        // A package opened in Xcode: the package's folder itself.
        return "/" + folder.joined(separator: "/")
    }
}

extension XCResultBundle {
    /// The tests of the bundle at `path`: every test action's results, with the objects they
    /// refer to loaded from the bundle (an object the bundle does not hold is absent, not an error:
    /// the reader says what it could not read; one it holds as something else than a regular file
    /// is an error). Each test's texts are kept within the log reader's limits (`boundText`).
    package static func testRun(path: String) throws(TestResultsError) -> TestRun {
        // Bundles of Xcode 16 and later may keep their results only in database.sqlite3.
        if holdsOnlyDatabase(path) {
            return try XcodeResultDatabase.testRun(bundle: path)
        }
        let (bundle, record) = try openGraph(path)
        var run = try XcodeTestResults.testRun(object: record, load: bundle.loader, path: path)
        run.boundText()
        if let warning = bundle.versionWarning { run.warnings.insert(warning, at: 0) }
        return run
    }
}

extension XCResultBundle {
    /// The results of the bundle at `path`'s tests, from which `xcresulttool get test-results`'
    /// documents are made: from its object graph, or from its `database.sqlite3` when that is all
    /// it holds; with warnings for what could not be read.
    package static func testResults(path: String) throws(TestResultsError) -> (
        results: XcodeTestsDocument.Results, warnings: [Diagnostic]
    ) {
        if holdsOnlyDatabase(path) {
            let results = try XcodeResultDatabase.withDatabase(bundle: path) {
                (database) throws(SQLiteDatabase.DecodeError) in try XcodeResultDatabase.results(database)
            }
            return (results, [])
        }
        let (bundle, record) = try openGraph(path)
        var (results, warnings) = try XcodeTestResults.testResults(
            invocationRecord: record, load: bundle.loader, path: path)
        if let warning = bundle.versionWarning { warnings.insert(warning, at: 0) }
        return (results, warnings)
    }

    /// The bundle at `path` and its root object, for the tests' readers.
    static func openGraph(_ path: String) throws(TestResultsError) -> (XCResultBundle, XCResultObject) {
        do throws(XcodeInputError) {
            let bundle = try XCResultBundle(path: path)
            return (bundle, try bundle.invocationRecord())
        } catch {
            throw error.testResultsError
        }
    }

    /// The bundle's objects for the tests' reader: an object the bundle does not hold is absent
    /// (nil), one it holds and cannot read an error.
    var loader: XcodeTestResults.Loader {
        { (id) throws(TestResultsError) -> XCResultObject? in
            guard hasObject(id) else { return nil }
            do throws(XcodeInputError) {
                return try graphObject(id)
            } catch {
                throw error.testResultsError
            }
        }
    }

    /// The bytes of an attachment's payload (`Data/data.<id>`): stored as they are, or a zstd
    /// frame, decoded within the bundle's ceiling.
    package func payload(_ payload: TestEvidence.Payload) throws(XcodeInputError) -> [UInt8] {
        try object(payload.id)
    }

    /// The file of an attachment's payload when its bytes are stored as they are (a screenshot, a
    /// recording: copied from it, never read whole); nil when it is a zstd frame (`payload(_:)`
    /// decodes it). Only a regular file inside the bundle is given.
    package func rawPayloadFile(_ payload: TestEvidence.Payload) throws(XcodeInputError) -> String? {
        guard Self.isObjectID(payload.id) else {
            throw XcodeInputError(path: path, "a reference to `\(payload.id)`, not an object id")
        }
        let relative = "Data/data." + payload.id
        let file = try Self.fileInside(
            realPath, path: path, relative, missing: "the object \(payload.id) is missing (\(relative))")
        let magic: [UInt8]
        do {
            magic = try FileSystem.prefix(4, of: file)
        } catch {
            throw XcodeInputError(path: file, "cannot read: \(error.reason)")
        }
        return magic == [0x28, 0xB5, 0x2F, 0xFD] ? nil : file
    }
}

extension XcodeInputError {
    /// The same error, for the test readers.
    var testResultsError: TestResultsError {
        .malformedXcodeResult(path: path, offset: nil, keyPath: location, message: message)
    }
}
