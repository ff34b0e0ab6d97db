/// What `swiftcov run` leaves in its output folder, found again by the commands that read it
/// back (`html` keeps the run's test results, `junit` defaults to them).
extension CoverageRun {
    /// The test results a run left in its output `folder`: its log and, when there is one, its
    /// event stream (read together, as the run read them); none when there is no log.
    package static func testResults(in folder: String) -> [String] {
        let log = folder + "/" + logName
        guard CoverageInput.fileKind(log) == .file else { return [] }
        let stream = folder + "/" + eventStreamName
        return CoverageInput.fileKind(stream) == .file ? [log, stream] : [log]
    }

    /// The output folder of the run that wrote the export at `exportPath`: the folder of a
    /// `CoverageInput.runExportName` that has a run's log beside it; nil for any other export.
    package static func outputFolder(ofExport exportPath: String) -> String? {
        guard exportPath == CoverageInput.runExportName || exportPath.hasSuffix("/" + CoverageInput.runExportName)
        else { return nil }
        var folder = String(exportPath.dropLast(CoverageInput.runExportName.count + 1))
        if folder.isEmpty { folder = exportPath.hasPrefix("/") ? "/" : "." }
        return testResults(in: folder).isEmpty ? nil : folder
    }
}
