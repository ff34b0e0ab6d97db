import Foundation
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Cobertura, lcov and SonarQube output: golden files for the trivia sample, and on the real
/// fixtures the per-line counts and function numbers of llvm-cov's own lcov export.
@Suite("Interchange formats")
struct ExportFormatTests {
    static let options = InterchangeOptions(timestamp: 1_763_800_000_000, version: "0.1.0")

    var sample: CoverageReport {
        get throws {
            try CoverageReport.build(exports: [Fixture.sample.export()], scope: CoverageScope(root: "/checkout"))
        }
    }

    @Test("golden files for the trivia sample", arguments: InterchangeFormat.allCases)
    func golden(format: InterchangeFormat) throws {
        let ext = format == .lcov ? "lcov" : "xml"
        try assertGolden(format.render(sample, options: Self.options), "export-sample-\(format.rawValue).\(ext)")
    }

    @Test("lcov: DA lines, FNF and FNH equal llvm-cov's own lcov export", arguments: Fixture.all + [Fixture.sample])
    func lcovAgreesWithLLVMCov(fixture: Fixture) throws {
        let report =
            fixture.name == "SampleReports"
            ? try CoverageReport.build(exports: [fixture.export()], scope: CoverageScope(root: "/checkout"))
            : try fixture.report()
        let ours = LcovRecord.parse(try InterchangeFormat.lcov.render(report, options: Self.options))
        let theirs = LcovRecord.parse(try fixture.text("llvm-cov.lcov"))
        #expect(Set(ours.keys) == Set(theirs.keys))
        for (file, record) in theirs {
            let mine = try #require(ours[file])
            // llvm-cov prints the raw count where the JSON export clamps it to Int64.max.
            #expect(mine.lines == record.lines.mapValues { min($0, UInt64(Int64.max)) }, "\(file)")
            #expect(mine.fields["FNF"] == record.fields["FNF"], "\(file)")
            #expect(mine.fields["FNH"] == record.fields["FNH"], "\(file)")
            // LF/LH: the DA lines themselves (llvm-cov writes its summary numbers there).
            #expect(mine.fields["LF"] == UInt64(mine.lines.count), "\(file)")
            #expect(mine.fields["LH"] == UInt64(mine.lines.values.filter { $0 > 0 }.count), "\(file)")
            // One FN per llvm-cov function, with unique names, each with its FNDA.
            #expect(UInt64(mine.functions.count) == record.fields["FNF"], "\(file)")
            #expect(Set(mine.functions).count == mine.functions.count, "\(file)")
            #expect(Set(mine.functionCounts.keys) == Set(mine.functions), "\(file)")
        }
    }

