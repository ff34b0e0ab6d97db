import SwiftCovFormats
import SwiftCovModel

/// Reading what `xcrun xccov view … --json` prints: the report (`--report`, and `--only-targets`)
/// and the per-line archive (`--archive`).
extension XcodeCoverage {
    /// Which of xccov's JSON outputs a document is, told by its shape.
    package enum JSONKind: Equatable, Sendable {
        /// `xccov view --report --json`: an object with `targets`.
        case report
        /// `xccov view --report --only-targets --json`: an array of targets without files.
        case onlyTargets
        /// `xccov view --archive --json`: an object of file paths to arrays of lines.
        case archive
    }

    /// The kind of xccov JSON `value` is, or nil when it is none of them.
    package static func jsonKind(of value: JSONValue) -> JSONKind? {
        switch value {
        case .object(let members):
            if value["targets"] != nil && value["executableLines"] != nil { return .report }
            if !members.isEmpty, members.allSatisfy({ $0.key.hasPrefix("/") }),
                case .array(let lines)? = members.first?.value,
                lines.first.map({ $0["line"] != nil && $0["isExecutable"] != nil }) ?? true
            {
                return .archive
            }
            return nil
        case .array(let elements):
            guard let first = elements.first, first["buildProductPath"] != nil || first["lineCoverage"] != nil,
                first["executableLines"] != nil, first["name"] != nil
            else { return nil }
            return .onlyTargets
        default:
            return nil
        }
    }

    /// Reads a report (`--report --json`, or `--only-targets`: targets without files).
    package static func readReportJSON(_ value: JSONValue, path: String) throws(XcodeInputError) -> XcodeCoverage {
        let reader = JSONFields(path: path)
        let targets: [JSONValue]
        switch jsonKind(of: value) {
        case .report?: targets = try reader.array(value, "targets", at: "")
        case .onlyTargets?:
            guard case .array(let elements) = value else { return XcodeCoverage(targets: []) }
            targets = elements
        default:
            throw XcodeInputError(
                path: path, "not a report of `xcrun xccov view --report --json` (no `targets` and `executableLines`)")
        }
        var result: [Target] = []
        for (targetIndex, target) in targets.enumerated() {
            let targetPath = value["targets"] == nil ? "[\(targetIndex)]" : "targets[\(targetIndex)]"
            var files: [File] = []
            let fileValues = target["files"] == nil ? [] : try reader.array(target, "files", at: targetPath)
            for (fileIndex, file) in fileValues.enumerated() {
                let filePath = "\(targetPath).files[\(fileIndex)]"
                var functions: [Function] = []
                let functionValues = file["functions"] == nil ? [] : try reader.array(file, "functions", at: filePath)
                for (functionIndex, function) in functionValues.enumerated() {
                    let functionPath = "\(filePath).functions[\(functionIndex)]"
                    functions.append(
                        Function(
                            name: try reader.string(function, "name", at: functionPath),
                            lineNumber: try reader.lines(function, "lineNumber", at: functionPath),
                            executionCount: try reader.count(function, "executionCount", at: functionPath),
                            executableLines: try reader.lines(function, "executableLines", at: functionPath),
                            coveredLines: try reader.lines(function, "coveredLines", at: functionPath)))
                }
                files.append(
                    File(
                        name: try reader.string(file, "name", at: filePath),
                        path: try reader.string(file, "path", at: filePath),
                        executableLines: try reader.lines(file, "executableLines", at: filePath),
                        coveredLines: try reader.lines(file, "coveredLines", at: filePath), functions: functions))
            }
            result.append(
                Target(
                    name: try reader.string(target, "name", at: targetPath),
                    productPath: target["buildProductPath"]?.stringValue,
                    executableLines: try reader.lines(target, "executableLines", at: targetPath),
                    coveredLines: try reader.lines(target, "coveredLines", at: targetPath), files: files))
        }
        return XcodeCoverage(targets: result)
    }

    /// Reads per-line counts (`--archive --json`): each file's lines, in line order.
    package static func readArchiveJSON(
        _ value: JSONValue, path: String
    ) throws(XcodeInputError) -> [String: [Line]] {
        guard jsonKind(of: value) == .archive, case .object(let members) = value else {
            throw XcodeInputError(
                path: path, "not the output of `xcrun xccov view --archive --json` (an object of absolute file paths)")
        }
        let reader = JSONFields(path: path)
        var result: [String: [Line]] = [:]
        for (file, linesValue) in members {
            guard case .array(let values) = linesValue else {
                throw XcodeInputError(path: path, location: file, "expected an array of lines")
            }
            guard result[file] == nil else {
                throw XcodeInputError(path: path, location: file, "the file is named twice")
            }
            var lines: [Line] = []
            lines.reserveCapacity(values.count)
            for (index, value) in values.enumerated() {
                let location = "\(file)[\(index)]"
                let number = try reader.lines(value, "line", at: location)
                guard number >= 1, number > (lines.last.map { Int($0.line) } ?? 0) else {
                    throw XcodeInputError(
                        path: path, location: location + ".line",
                        "line \(number) after line \(lines.last.map { Int($0.line) } ?? 0): lines must be in order from 1"
                    )
                }
                guard case .bool(let executable)? = value["isExecutable"] else {
                    throw XcodeInputError(path: path, location: location + ".isExecutable", "expected true or false")
                }
                var line = Line(line: UInt32(number), executionCount: nil)
                if executable { line.executionCount = try reader.count(value, "executionCount", at: location) }
                if value["subranges"] != nil {
                    for (rangeIndex, range) in try reader.array(value, "subranges", at: location).enumerated() {
                        let rangePath = "\(location).subranges[\(rangeIndex)]"
                        line.subranges.append(
                            Subrange(
                                column: UInt32(try reader.lines(range, "column", at: rangePath)),
                                length: UInt32(try reader.lines(range, "length", at: rangePath)),
                                executionCount: try reader.count(range, "executionCount", at: rangePath)))
                    }
                }
                lines.append(line)
            }
            result[file] = lines
        }
        return result
    }
}

/// Reads typed fields of JSON objects, naming the key path of what is missing or wrong.
private struct JSONFields {
    let path: String

    func error(_ location: String, _ key: String, _ message: String) -> XcodeInputError {
        XcodeInputError(path: path, location: location.isEmpty ? key : "\(location).\(key)", message)
    }

    func array(_ object: JSONValue, _ key: String, at location: String) throws(XcodeInputError) -> [JSONValue] {
        guard case .array(let elements)? = object[key] else { throw error(location, key, "expected an array") }
        return elements
    }

    func string(_ object: JSONValue, _ key: String, at location: String) throws(XcodeInputError) -> String {
        guard let text = object[key]?.stringValue else { throw error(location, key, "expected a string") }
        return text
    }

    /// A whole number from 0 to 2^53 (what a double holds exactly).
    func count(_ object: JSONValue, _ key: String, at location: String) throws(XcodeInputError) -> UInt64 {
        guard let number = object[key]?.numberValue, number >= 0, number <= 9_007_199_254_740_992,
            number.rounded(.towardZero) == number
        else { throw error(location, key, "expected a whole number from 0") }
        return UInt64(number)
    }

    /// A line number or a number of lines: a whole number no larger than any source file has.
    func lines(_ object: JSONValue, _ key: String, at location: String) throws(XcodeInputError) -> Int {
        let value = try count(object, key, at: location)
        guard value <= UInt64(XcodeCoverage.maximumLines) else {
            throw error(location, key, "\(value) is more lines than any source file has")
        }
        return Int(value)
    }
}
