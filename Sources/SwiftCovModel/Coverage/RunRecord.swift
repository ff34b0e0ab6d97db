import SwiftCovFormats
import SwiftCovPlatform

/// What a run's export is of: the whole suite, or a part of it. `swiftcov run` writes one beside
/// its export (`run.json` in its output folder), and marks the export SwiftPM left behind in its
/// `codecov` folder (`<export>.swiftcov`) with what that one is, so that the commands after it read
/// the last whole run, never a partial export (a shard's, a retry's `swift test --filter …`),
/// and say which they read when there was a choice.
package struct RunRecord: Equatable, Sendable {
    /// What part of the tests the run's coverage comes from.
    package enum Scope: Equatable, Sendable {
        /// Every test the package has.
        case whole
        /// One shard of a split run.
        case shard(Shard)
        /// The tests the user's `--filter` and `--skip` chose.
        case filtered([String])

        /// How a person reads it: "the whole suite", "shard 2/4", "a filtered run (--filter A)".
        package var description: String {
            switch self {
            case .whole: "the whole suite"
            case .shard(let shard): "shard \(shard)"
            case .filtered(let arguments): "a filtered run (\(arguments.joined(separator: " ")))"
            }
        }
    }

    package var scope: Scope
    /// How many failed tests ran again (`--retry-failed`); their runs are not in the coverage.
    package var retried = 0
    /// Whether each test ran alone (`run --per-test`), and the tests that ended differently
    /// alone than in the suite: what `history add` of the folder records, as `run` would.
    package var alone = false
    package var orderDependent: [OrderDependence] = []

    package init(scope: Scope, retried: Int = 0, alone: Bool = false, orderDependent: [OrderDependence] = []) {
        self.scope = scope
        self.retried = retried
        self.alone = alone
        self.orderDependent = orderDependent
    }

    /// Whether the export holds the coverage of only part of the suite.
    package var isPartial: Bool { scope != .whole }

    /// The record's name in a run's output folder.
    package static let fileName = "run.json"

    /// The record as `run.json`.
    package var json: String {
        var json = JSONWriter()
        json.beginObject(.block)
        switch scope {
        case .whole:
            json.member("scope", "whole")
        case .shard(let shard):
            json.member("scope", "shard")
            json.member("shard", shard.description)
        case .filtered(let arguments):
            json.member("scope", "filtered")
            json.key("arguments")
            json.beginArray()
            for argument in arguments { json.string(argument) }
            json.endArray()
        }
        json.member("retried", retried)
        if alone {
            json.key("alone")
            json.bool(true)
        }
        OrderDependence.write(orderDependent, key: "orderDependent", to: &json)
        json.endObject()
        return json.output + "\n"
    }

    /// The record in the output folder `folder`; nil when there is none or it cannot be read (a
    /// run of an earlier swiftcov: its export is taken as whole, as it was before).
    package static func read(inFolder folder: String) -> RunRecord? {
        guard let file = try? MappedFile(path: folder + "/" + fileName),
            case .object(let members)? = try? file.withUnsafeBytes({ bytes throws(JSONError) in
                try JSONValue.parse(bytes)
            })
        else { return nil }
        func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        var record: RunRecord
        switch value("scope") {
        case .string("whole"): record = RunRecord(scope: .whole)
        case .string("shard"):
            guard case .string(let text) = value("shard"), let shard = try? Shard(parsing: text) else { return nil }
            record = RunRecord(scope: .shard(shard))
        case .string("filtered"):
            guard case .array(let elements) = value("arguments") else { return nil }
            record = RunRecord(
                scope: .filtered(
                    elements.compactMap {
                        guard case .string(let text) = $0 else { return nil }
                        return text
                    }))
        default: return nil
        }
        if case .number(let count) = value("retried"), count >= 0, count < 1e9 { record.retried = Int(count) }
        if case .bool(true) = value("alone") { record.alone = true }
        if case .array(let elements) = value("orderDependent") {
            record.orderDependent = elements.compactMap { element in
                guard case .object(let members) = element else { return nil }
                return OrderDependence.read(members)
            }
        }
        return record
    }

    // MARK: SwiftPM's export, marked

    /// What swiftcov knows of the export SwiftPM left in its `codecov` folder after a run: the
    /// run's own export replaces it (copied from it, or newer), or it is a partial one (written by
    /// a shard's or a retry's `swift test --filter …`). The mark holds the file's size and modification time:
    /// once SwiftPM writes the file again (a `swift test` of the user's), the mark no longer
    /// applies.
    package enum ExportMark: Equatable, Sendable {
        /// The export of a run (`export`) replaces it: the same coverage copied, or newer.
        case superseded(by: String)
        /// The coverage of part of the tests (`what` says which).
        case partial(String)
    }

    /// The mark's path beside SwiftPM's export `export`.
    package static func markPath(of export: String) -> String { export + ".swiftcov" }

    /// Marks SwiftPM's export `export` (as it is now) with `mark`; nothing when it is not there.
    package static func mark(_ export: String, _ mark: ExportMark, system: any System) {
        guard let size = system.fileSize(export) else { return }
        let modified = FileSystem.modificationTime(of: export)
        let text =
            switch mark {
            case .superseded(let export): "superseded \(export)"
            case .partial(let what): "partial \(what)"
            }
        try? system.write("\(modified) \(size) \(text)\n", to: markPath(of: export))
    }

    /// The mark of `export`, when it still applies to the file as it is.
    package static func mark(of export: String) -> ExportMark? {
        guard let file = try? MappedFile(path: markPath(of: export)) else { return nil }
        let text = file.withUnsafeBytes { String(decoding: $0.prefix(4096), as: UTF8.self) }
        let line = text.split(separator: "\n").first ?? ""
        let fields = line.split(separator: " ", maxSplits: 3)
        guard fields.count == 4, Int(fields[0]) == FileSystem.modificationTime(of: export),
            Int(fields[1]) == FileSystem.size(of: export)
        else { return nil }
        switch fields[2] {
        case "superseded": return .superseded(by: String(fields[3]))
        case "partial": return .partial(String(fields[3]))
        default: return nil
        }
    }
}
