import SwiftCovFormats
import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// Which test evidence a report copies in, and how much: `--evidence failures|all|none` and
/// `--evidence-limit`.
package struct EvidencePolicy: Sendable, Equatable {
    /// Which runs' attachments are copied.
    package enum Scope: String, Sendable, CaseIterable {
        /// The attachments of runs that failed (the default): what a failure needs.
        case failures
        /// Every run's.
        case all
        /// None: no evidence in the report.
        case none
    }

    package var scope: Scope
    /// The most bytes copied in all; the attachments past it are left out (failing runs' are
    /// copied first).
    package var byteLimit: Int

    /// 100 MB: a report CI keeps as an artifact stays small, and a failing UI run of a few
    /// hundred screenshots fits.
    package static let defaultByteLimit = 100_000_000

    package init(scope: Scope = .failures, byteLimit: Int = defaultByteLimit) {
        self.scope = scope
        self.byteLimit = byteLimit
    }

    /// A size as users write it: bytes (`250000`), or a number (decimals allowed) with `kB`,
    /// `MB`, `GB` (10³, 10⁶, 10⁹ bytes; `K`, `M`, `G` and any case alike). Nil when it is not
    /// one, or past a petabyte.
    package static func byteCount(_ text: String) -> Int? {
        var digits = Substring(text)
        var unit = 1
        for (suffixes, multiple) in [(["gb", "g"], 1_000_000_000), (["mb", "m"], 1_000_000), (["kb", "k"], 1000)] {
            if let suffix = suffixes.first(where: { digits.lowercased().hasSuffix($0) }) {
                digits = digits.dropLast(suffix.count)
                unit = multiple
                break
            }
        }
        if digits.lowercased().hasSuffix("b") && unit == 1 { digits = digits.dropLast() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 16, whole.allSatisfy(\.isASCII),
            let integer = Int(whole), integer >= 0
        else { return nil }
        var fraction = 0
        var scale = 1
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].count <= 9, parts[1].allSatisfy(\.isASCII), let value = Int(parts[1]),
                value >= 0
            else { return nil }
            fraction = value
            for _ in 0..<parts[1].count { scale *= 10 }
        }
        let (bytes, overflow) = integer.multipliedReportingOverflow(by: unit)
        guard !overflow, bytes <= 1_000_000_000_000_000 else { return nil }
        return bytes + fraction * unit / scale
    }
}

