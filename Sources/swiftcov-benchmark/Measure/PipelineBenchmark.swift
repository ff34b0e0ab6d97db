import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Times, in this process, what `swiftcov report --format json|table EXPORT` does between
/// parsing its arguments and printing: `CoverageRequest.makeReport` then the renderer.
///
/// Each run times the pipeline exactly as the command calls it, then once more stage by stage
/// (the same library calls `makeReport` makes: locate and read the export, settle the root
/// and build the report, render) for the breakdown. The best run counts: the one with the
/// least wall time, which is the least disturbed by the rest of the machine.
package struct PipelineBenchmark {
    /// The renderer measured.
    package enum Format: String, Sendable, CaseIterable {
        /// `CoverageJSONReport` (`--format json`).
        case json
        /// `CoverageTableReport` (`--format table`, the default of `swiftcov report`).
        case table
    }

    /// The export to read.
    package var path: String
    /// How many times to run; the best run is reported.
    package var runs = 5
    /// The renderer.
    package var format = Format.json
    /// Include per-line counts (`--show lines`): the JSON report then parses every file's segments.
    package var showLines = false

    /// A benchmark of the export at `path`.
    package init(path: String) {
        self.path = path
    }

    /// Runs the benchmark.
    package func run() throws -> PipelineMeasurement {
        let fileSize = try PipelineBenchmark.fileSize(path)
        let workingDirectory = PipelineBenchmark.workingDirectory()
        var options = CoverageReportOptions()
        options.showLines = showLines
        let baseline = ResourceSample.peakResidentBytes()

        var bestPipeline: Timing?
        var bestPhases: [(timing: Timing, resident: Int?)] = []
        var outputBytes = 0
        var files = 0
        var functions = 0
        var firstResidents: [Int?] = []
        for run in 0..<max(1, runs) {
            // Stages first: on the first run their resident sets are not inflated by memory an
            // earlier run freed but the allocator kept.
            let phases = try runPhases(options: options, workingDirectory: workingDirectory)
            if run == 0 { firstResidents = phases.map(\.resident) }
            if bestPhases.isEmpty
                || phases.reduce(0, { $0 + $1.timing.wall }) < bestPhases.reduce(0, { $0 + $1.timing.wall })
            {
                bestPhases = phases
            }

            let start = ResourceSample.now()
            let report = try CoverageRequest(inputs: [path]).makeReport(workingDirectory: workingDirectory)
            outputBytes = try render(report, options: options)
            let pipeline = ResourceSample.now().since(start)
            files = report.files.count
            functions = report.files.reduce(0) { $0 + $1.functions.count }
            if pipeline.wall < bestPipeline?.wall ?? .infinity { bestPipeline = pipeline }
        }
        for index in bestPhases.indices where index < firstResidents.count {
            bestPhases[index].resident = firstResidents[index]
        }
        return PipelineMeasurement(
            path: path, fileSize: fileSize, runs: max(1, runs), format: format, showLines: showLines,
            reportedFiles: files, reportedFunctions: functions, outputBytes: outputBytes,
            pipeline: bestPipeline ?? Timing(wall: 0, cpu: 0),
            phases: zip(PipelineMeasurement.phaseNames(format), bestPhases).map {
                PipelineMeasurement.Phase(name: $0, timing: $1.timing, residentBytesAfter: $1.resident)
            },
            baselineResidentBytes: baseline, peakResidentBytes: ResourceSample.peakResidentBytes())
    }

    /// One run stage by stage: read + parse, build the report, render; with the resident set
    /// after each stage, everything it made still alive.
    private func runPhases(options: CoverageReportOptions, workingDirectory: String) throws -> [(
        timing: Timing, resident: Int?
    )] {
        let start = ResourceSample.now()
        let located = try CoverageInput.locateExport(path)
        let export = try CoverageInput.readExport(located, keepMappings: false)
        let read = ResourceSample.now()
        let readResident = ResourceSample.currentResidentBytes()
        let root = CoverageInput.defaultRoot(
            for: [path], exportPaths: export.files.map(\.filename), workingDirectory: workingDirectory)
        let report = try CoverageReport.build(exports: [export], scope: CoverageScope(root: root))
        let built = ResourceSample.now()
        let builtResident = ResourceSample.currentResidentBytes()
        let size = try render(report, options: options)
        let rendered = ResourceSample.now()
        let renderedResident = ResourceSample.currentResidentBytes()
        withExtendedLifetime((export, report, size)) {}
        return [
            (read.since(start), readResident), (built.since(read), builtResident),
            (rendered.since(built), renderedResident),
        ]
    }

    /// Renders `report` and returns the size of the text, so that nothing is optimized away.
    private func render(_ report: CoverageReport, options: CoverageReportOptions) throws -> Int {
        switch format {
        case .json: return try CoverageJSONReport.render(report, options: options).utf8.count
        case .table: return CoverageTableReport.render(report, options: options).utf8.count
        }
    }

    /// The size of the file at `path`.
    static func fileSize(_ path: String) throws(BenchmarkError) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .system(path) }
        return Int(info.st_size)
    }

    private static func workingDirectory() -> String {
        guard let buffer = getcwd(nil, 0) else { return "." }
        defer { free(buffer) }
        return String(cString: buffer)
    }
}

/// The numbers of one `PipelineBenchmark` run.
package struct PipelineMeasurement: Sendable {
    /// One stage of the pipeline.
    package struct Phase: Sendable {
        /// "read + parse", "build report" or "render json".
        package var name: String
        /// Its best-run time.
        package var timing: Timing
        /// The resident set when it ended in the first run, what it made still alive (nil where unknown).
        package var residentBytesAfter: Int?
    }

    package var path: String
    /// Bytes of the export.
    package var fileSize: Int
    package var runs: Int
    package var format: PipelineBenchmark.Format
    package var showLines: Bool
    /// Files and function records in the report (the default scope: no tests, no `.build`).
    package var reportedFiles: Int
    package var reportedFunctions: Int
    /// Bytes of the rendered report.
    package var outputBytes: Int
    /// The best run of `makeReport` + render.
    package var pipeline: Timing
    /// The stages of the best stage-by-stage run.
    package var phases: [Phase]
    /// Peak resident set before the first run (the process itself: runtime, Foundation).
    package var baselineResidentBytes: Int
    /// Peak resident set after the last run.
    package var peakResidentBytes: Int
    /// Foundation's `JSONSerialization.jsonObject` on the same bytes, when compared.
    package var foundationParse: Timing?

    /// Names of the stages, in order.
    static func phaseNames(_ format: PipelineBenchmark.Format) -> [String] {
        ["read + parse", "build report", "render \(format.rawValue)"]
    }

    /// Decimal megabytes per second of wall time for `seconds` over the whole file.
    package func megabytesPerSecond(_ seconds: Double) -> Double {
        seconds > 0 ? Double(fileSize) / 1e6 / seconds : 0
    }
}
