import SwiftCovFormats
import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// What `xcrun xcresulttool export attachments --path BUNDLE --output-path DIR` writes, on any
/// machine: each attachment's file and `manifest.json`, a list of the tests with attachments
/// (`testIdentifier`, `testIdentifierURL`, `attachments`: `exportedFileName`,
/// `suggestedHumanReadableName`, `isAssociatedWithFailure`, `timestamp`, `configurationName`,
/// `deviceName`, `deviceId`, `arguments`: the argument case's values, for a run that has one). A
/// key the bundle cannot supply is left out, never invented.
///
/// - Files are named `<attachment UUID>.<extension of Xcode's suggested name>`: letters, digits
///   and `-` only, never a path, unique in the folder (`-2`, `-3` … otherwise), so that no name
///   in the bundle (`../`, an absolute path, NUL, 10 KB) leads out of the folder.
/// - Each payload is read and written once; the other attachments that share it (Xcode's store
///   is content-addressed) are hard links to that file (copies where links are refused).
/// - Payloads stored as they are (screenshots, recordings) are copied through a bounded buffer,
///   whatever their size, holes of a sparse file kept as holes; zstd-compressed ones (text) are
///   decoded within the bundle's ceiling of bytes decoded.
/// - The folder is built beside the output and swapped in when complete (`StagedFolder`): a
///   payload that is missing, not a regular file inside the bundle or a frame past the ceiling, or
///   a disk that fills up, stops the export with one error naming the bundle and the object, and
///   nothing is left half-written.
package enum XcodeAttachmentExport {
    /// One attachment to export.
    package struct Item: Equatable {
        package var testIdentifier: String
        package var testIdentifierURL: String?
        /// The file's name in the output folder.
        package var exportedFileName: String
        package var suggestedHumanReadableName: String
        package var isAssociatedWithFailure: Bool
        package var timestamp: Double?
        package var configurationName: String?
        package var deviceName: String?
        package var deviceIdentifier: String?
        /// The argument case's values (`TestEvidence.argumentValues`).
        package var arguments: [String] = []
        package var payload: TestEvidence.Payload?
    }

    /// The attachments of `evidence` to export, in order (only those associated with a failure
    /// when `onlyFailures`), each with its file's name.
    package static func items(_ evidence: [TestEvidence], onlyFailures: Bool) -> [Item] {
        var taken = Set<String>(["manifest.json"])
        var items: [Item] = []
        for run in evidence {
            for attachment in run.attachments where !onlyFailures || attachment.isAssociatedWithFailure {
                let suggested = attachment.filename ?? attachment.name
                items.append(
                    Item(
                        testIdentifier: run.testIdentifier, testIdentifierURL: run.testIdentifierURL,
                        exportedFileName: fileName(
                            uuid: attachment.uuid, suggested: suggested, index: items.count + 1, taken: &taken),
                        suggestedHumanReadableName: suggested,
                        isAssociatedWithFailure: attachment.isAssociatedWithFailure, timestamp: attachment.timestamp,
                        configurationName: run.configuration, deviceName: run.deviceName,
                        deviceIdentifier: run.deviceIdentifier, arguments: run.argumentValues,
                        payload: attachment.payload))
            }
        }
        return items
    }

    /// A file name that stays in the folder: the UUID (letters, digits, `-`; else
    /// `attachment-INDEX`) and the suggested name's extension (up to 16 letters and digits),
    /// made unique among `taken` (compared without case, as macOS's file systems do).
    static func fileName(uuid: String?, suggested: String, index: Int, taken: inout Set<String>) -> String {
        func isSafe(_ text: Substring, limit: Int, dash: Bool) -> Bool {
            (1...limit).contains(text.utf8.count)
                && text.utf8.allSatisfy {
                    (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                        || (dash && $0 == UInt8(ascii: "-"))
                }
        }
        let stem = uuid.map { Substring($0) }.flatMap { isSafe($0, limit: 64, dash: true) ? String($0) : nil }
        let base = stem ?? "attachment-\(index)"
        var suffix = ""
        if let dot = suggested.lastIndex(of: "."),
            isSafe(suggested[suggested.index(after: dot)...], limit: 16, dash: false)
        {
            suffix = String(suggested[dot...])
        }
        var name = base + suffix
        var counter = 1
        while !taken.insert(name.lowercased()).inserted {
            counter += 1
            name = base + "-\(counter)" + suffix
        }
        return name
    }

    /// `manifest.json` for `items`: one entry per test, in the order their first attachment came.
    package static func manifest(_ items: [Item]) -> String {
        var order: [String] = []
        var byTest: [String: [Item]] = [:]
        for item in items {
            if byTest[item.testIdentifier] == nil { order.append(item.testIdentifier) }
            byTest[item.testIdentifier, default: []].append(item)
        }
        var json = JSONWriter()
        json.beginArray(.block)
        for test in order {
            let attachments = byTest[test] ?? []
            json.beginObject(.block)
            json.member("testIdentifier", test)
            if let url = attachments.first?.testIdentifierURL { json.member("testIdentifierURL", url) }
            json.key("attachments")
            json.beginArray(.block)
            for item in attachments {
                json.beginObject(.block)
                json.member("exportedFileName", item.exportedFileName)
                json.member("suggestedHumanReadableName", item.suggestedHumanReadableName)
                json.member("isAssociatedWithFailure", item.isAssociatedWithFailure)
                if let timestamp = item.timestamp { json.member("timestamp", timestamp) }
                if let configuration = item.configurationName { json.member("configurationName", configuration) }
                if let device = item.deviceName { json.member("deviceName", device) }
                if let identifier = item.deviceIdentifier { json.member("deviceId", identifier) }
                if !item.arguments.isEmpty {
                    json.key("arguments")
                    json.beginArray()
                    for value in item.arguments { json.string(value) }
                    json.endArray()
                }
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        return json.finish().text
    }

    /// What an export wrote.
    package struct Written: Equatable {
        /// Attachments exported (files in the folder, links included).
        package var attachments: Int
        /// Payloads read and written once each.
        package var payloads: Int
        /// Tests in the manifest.
        package var tests: Int
    }

    /// Exports the attachments of the bundle at `bundle` into `directory` (replaced whole when it
    /// is empty or an earlier export: it holds `manifest.json`; never another folder).
    package static func write(bundle: String, to directory: String, onlyFailures: Bool) throws(Diagnostic) -> Written {
        let evidence: [TestEvidence]
        do throws(TestResultsError) {
            evidence = try XCResultBundle.evidence(path: bundle).evidence
        } catch {
            throw error.diagnostic
        }
        let items = items(evidence, onlyFailures: onlyFailures)
        // Payloads are read from the object store: a bundle of only a database has none.
        let store: XCResultBundle?
        do throws(XcodeInputError) {
            store = items.contains { $0.payload != nil } ? try XCResultBundle(path: bundle) : nil
        } catch {
            throw error.diagnostic
        }
        let folder: StagedFolder
        do throws(StagedFolder.Failure) {
            folder = try StagedFolder(directory: directory) { path in
                guard let entries = FileSystem.entries(of: path) else { return false }
                return entries.isEmpty || FileSystem.kind(of: path + "/manifest.json", followingLinks: false) == .file
            }
        } catch {
            throw diagnostic(error)
        }
        var written: [String: String] = [:]
        for item in items {
            let path = folder.path + "/" + item.exportedFileName
            guard let payload = item.payload else {
                throw Diagnostic(
                    file: bundle,
                    "the attachment '\(item.suggestedHumanReadableName.prefix(200))' of \(item.testIdentifier) "
                        + "names no payload")
            }
            if let first = written[payload.id] {
                if FileSystem.link(first, as: path) { continue }
            }
            // Stored as they are: copied through a bounded buffer, holes kept; a zstd frame:
            // decoded within the bundle's ceiling.
            guard let store else { throw Diagnostic(file: bundle, "no object store holds the attachments' bytes") }
            let rawFile: String?
            do throws(XcodeInputError) {
                rawFile = try store.rawPayloadFile(payload)
            } catch {
                throw error.diagnostic
            }
            if let rawFile {
                do throws(FileCopy.Failure) {
                    try FileCopy.copy(from: rawFile, to: path)
                } catch {
                    switch error {
                    case .cannotRead(let reason): throw Diagnostic(file: rawFile, "cannot read: \(reason)")
                    case .cannotWrite(let failure): throw failure.diagnostic
                    }
                }
            } else {
                let bytes: [UInt8]
                do throws(XcodeInputError) {
                    bytes = try store.payload(payload)
                } catch {
                    throw error.diagnostic
                }
                do throws(SystemCallError) {
                    try bytes.withUnsafeBufferPointer { (buffer) throws(SystemCallError) in
                        try AtomicFile.write(bytes: buffer, to: path, durable: false)
                    }
                } catch {
                    throw error.diagnostic
                }
            }
            if written[payload.id] == nil { written[payload.id] = path }
        }
        do throws(SystemCallError) {
            try AtomicFile.write(manifest(items), to: folder.path + "/manifest.json")
        } catch {
            throw error.diagnostic
        }
        do throws(StagedFolder.Failure) {
            try folder.swapIn()
        } catch {
            throw diagnostic(error)
        }
        return Written(
            attachments: items.count, payloads: written.count, tests: Set(items.map(\.testIdentifier)).count)
    }

    private static func diagnostic(_ failure: StagedFolder.Failure) -> Diagnostic {
        switch failure {
        case .cannotWrite(let error): error.diagnostic
        case .refused(let path):
            Diagnostic(
                file: path,
                "not replacing a folder that is not empty and holds no manifest.json of an earlier export; remove it "
                    + "or choose another folder")
        }
    }
}