/// Copies tests' attachments into a report's folder: each content once, named by its MD5
/// (`<folder>/<digest>.<ext>`), failing runs' first, within an `EvidencePolicy`. The file's
/// extension comes from an allow-list of types a browser shows inertly (images, videos, text);
/// any other type (SVG, HTML, archives) is kept as `.bin`, so that a published report never
/// serves a test's file as active content; links name the original with `download`.
package struct EvidenceFiles: Sendable {
    /// An attachment's place: its run's position and its own among the run's attachments.
    package struct Key: Hashable, Sendable {
        package var run: Int
        package var attachment: Int

        package init(run: Int, attachment: Int) {
            self.run = run
            self.attachment = attachment
        }
    }

    /// Why an attachment is not in the report.
    package enum LeftOut: Sendable, Equatable {
        /// Its run passed and the policy copies failures' only.
        case passingRun
        /// Copying it would pass the byte limit.
        case overLimit(bytes: Int?)
        /// The file holding it is missing: the file Swift Testing wrote, or the payload in the
        /// result bundle's store.
        case missingFile(String)
        /// The policy copies nothing.
        case notCopied
        /// The bundle names no payload for it.
        case noPayload
    }

    /// The copies, by attachment: paths relative to the report's root.
    package private(set) var copied: [Key: String] = [:]
    /// Their sizes in bytes.
    package private(set) var sizes: [Key: Int] = [:]
    /// What was left out, and why.
    package private(set) var leftOut: [Key: LeftOut] = [:]
    /// The short text attachments' text (a rendered screen, a log's lines), shown inline: up
    /// to `inlineTextLimit` bytes each and `inlineTextBudget` in all.
    package private(set) var texts: [Key: String] = [:]
    /// Bytes written (each content once).
    package private(set) var bytesWritten = 0
    /// Distinct files written.
    package private(set) var filesWritten = 0

    /// Nothing copied.
    package init() {}

    /// The longest text attachment shown inline.
    package static let inlineTextLimit = 16_384
    /// The most text shown inline in all.
    package static let inlineTextBudget = 4_000_000

    /// The attachments left out past the byte limit: how many, and their bytes when known.
    package var overLimit: (count: Int, bytes: Int) {
        leftOut.values.reduce(into: (0, 0)) { total, reason in
            if case .overLimit(let bytes) = reason {
                total.0 += 1
                total.1 += bytes ?? 0
            }
        }
    }

    /// What the user should hear: the attachments left out past the limit, and the files that
    /// were gone (the first one named).
    package func warnings(policy: EvidencePolicy) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        let (count, bytes) = overLimit
        if count > 0 {
            warnings.append(
                .warning(
                    "\(count) attachment\(count == 1 ? "" : "s") (\(bytes) bytes) left out past the evidence limit of "
                        + "\(policy.byteLimit) bytes; --evidence-limit raises it"))
        }
        let missing = leftOut.compactMap { entry -> (Key, String)? in
            if case .missingFile(let path) = entry.value { return (entry.key, path) }
            return nil
        }.sorted { ($0.0.run, $0.0.attachment) < ($1.0.run, $1.0.attachment) }
        if let first = missing.first {
            warnings.append(
                .warning(
                    file: first.1,
                    "\(missing.count) attachment\(missing.count == 1 ? "'s file is" : "s' files are") missing, left out of "
                        + "the report; first this one"))
        }
        return warnings
    }

    /// Copies the attachments of `runs` that `policy` selects into `directory` (made when
    /// something is copied), each named `prefix` + its file's name in `copied`. A bundle's
    /// payload that cannot be read stops the copy (the input is broken); one that is missing
    /// from the bundle, or a Swift Testing file that is gone, is left out and said.
    package static func copy(
        _ runs: [TestEvidence], policy: EvidencePolicy, into directory: String, prefix: String
    ) throws(Diagnostic) -> EvidenceFiles {
        var files = EvidenceFiles()
        guard policy.scope != .none else {
            for (run, evidence) in runs.enumerated() {
                for attachment in evidence.attachments.indices {
                    files.leftOut[Key(run: run, attachment: attachment)] = .notCopied
                }
            }
            return files
        }
        var bundles: [String: XCResultBundle] = [:]
        var byDigest: [String: String] = [:]
        var madeFolder = false
        var inlineText = 0
        // Failing runs first: they get the budget.
        let order = runs.indices.filter { runs[$0].hasFailed } + runs.indices.filter { !runs[$0].hasFailed }
        for run in order {
            let evidence = runs[run]
            for (index, attachment) in evidence.attachments.enumerated() {
                let key = Key(run: run, attachment: index)
                if policy.scope == .failures && !evidence.hasFailed && !attachment.isAssociatedWithFailure {
                    files.leftOut[key] = .passingRun
                    continue
                }
                let remaining = policy.byteLimit - files.bytesWritten
                let bytes: [UInt8]
                if let file = attachment.file {
                    guard FileSystem.kind(of: file) == .file, let size = FileSystem.size(of: file) else {
                        files.leftOut[key] = .missingFile(file)
                        continue
                    }
                    guard size <= remaining else {
                        files.leftOut[key] = .overLimit(bytes: size)
                        continue
                    }
                    do throws(MappedFile.ReadError) {
                        let mapped = try MappedFile(path: file, regularFileOfAtMost: remaining)
                        bytes = mapped.withUnsafeBytes { Array($0) }
                    } catch {
                        files.leftOut[key] = .missingFile(file)
                        continue
                    }
                } else if let payload = attachment.payload, let path = evidence.bundle {
                    if let size = payload.size, size > remaining {
                        files.leftOut[key] = .overLimit(bytes: size)
                        continue
                    }
                    // A bundle of only a database (Xcode 16+ kept as fastlane's are) holds no payloads.
                    if XCResultBundle.holdsOnlyDatabase(path) {
                        files.leftOut[key] = .missingFile(path + "/Data")
                        continue
                    }
                    do throws(XcodeInputError) {
                        if bundles[path] == nil { bundles[path] = try XCResultBundle(path: path) }
                        let bundle = bundles[path]!
                        // A bundle copied without some payloads (trimmed, or cut short in an
                        // upload): the rest of the report is still worth having.
                        let stored = path + "/Data/data." + payload.id
                        if XCResultBundle.isObjectID(payload.id), !bundle.hasObject(payload.id) {
                            files.leftOut[key] = .missingFile(stored)
                            continue
                        }
                        // Known unread: a stored payload is at most a little larger than its bytes
                        // (raw, as images and recordings are stored; or a zstd frame).
                        if FileSystem.kind(of: stored, followingLinks: false) == .file,
                            let size = FileSystem.size(of: stored), size > remaining
                        {
                            files.leftOut[key] = .overLimit(bytes: size)
                            continue
                        }
                        bytes = try bundle.payload(payload)
                    } catch {
                        throw error.diagnostic
                    }
                } else {
                    files.leftOut[key] = .noPayload
                    continue
                }
                let fileExtension = copyExtension(of: attachment, bytes: bytes)
                if kind(ofCopy: fileExtension) == .text, bytes.count <= inlineTextLimit,
                    inlineText + bytes.count <= inlineTextBudget
                {
                    files.texts[key] = String(decoding: bytes, as: UTF8.self)
                    inlineText += bytes.count
                }
                let digest = bytes.withUnsafeBytes { hex(MD5.digest($0)) }
                if let existing = byDigest[digest] {
                    files.copied[key] = existing
                    files.sizes[key] = bytes.count
                    continue
                }
                guard bytes.count <= remaining else {
                    files.texts[key] = nil
                    files.leftOut[key] = .overLimit(bytes: bytes.count)
                    continue
                }
                let name = digest + "." + fileExtension
                do throws(SystemCallError) {
                    if !madeFolder {
                        try AtomicFile.makeDirectory(directory)
                        madeFolder = true
                    }
                    try bytes.withUnsafeBufferPointer { (buffer) throws(SystemCallError) in
                        try AtomicFile.write(bytes: buffer, to: directory + "/" + name, durable: false)
                    }
                } catch {
                    throw error.diagnostic
                }
                byDigest[digest] = prefix + name
                files.copied[key] = prefix + name
                files.sizes[key] = bytes.count
                files.bytesWritten += bytes.count
                files.filesWritten += 1
            }
        }
        return files
    }

    /// Copies the attachments into the folder `directory`, written whole or not at all
    /// (`StagedFolder`), replacing an earlier copy (a folder of such files only), never another
    /// folder. No folder is made when nothing is copied.
    package static func write(
        _ runs: [TestEvidence], policy: EvidencePolicy, to directory: String
    ) throws(Diagnostic) -> EvidenceFiles {
        let folder: StagedFolder
        do throws(StagedFolder.Failure) {
            folder = try StagedFolder(directory: directory) { path in
                FileSystem.entries(of: path)?.allSatisfy(isCopyName) ?? false
            }
        } catch {
            switch error {
            case .cannotWrite(let error): throw error.diagnostic
            case .refused(let path):
                throw Diagnostic(
                    file: path, "not replacing a folder that holds other files than attachments swiftcov copied")
            }
        }
        let files = try copy(runs, policy: policy, into: folder.path, prefix: "")
        // An earlier copy is replaced even by none: it is of another run.
        guard files.filesWritten > 0 || FileSystem.kind(of: directory) != nil else { return files }
        do throws(StagedFolder.Failure) {
            try folder.swapIn()
        } catch {
            switch error {
            case .cannotWrite(let error): throw error.diagnostic
            case .refused(let path): throw Diagnostic(file: path, "cannot replace the folder")
            }
        }
        return files
    }

    /// Whether `name` is one of a copy's: 32 hex digits, a dot and an extension.
    static func isCopyName(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        return parts.count == 2 && parts[0].count == 32 && parts[0].allSatisfy(\.isHexDigit)
            && parts[1].allSatisfy { $0.isASCII && $0.isLetter || $0.isNumber }
    }

    /// What a reader's browser should do with an attachment.
    package enum Kind: Sendable, Equatable {
        /// An image shown inline: PNG, JPEG, GIF, WebP.
        case image
        /// A recording played inline: MP4.
        case video
        /// Text shown as it is: plain text, logs, JSON.
        case text
        /// Anything else (HEIC, QuickTime, SVG, HTML, archives): a link to download.
        case download
    }

    /// The kind of a copy, from its name's extension (`copyExtension`).
    package static func kind(ofCopy name: String) -> Kind {
        switch name.split(separator: ".").last ?? "" {
        case "png", "jpg", "gif", "webp": .image
        case "mp4": .video
        case "txt", "json", "csv": .text
        default: .download
        }
    }

    /// The extension a copy gets: an image's or a recording's from its bytes (whatever the
    /// attachment says: Xcode records HEIC screenshots as `public.png`); text's from its declared
    /// type; anything else `bin`, so that no declared type makes the report serve active content.
    static func copyExtension(of attachment: TestEvidence.Attachment, bytes: [UInt8]) -> String {
        if let sniffed = sniffedExtension(bytes) { return sniffed }
        let declared = fileExtension(of: attachment)
        return ["txt", "json", "csv"].contains(declared) ? declared : "bin"
    }

    /// The type of `bytes` by their signature: PNG, JPEG, GIF, WebP, HEIC, MP4, QuickTime.
    static func sniffedExtension(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "webp"
        }
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return nil }
        switch String(decoding: bytes[8..<12], as: UTF8.self) {
        case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1": return "heic"
        case "qt  ": return "mov"
        case "isom", "iso2", "mp41", "mp42", "avc1", "M4V ", "dash": return "mp4"
        default: return nil
        }
    }

    /// The extension the attachment's declared type (else its name) gives: one of the types
    /// browsers show inertly, else `bin`.
    static func fileExtension(of attachment: TestEvidence.Attachment) -> String {
        switch attachment.uniformTypeIdentifier {
        case "public.png": return "png"
        case "public.jpeg": return "jpg"
        case "com.compuserve.gif": return "gif"
        case "org.webmproject.webp": return "webp"
        case "public.mpeg-4": return "mp4"
        case "public.heic": return "heic"
        case "com.apple.quicktime-movie": return "mov"
        case "public.plain-text", "public.utf8-plain-text", "public.log": return "txt"
        case "public.json": return "json"
        case "public.comma-separated-values-text": return "csv"
        default: break
        }
        let name = attachment.filename ?? attachment.file ?? attachment.name
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return "bin" }
        switch name[name.index(after: dot)...].lowercased() {
        case "png": return "png"
        case "jpg", "jpeg": return "jpg"
        case "gif": return "gif"
        case "webp": return "webp"
        case "mp4", "m4v": return "mp4"
        case "heic": return "heic"
        case "mov": return "mov"
        case "txt", "text", "log": return "txt"
        case "json": return "json"
        case "csv": return "csv"
        default: return "bin"
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension TestRun {
    /// The run with the attachments of `evidence` that `files` copied (under `root`) added to
    /// their test cases: to the case of the same class and name whose suite names the run's
    /// configuration, destination and test configuration (Xcode names a suite
    /// `Class (configuration, device, …)` when there are several); to all of them when the
    /// suites do not tell.
    package func adding(_ evidence: [TestEvidence], copiedIn files: EvidenceFiles, root: String) -> TestRun {
        var byTest: [String: [Int]] = [:]
        for (position, run) in evidence.enumerated() {
            byTest[run.className + " " + run.testName, default: []].append(position)
        }
        var result = self
        for suiteIndex in result.suites.indices {
            let suiteName = result.suites[suiteIndex].name
            for caseIndex in result.suites[suiteIndex].cases.indices {
                let testCase = result.suites[suiteIndex].cases[caseIndex]
                let candidates = byTest[testCase.className + " " + testCase.testName] ?? []
                guard !candidates.isEmpty else { continue }
                let named = candidates.filter { position in
                    let run = evidence[position]
                    return [run.configuration, run.deviceName, run.arguments].allSatisfy { part in
                        guard let part else { return true }
                        return suiteName.contains(part) || testCase.arguments == part
                    }
                }
                // Each file once, a failure's own first (GitLab shows the first on the test).
                var added: [(attachment: TestRun.Attachment, ofFailure: Bool)] = []
                var paths: Set<String> = []
                for position in named.isEmpty ? candidates : named {
                    for (index, attachment) in evidence[position].attachments.enumerated() {
                        guard let path = files.copied[EvidenceFiles.Key(run: position, attachment: index)],
                            paths.insert(path).inserted
                        else { continue }
                        added.append(
                            (
                                TestRun.Attachment(
                                    name: attachment.name, path: root + "/" + path, time: attachment.timestamp),
                                attachment.isAssociatedWithFailure
                            ))
                    }
                }
                result.suites[suiteIndex].cases[caseIndex].attachments +=
                    added.filter(\.ofFailure).map(\.attachment) + added.filter { !$0.ofFailure }.map(\.attachment)
            }
        }
        return result
    }
}
