import SwiftCovFormats
import SwiftCovModel

/// `report --show tests` on a terminal: after the coverage table, each file with the tests that
/// executed its lines (per-test data of `run --per-test`), and how many of its lines each ran.
/// JSON lists the tests line by line; a table stays readable with one row per file and test.
package enum PerTestTableReport {
    /// The table for `report`'s files, by `perTest`; `width` as for the coverage table.
    package static func render(_ report: CoverageReport, perTest: PerTestCoverage, width: Int? = nil) -> String {
        var table = TextTable(columns: [
            TextTable.Column("File / Test", .left), TextTable.Column("Lines"), TextTable.Column("Ran"),
            TextTable.Column("Tests"),
        ])
        var unrecorded = 0
        for file in report.files {
            guard let fileIndex = perTest.fileIndex(of: file.displayPath),
                let executable = perTest.executableLines(ofFile: file.displayPath)
            else {
                unrecorded += 1
                continue
            }
            var ran = Set<UInt32>()
            var rows: [(id: String, lines: Int)] = []
            for test in perTest.tests {
                let lines = perTest.executedLines(of: test, inFile: fileIndex)
                guard !lines.isEmpty else { continue }
                ran.formUnion(lines)
                rows.append((test.id, lines.count))
            }
            table.add([
                TextTable.Cell(file.displayPath.terminalSafe), TextTable.Cell(String(executable.count)),
                TextTable.Cell(String(ran.count)), TextTable.Cell(String(rows.count)),
            ])
            for row in rows {
                table.add([
                    TextTable.Cell("  " + row.id.terminalSafe), TextTable.Cell(""), TextTable.Cell(String(row.lines)),
                    "",
                ])
            }
        }
        let recording = perTest.recording
        var text =
            "Tests that ran each file (per-test data of "
            + (recording.commit.isEmpty ? "no commit" : String(recording.commit.prefix(12)).terminalSafe)
            + (recording.dirty ? " with changes" : "") + ")\n\n"
        text += table.render(maxWidth: width)
        if unrecorded > 0 { text += "\(unrecorded) file(s) of the report have no per-test data.\n" }
        return text
    }
}
