import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// Why a gate configuration cannot be used, with the file and the key path (or line and column
/// for JSON syntax) of the problem.
package struct GateConfigurationError: DiagnosticConvertible, Equatable {
    package var path: String
    /// The key path of the value ("thresholds.lines"), or the line and column of a syntax error.
    package var location: Diagnostic.Location
    package var message: String

    package var diagnostic: Diagnostic { Diagnostic(file: path, at: location, message) }
}

/// Something to fix in a configuration that does not stop the gate (an error with `--strict`).
package struct GateConfigurationWarning: Equatable, Sendable, CustomStringConvertible {
    package var path: String
    /// The key path of the rule.
    package var location: String
    package var message: String

    package var diagnostic: Diagnostic { .warning(file: path, at: .keyPath(location), message) }
    package var description: String { diagnostic.description }
}

extension GateConfiguration {
    /// The keys a configuration may have at the top level.
    package static let topLevelKeys = [
        "thresholds", "modules", "files", "exempt", "include", "exclude", "allFiles", "ratchet", "failOn",
        "tests", "quarantine",
    ]

    /// Parses a configuration document; `path` names it in errors.
    package static func parse(_ bytes: [UInt8], path: String) throws(GateConfigurationError) -> GateConfiguration {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw GateConfigurationError(
                path: path, location: lineAndColumn(of: error.offset, in: bytes), message: error.message)
        }
        func fail(_ location: String, _ message: String) -> GateConfigurationError {
            GateConfigurationError(path: path, location: .keyPath(location), message: message)
        }
        guard case .object(let members) = document else { throw fail("(root)", "expected an object") }
        var configuration = GateConfiguration()
        for (key, value) in members {
            switch key {
            case "thresholds":
                configuration.totals = try minimums(value, at: "thresholds", fail)
            case "modules":
                guard case .object(let modules) = value else {
                    throw fail("modules", "expected an object of module names")
                }
                for (name, rule) in modules {
                    configuration.modules[name] = try minimums(rule, at: "modules.\(abbreviated(name))", fail)
                }
            case "files":
                guard case .object(let rules) = value else { throw fail("files", "expected an object of globs") }
                for (pattern, rule) in rules {
                    configuration.files.append(
                        FileRule(
                            pattern: Glob(pattern),
                            minimums: try minimums(rule, at: "files.\(abbreviated(pattern))", fail)))
                }
            case "exempt", "include", "exclude":
                guard case .array(let items) = value else { throw fail(key, "expected an array of globs") }
                var globs: [Glob] = []
                for (index, item) in items.enumerated() {
                    guard case .string(let pattern) = item, !pattern.isEmpty else {
                        throw fail("\(key)[\(index)]", "expected a glob string")
                    }
                    globs.append(Glob(pattern))
                }
                switch key {
                case "exempt": configuration.exempt = globs
                case "include": configuration.includes = globs
                default: configuration.excludes = globs
                }
            case "allFiles":
                guard case .bool(let flag) = value else { throw fail("allFiles", "expected true or false") }
                configuration.allFiles = flag
            case "ratchet":
                guard case .object(let options) = value else { throw fail("ratchet", "expected an object") }
                configuration.ratchetTolerance = 0
                for (option, setting) in options {
                    guard option == "tolerance" else {
                        throw fail("ratchet.\(abbreviated(option))", "unknown key; expected \"tolerance\"")
                    }
                    if case .number(let tolerance) = setting, !tolerance.isFinite {
                        throw fail(
                            "ratchet.tolerance", "number out of range; expected percentage points between 0 and 100")
                    }
                    guard case .number(let tolerance) = setting, tolerance >= 0, tolerance <= 100 else {
                        throw fail("ratchet.tolerance", "expected percentage points between 0 and 100")
                    }
                    configuration.ratchetTolerance = tolerance
                }
            case "failOn":
                guard case .array(let items) = value else {
                    throw fail("failOn", "expected an array of category codes such as [\"UNC\", \"LBC\"]")
                }
                for (index, item) in items.enumerated() {
                    guard case .string(let code) = item, let category = DifferentialCategory(rawValue: code) else {
                        throw fail(
                            "failOn[\(index)]",
                            "expected one of " + DifferentialCategory.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    configuration.failOn.insert(category)
                }
            case "tests":
                configuration.tests = try testRules(value, fail)
            case "quarantine":
                switch value {
                case .string(let file) where !file.isEmpty:
                    // Relative to the configuration's folder.
                    let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
                    configuration.quarantineFile = file.hasPrefix("/") ? file : folder + file
                case .array(let items):
                    for (index, item) in items.enumerated() {
                        guard case .string(let text) = item, let id = TestID(text) else {
                            throw fail("quarantine[\(index)]", Self.notATestID)
                        }
                        configuration.quarantine.append(
                            QuarantinedTest(id: id, file: path, location: .keyPath("quarantine[\(index)]")))
                    }
                default:
                    throw fail("quarantine", "expected an array of test IDs or the path of a file of them")
                }
            default:
                throw fail(abbreviated(key), "unknown key" + suggestion(for: key, among: topLevelKeys))
            }
        }
        return configuration
    }

    private static let notATestID =
        "expected a test ID as `swift test list` prints it (Module.Class/method, Module.Suite/function())"

    /// `"tests": {"flaky": "pass", "orderDependent": "fail"}`.
    private static func testRules(
        _ value: JSONValue, _ fail: (String, String) -> GateConfigurationError
    ) throws(GateConfigurationError) -> TestRules {
        guard case .object(let members) = value else {
            throw fail("tests", "expected an object such as {\"flaky\": \"pass\"}")
        }
        var rules = TestRules()
        let keys = ["flaky", "orderDependent"]
        for (key, setting) in members {
            guard keys.contains(key) else {
                throw fail("tests.\(abbreviated(key))", "unknown key" + suggestion(for: key, among: keys))
            }
            guard case .string(let text) = setting, let verdict = TestRules.Verdict(rawValue: text) else {
                throw fail("tests.\(key)", "expected \"pass\" or \"fail\", found \(describe(setting))")
            }
            if key == "flaky" { rules.flaky = verdict } else { rules.orderDependent = verdict }
        }
        return rules
    }

    /// Reads a quarantine file: one test ID a line as `swift test list` prints it; blank lines
    /// and what follows a `#` are left out. `path` names it in errors (`path:line`).
    package static func parseQuarantine(
        _ bytes: [UInt8], path: String
    ) throws(GateConfigurationError) -> [QuarantinedTest] {
        var tests: [QuarantinedTest] = []
        let text = String(
            decoding: bytes.starts(with: JSONValue.byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self)
        for (index, line) in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
        )
        .enumerated() {
            var entry = line.prefix { $0 != "#" }
            while let first = entry.first, first == " " || first == "\t" { entry = entry.dropFirst() }
            while let last = entry.last, last == " " || last == "\t" || last == "\r" { entry = entry.dropLast() }
            guard !entry.isEmpty else { continue }
            guard let id = TestID(entry) else {
                throw GateConfigurationError(
                    path: path, location: .line(index + 1),
                    message: "\(JSONWriter.quoted(abbreviated(String(entry)))): " + notATestID)
            }
            tests.append(QuarantinedTest(id: id, file: path, location: .line(index + 1)))
        }
        return tests
    }

    /// The quarantine entries that name no test of `run`: probably a test renamed or removed.
    package func unmatchedQuarantine(in run: TestRun) -> [Diagnostic] {
        quarantine.filter { entry in !run.cases.contains(where: entry.id.matches) }.map { entry in
            .warning(file: entry.file, at: entry.location, "quarantined test \(entry.id.id) matches no test of the run")
        }
    }

    private static func minimums(
        _ value: JSONValue, at location: String, _ fail: (String, String) -> GateConfigurationError
    ) throws(GateConfigurationError) -> Minimums {
        guard case .object(let members) = value else {
            throw fail(location, "expected an object such as {\"lines\": 80}")
        }
        var minimums = Minimums()
        let metrics = ["lines", "functions", "regions", "branches"]
        for (key, setting) in members {
            guard metrics.contains(key) else {
                throw fail("\(location).\(abbreviated(key))", "unknown metric" + suggestion(for: key, among: metrics))
            }
            guard case .number(let percent) = setting else {
                throw fail(
                    "\(location).\(key)", "expected a percentage (a number from 0 to 100), found \(describe(setting))")
            }
            guard percent.isFinite else {
                // JSON allows 1e400; it does not fit a Double.
                throw fail("\(location).\(key)", "number out of range; expected a percentage from 0 to 100")
            }
            guard percent >= 0 && percent <= 100 else {
                throw fail("\(location).\(key)", "\(JSONWriter.format(percent)) is not a percentage from 0 to 100")
            }
            switch key {
            case "lines": minimums.lines = percent
            case "functions": minimums.functions = percent
            case "regions": minimums.regions = percent
            default: minimums.branches = percent
            }
        }
        return minimums
    }

    /// Things that are not errors but probably mistakes: rules that match nothing in `report`.
    package func warnings(for report: CoverageReport, path: String) -> [GateConfigurationWarning] {
        var warnings: [GateConfigurationWarning] = []
        let paths = report.files.map(\.displayPath)
        for rule in files where !paths.contains(where: rule.pattern.matches) {
            warnings.append(
                GateConfigurationWarning(
                    path: path, location: "files.\(GateConfiguration.abbreviated(rule.pattern.pattern))",
                    message: "matches no file in the report"))
        }
        for pattern in exempt where !paths.contains(where: pattern.matches) {
            warnings.append(
                GateConfigurationWarning(
                    path: path, location: "exempt",
                    message: "\(GateConfiguration.abbreviated(pattern.pattern)) matches no file in the report"))
        }
        let moduleNames = Set(report.modules.map(\.name))
        for name in modules.keys.sorted() where !moduleNames.contains(name) {
            let known = moduleNames.sorted().joined(separator: ", ")
            warnings.append(
                GateConfigurationWarning(
                    path: path, location: "modules.\(GateConfiguration.abbreviated(name))",
                    message: "no such module in the report (modules: \(known))"
                ))
        }
        return warnings
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .number(let number): JSONWriter.format(number)
        case .string(let text): JSONWriter.quoted(abbreviated(text))
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// `text` cut to about 80 characters with "…", so that a huge key or value in a configuration
    /// cannot flood an error message.
    package static func abbreviated(_ text: String, limit: Int = 80) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    private static func suggestion(for key: String, among keys: [String]) -> String {
        guard key.utf8.count <= 100 else { return "; expected one of: " + keys.joined(separator: ", ") }
        let close = keys.min { $0.editDistance(to: key) < $1.editDistance(to: key) }
        if let close, close.editDistance(to: key) <= 3 { return "; did you mean \"\(close)\"?" }
        return "; expected one of: " + keys.joined(separator: ", ")
    }

    /// The line and column (1-based) of a byte offset, for JSON syntax errors.
    package static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> Diagnostic.Location {
        var line = 1
        var column = 1
        let skipped = bytes.starts(with: JSONValue.byteOrderMark) ? JSONValue.byteOrderMark.count : 0
        for byte in bytes.prefix(offset).dropFirst(skipped) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return .line(line, column: column)
    }
}
