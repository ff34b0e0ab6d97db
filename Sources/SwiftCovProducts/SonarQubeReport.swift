import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// SonarQube's generic test coverage format (`sonar.coverageReportPaths`):
/// `<coverage version="1"><file path=…><lineToCover lineNumber=… covered=…/></file></coverage>`,
/// with the executable lines of the line view and paths relative to the package root.
package enum SonarQubeReport {
    /// Writes `report` as SonarQube generic coverage XML.
    package static func write(_ report: CoverageReport, to xml: inout OutputBuffer) throws(CoverageInputError) {
        xml += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<coverage version=\"1\">\n"
        for file in report.files {
            let lines = try file.lineCounts()
            guard !lines.isEmpty else {
                xml += "  <file path=\"\(file.displayPath.xmlAttributeEscaped)\"/>\n"
                continue
            }
            xml += "  <file path=\"\(file.displayPath.xmlAttributeEscaped)\">\n"
            for line in lines {
                xml += "    <lineToCover lineNumber=\"\(line.line)\" covered=\"\(line.count > 0)\"/>\n"
            }
            xml += "  </file>\n"
        }
        xml += "</coverage>\n"
    }
}
