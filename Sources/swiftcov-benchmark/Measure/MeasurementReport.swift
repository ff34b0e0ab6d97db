import SwiftCovCore

/// Renders a `PipelineMeasurement`: a small table for people, JSON for scripts.
package enum MeasurementReport {
    /// The human table.
    package static func table(_ measurement: PipelineMeasurement) -> String {
        let size = measurement.fileSize
        var text = "\(measurement.path): \(megabytes(size)) MB, best of \(measurement.runs) runs, --format "
        text += measurement.format.rawValue + (measurement.showLines ? " --show-lines" : "") + "\n"
        text += "report: \(measurement.reportedFiles) files, \(measurement.reportedFunctions) functions, "
        text += "\(megabytes(measurement.outputBytes)) MB of output\n\n"

        var table = TextTable(columns: [
            TextTable.Column("stage", .left), TextTable.Column("wall s"), TextTable.Column("CPU s"),
            TextTable.Column("share"), TextTable.Column("MB/s"), TextTable.Column("RSS after, MB"),
        ])
        let phaseTotal = measurement.phases.reduce(0) { $0 + $1.timing.wall }
        for phase in measurement.phases {
            table.add([
                TextTable.Cell(phase.name), TextTable.Cell(seconds(phase.timing.wall)),
                TextTable.Cell(seconds(phase.timing.cpu)),
                TextTable.Cell(fixed(phaseTotal > 0 ? phase.timing.wall / phaseTotal * 100 : 0, 1) + "%"),
                TextTable.Cell(fixed(measurement.megabytesPerSecond(phase.timing.wall), 0)),
                TextTable.Cell(phase.residentBytesAfter.map(megabytes) ?? "-"),
            ])
        }
        table.addSeparator()
        table.add([
            "pipeline (makeReport + render)", TextTable.Cell(seconds(measurement.pipeline.wall)),
            TextTable.Cell(seconds(measurement.pipeline.cpu)), "",
            TextTable.Cell(fixed(measurement.megabytesPerSecond(measurement.pipeline.wall), 0)),
        ])
        if let foundation = measurement.foundationParse {
            table.add([
                "Foundation JSONSerialization (parse only)", TextTable.Cell(seconds(foundation.wall)),
                TextTable.Cell(seconds(foundation.cpu)), "",
                TextTable.Cell(fixed(measurement.megabytesPerSecond(foundation.wall), 0)),
            ])
        }
        text += table.render()

        let peak = measurement.peakResidentBytes
        let added = max(0, peak - measurement.baselineResidentBytes)
        text += "\npeak RSS: \(megabytes(peak)) MB = \(fixed(ratio(peak, size), 2))x the file"
        text += " (\(megabytes(added)) MB = \(fixed(ratio(added, size), 2))x above the"
        text += " \(megabytes(measurement.baselineResidentBytes)) MB the process held before the first run)\n"
        return text
    }

    /// The machine-readable form.
    package static func json(_ measurement: PipelineMeasurement) -> String {
        var fields = [
            "\"path\": " + JSONText.quoted(measurement.path),
            "\"fileBytes\": \(measurement.fileSize)",
            "\"runs\": \(measurement.runs)",
            "\"format\": " + JSONText.quoted(measurement.format.rawValue),
            "\"showLines\": \(measurement.showLines)",
            "\"reportedFiles\": \(measurement.reportedFiles)",
            "\"reportedFunctions\": \(measurement.reportedFunctions)",
            "\"outputBytes\": \(measurement.outputBytes)",
            "\"pipeline\": " + json(measurement.pipeline, measurement),
            "\"phases\": ["
                + measurement.phases.map {
                    "{\"name\": \(JSONText.quoted($0.name)), \"timing\": \(json($0.timing, measurement)), "
                        + "\"rssBytesAfter\": \($0.residentBytesAfter.map(String.init) ?? "null")}"
                }.joined(separator: ", ") + "]",
            "\"baselineRSSBytes\": \(measurement.baselineResidentBytes)",
            "\"peakRSSBytes\": \(measurement.peakResidentBytes)",
            "\"peakRSSPerFileByte\": "
                + JSONText.number(ratio(measurement.peakResidentBytes, measurement.fileSize)),
        ]
        if let foundation = measurement.foundationParse {
            fields.append("\"foundationParse\": " + json(foundation, measurement))
        }
        return "{\n  " + fields.joined(separator: ",\n  ") + "\n}\n"
    }

    private static func json(_ timing: Timing, _ measurement: PipelineMeasurement) -> String {
        "{\"wallSeconds\": \(JSONText.number(timing.wall)), \"cpuSeconds\": \(JSONText.number(timing.cpu)), "
            + "\"megabytesPerSecond\": \(JSONText.number(measurement.megabytesPerSecond(timing.wall)))}"
    }

    private static func ratio(_ value: Int, _ base: Int) -> Double {
        base > 0 ? Double(value) / Double(base) : 0
    }

    private static func megabytes(_ bytes: Int) -> String {
        fixed(Double(bytes) / 1e6, 1)
    }

    private static func seconds(_ value: Double) -> String {
        fixed(value, 4)
    }

    /// `value` with `decimals` digits after the point.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return "\(value)" }
        let whole = Int64(scaled)
        guard decimals > 0 else { return String(whole) }
        let sign = whole < 0 ? "-" : ""
        let magnitude = whole.magnitude
        let divisor = UInt64(scale)
        let fraction = String(magnitude % divisor)
        return sign + String(magnitude / divisor) + "." + String(repeating: "0", count: decimals - fraction.count)
            + fraction
    }
}
