import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the HTML report into a folder: `index.html`, one page per file under `files/`, and
/// the stylesheet and script. Pages are rendered on all cores and each file is written
/// atomically; the index is written last, so a folder whose index is new is complete.
package enum HTMLSite {
    /// Why the site could not be written.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case cannotWrite(AtomicFile.WriteError)
        case malformedSegments(CoverageInputError)

        package var description: String {
            switch self {
            case .cannotWrite(let error): error.description
            case .malformedSegments(let error): error.description
            }
        }
    }

    /// Writes the site for `report` into `directory`, creating it if needed. Source files are
    /// read from the package root (`report.scope.root`) when the export's paths are relative.
    /// `extraFiles` get pages too, without counting in the tables (the test files that failures
    /// point at, so that a failure links to its line).
    /// What writing the site found: the files whose source could not be shown.
    package struct Written: Sendable {
        /// Display paths and why, in page order.
        package var missingSources: [(path: String, problem: SourceText.Problem)] = []
    }

    @discardableResult
    package static func write(
        _ report: CoverageReport, tests: TestRun? = nil, extraFiles: [FileCoverage] = [], to directory: String,
        options: HTMLReport.Options
    ) throws(Failure) -> Written {
        let pageFiles = report.files + extraFiles
        try makeDirectory(directory)
        try makeDirectory(directory + "/files")
        try write(HTMLAssets.stylesheet + "\n", to: directory + "/" + HTMLAssets.stylesheetName)
        try write(HTMLAssets.script + "\n", to: directory + "/" + HTMLAssets.scriptName)

        let names = SwiftDemangler.demangleAll(pageFiles.flatMap { $0.functions.map(\.mangledName) })
        var offsets: [Int] = []
        var position = 0
        for file in pageFiles {
            offsets.append(position)
            position += file.functions.count
        }
        let firstName = offsets

        let failures = FailureBox()
        let sources = SourceFiles(root: report.scope.root)
        let missing = MissingSources()
        let workers = max(1, min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 8))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < pageFiles.count && !failures.hasFailed {
                let file = pageFiles[index]
                do throws(Failure) {
                    let segments: [CoverageSegment]
                    do throws(CoverageInputError) {
                        segments = try file.segments()
                    } catch {
                        throw .malformedSegments(error)
                    }
                    let source: HTMLReport.Source
                    switch sources.read(file.path) {
                    case .success(let text): source = .text(text)
                    case .failure(let problem):
                        missing.record(index, (file.displayPath, problem))
                        source = .missing(path: file.displayPath, reason: problem.description)
                    }
                    let functionNames = Array(names[firstName[index]..<firstName[index] + file.functions.count])
                    let page = HTMLReport.filePageBuffer(
                        file, functionNames: functionNames, segments: segments, source: source, options: options)
                    try write(page, to: directory + "/" + HTMLReport.pageName(for: file.displayPath), durable: false)
                } catch {
                    failures.record(error)
                }
                index += workers
            }
        }
        if let failure = failures.first { throw failure }
        try write(
            HTMLReport.indexPageBuffer(
                report, tests: tests, linking: Set(pageFiles.map(\.displayPath)), options: options),
            to: directory + "/index.html",
            durable: true)
        return Written(missingSources: missing.inPageOrder)
    }

    private static func write(_ text: String, to path: String) throws(Failure) {
        do {
            try AtomicFile.write(text, to: path)
        } catch {
            throw .cannotWrite(error)
        }
    }

    private static func write(_ buffer: borrowing OutputBuffer, to path: String, durable: Bool) throws(Failure) {
        let result: Result<Void, AtomicFile.WriteError> = buffer.withBytes { bytes in
            Result { () throws(AtomicFile.WriteError) in try AtomicFile.write(bytes: bytes, to: path, durable: durable)
            }
        }
        do {
            try result.get()
        } catch {
            throw .cannotWrite(error)
        }
    }

    private static func makeDirectory(_ path: String) throws(Failure) {
        do {
            try AtomicFile.makeDirectory(path)
        } catch {
            throw .cannotWrite(error)
        }
    }

    /// The sources the workers could not read, by page index.
    private final class MissingSources: @unchecked Sendable {
        private let lock = NSLockLike()
        private var found: [(index: Int, path: String, problem: SourceText.Problem)] = []

        func record(_ index: Int, _ source: (path: String, problem: SourceText.Problem)) {
            lock.withLock { found.append((index, source.path, source.problem)) }
        }

        var inPageOrder: [(path: String, problem: SourceText.Problem)] {
            lock.withLock { found.sorted { $0.index < $1.index }.map { ($0.path, $0.problem) } }
        }
    }

    /// The first failure among the workers.
    private final class FailureBox: @unchecked Sendable {
        private let lock = NSLockLike()
        private var failure: Failure?

        var hasFailed: Bool { lock.withLock { failure != nil } }
        var first: Failure? { lock.withLock { failure } }

        func record(_ error: Failure) {
            lock.withLock { if failure == nil { failure = error } }
        }
    }
}

/// A pthread mutex, to avoid pulling Foundation into the engine for one lock.
private final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    func withLock<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