    @Test("lcov: names are demangled and carry no comma genhtml would cut them at")
    func lcovNames() throws {
        let text = try InterchangeFormat.lcov.render(sample, options: Self.options)
        let names = text.split(separator: "\n").filter { $0.hasPrefix("FN:") }.map { $0.drop { $0 != "," }.dropFirst() }
        #expect(names.contains("TriviaCore.Question.isCorrect(TriviaCore.AnswerChoice) -> Swift.Bool"))
        #expect(!names.contains { $0.contains(",") || $0.hasPrefix("$s") })
        #expect(
            names.contains {
                $0.hasPrefix("TriviaCore.LaunchConfiguration.init(isUITesting: Swift.Bool\u{201A} questionsURL:")
            })
    }

    @Test("Cobertura: hits are the line view; every rate and total follows from the lines", arguments: Fixture.all)
    func coberturaConsistent(fixture: Fixture) throws {
        let report = try fixture.report()
        let xml = try InterchangeFormat.cobertura.render(report, options: Self.options)
        let document = try CoberturaDocument(xml)
        var total = Metric()
        for file in report.files {
            let counts = try file.lineCounts()
            let lines = try #require(document.classLines[file.displayPath])
            #expect(lines == Dictionary(uniqueKeysWithValues: counts.map { ($0.line, $0.count) }))
            #expect(document.classRates[file.displayPath] == CoberturaReport.rate(counts.metric))
            total += counts.metric
        }
        #expect(document.root["lines-valid"] == String(total.count))
        #expect(document.root["lines-covered"] == String(total.covered))
        #expect(document.root["line-rate"] == CoberturaReport.rate(total))
        #expect(document.root["timestamp"] == "1763800000000")
        #expect(document.sources == ["/package"])
    }

    @Test("Cobertura: one package per module, one class per file, methods with their own lines")
    func coberturaStructure() throws {
        let report = try sample
        let document = try CoberturaDocument(try InterchangeFormat.cobertura.render(report, options: Self.options))
        #expect(document.packages == report.modules.map(\.name))
        #expect(document.classNames["Sources/TriviaCore/Question.swift"] == "Question.swift")
        let isCorrect = try #require(
            document.methods["TriviaCore.Question.isCorrect(TriviaCore.AnswerChoice) -> Swift.Bool"])
        #expect(isCorrect.lines == [42: 27, 43: 27, 44: 27])  // llvm-cov.lcov's DA lines
        #expect(isCorrect.rate == "1")
        // A method's lines include those of the closures inside it.
        let initializer = try #require(
            document.methods.first { $0.key.hasPrefix("TriviaCore.LaunchConfiguration.init(arguments:") }?.value)
        #expect(initializer.lines.keys.contains(66))
    }

    @Test("Cobertura rates: fractions in plain decimal notation, 1 when there is nothing to cover")
    func rates() {
        #expect(CoberturaReport.rate(Metric(count: 0, covered: 0)) == "1")
        #expect(CoberturaReport.rate(Metric(count: 4, covered: 4)) == "1")
        #expect(CoberturaReport.rate(Metric(count: 4, covered: 0)) == "0")
        #expect(CoberturaReport.rate(Metric(count: 3, covered: 1)) == "0.3333333333333333")
        let tiny = CoberturaReport.rate(Metric(count: 300_000, covered: 1))
        #expect(!tiny.contains("e"))
        #expect(Double(tiny) == 1.0 / 300_000)
    }

    @Test("hostile names stay inert: XML well-formed with the text intact, lcov records unbroken")
    func hostileNames() throws {
        // An invented export: no real one has such names.
        let path = "Sources/Evil/<script>&\\\"'\\u0000\\u001b[31m\\n,x.swift"
        let json = """
            {"data":[{"files":[{"filename":"\(path)","segments":[[1,1,2,true,true,false],[2,2,0,false,false,false]],\
            "summary":{"lines":{"count":2,"covered":2}}}],"functions":[{"count":2,"filenames":["\(path)"],\
            "name":"f,\\u001b[2J</method>\\nSF:x","regions":[[1,1,2,2,2,0,0,0]]}]}],"type":"llvm.coverage.json.export","version":"3.0.1"}
            """
        let export = try LLVMCovExportReader.read(MappedFile(bytes: Array(json.utf8)))
        let report = try CoverageReport.build(exports: [export], scope: CoverageScope(root: "/p"))
        let cobertura = try InterchangeFormat.cobertura.render(report, options: Self.options)
        let document = try CoberturaDocument(cobertura)
        let file = try #require(document.classLines.keys.first)
        #expect(file.hasPrefix("Sources/Evil/<script>&\"'\u{FFFD}"))
        // A newline in an attribute is written as &#10;, so that it reads back as a newline
        // rather than as the space XML attribute normalization makes of a raw one.
        #expect(document.methods.keys.first?.hasSuffix("</method>\nSF:x") == true)
        #expect(cobertura.contains("&lt;/method&gt;&#10;SF:x"))
        let sonar = try InterchangeFormat.sonarqube.render(report, options: Self.options)
        #expect(!sonar.contains("<script>") && !sonar.contains("\u{1B}") && !sonar.contains("\u{0}"))
        let lcov = try InterchangeFormat.lcov.render(report, options: Self.options)
        #expect(
            lcov.split(separator: "\n").map { $0.prefix { $0 != ":" } } == [
                "SF", "FN", "FNDA", "FNF", "FNH", "DA", "DA", "LF", "LH", "end_of_record",
            ])
        #expect(!lcov.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test("SonarQube: one lineToCover per executable line")
    func sonarQube() throws {
        let report = try Fixture.all[1].report()
        let xml = try InterchangeFormat.sonarqube.render(report, options: Self.options)
        #expect(!report.files.isEmpty)
        for file in report.files {
            let counts = try file.lineCounts()
            let covered = counts.filter { $0.count > 0 }.count
            let section = try #require(
                xml.split(separator: "<file ").first { $0.hasPrefix("path=\"\(file.displayPath)\"") })
            #expect(section.components(separatedBy: "<lineToCover ").count - 1 == counts.count)
            #expect(section.components(separatedBy: "covered=\"true\"").count - 1 == covered)
        }
    }
}

/// One lcov record: `DA` lines, function names with their `FNDA` counts, and the number fields.
struct LcovRecord {
    var lines: [UInt32: UInt64] = [:]
    var functions: [String] = []
    var functionCounts: [String: UInt64] = [:]
    var fields: [String: UInt64] = [:]

    static func parse(_ text: String) -> [String: LcovRecord] {
        var records: [String: LcovRecord] = [:]
        var file = ""
        for line in text.split(separator: "\n") {
            let (key, value) = (line.prefix { $0 != ":" }, line.drop { $0 != ":" }.dropFirst())
            switch key {
            case "SF": file = String(value)
            case "DA":
                let parts = value.split(separator: ",")
                records[file, default: LcovRecord()].lines[UInt32(parts[0])!] = UInt64(parts[1])!
            case "FN":
                records[file, default: LcovRecord()].functions.append(String(value.drop { $0 != "," }.dropFirst()))
            case "FNDA":
                let name = String(value.drop { $0 != "," }.dropFirst())
                records[file, default: LcovRecord()].functionCounts[name] = UInt64(value.prefix { $0 != "," })!
            case "FNF", "FNH", "LF", "LH": records[file, default: LcovRecord()].fields[String(key)] = UInt64(value)!
            default: break
            }
        }
        return records
    }
}

/// A Cobertura document read back with Foundation's XML parser: proof it is well-formed, and
/// what a reader finds in it.
final class CoberturaDocument: NSObject, XMLParserDelegate {
    struct Method {
        var rate = ""
        var lines: [UInt32: UInt64] = [:]
    }

    var root: [String: String] = [:]
    var sources: [String] = []
    var packages: [String] = []
    var classNames: [String: String] = [:]
    var classRates: [String: String] = [:]
    var classLines: [String: [UInt32: UInt64]] = [:]
    var methods: [String: Method] = [:]
    private var currentClass: String?
    private var currentMethod: String?
    private var text = ""

    init(_ xml: String) throws {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        text = ""
        switch element {
        case "coverage": root = attributes
        case "package": packages.append(attributes["name"] ?? "")
        case "class":
            let filename = attributes["filename"] ?? ""
            currentClass = filename
            classNames[filename] = attributes["name"]
            classRates[filename] = attributes["line-rate"]
            classLines[filename] = [:]
        case "method":
            let name = attributes["name"] ?? ""
            currentMethod = name
            methods[name] = Method(rate: attributes["line-rate"] ?? "")
        case "line":
            let number = UInt32(attributes["number"] ?? "") ?? 0
            let hits = UInt64(attributes["hits"] ?? "") ?? 0
            if let method = currentMethod {
                methods[method]?.lines[number] = hits
            } else if let file = currentClass {
                classLines[file]?[number] = hits
            }
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "source": sources.append(text)
        case "method": currentMethod = nil
        case "class": currentClass = nil
        default: break
        }
    }
}
