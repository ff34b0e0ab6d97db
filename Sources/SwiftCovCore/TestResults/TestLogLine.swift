#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line of `swift test` console output, by shape: XCTest's lines (Linux and macOS forms),
/// `--parallel` progress, Swift Testing's symbol-prefixed messages (text, SF Symbols and Windows
/// symbols), and runtime crash messages. `parse` returns nil for any other line: output of the
/// tests themselves, build output, or a format not known yet.
package enum TestLogLine: Sendable, Equatable {
    /// `Test Suite 'Name' started at 2026-11-22 14:03:53.085`
    case suiteStarted(name: String, timestamp: String?)
    /// `Test Suite 'Name' passed at …` / `failed at …`
    case suiteFinished(name: String, passed: Bool, timestamp: String?)
    /// `\t Executed 7 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.005 (0.005) seconds`
    case executed(tests: Int, skipped: Int, failures: Int, unexpected: Int, seconds: Double, wallSeconds: Double)
    /// `Test Case 'Class.method' started at …` or `Test Case '-[Module.Class method]' started.`
    case testCaseStarted(XCTestName)
    /// `Test Case 'Class.method' passed (0.001 seconds)`, also `failed` and `skipped`.
    case testCaseFinished(XCTestName, TestRun.Status, seconds: Double)
    /// `/path/File.swift:19: error: Class.method : XCTAssertEqual failed: …`
    case testCaseIssue(XCTestName, location: TestRun.SourceLocation?, message: String)
    /// `/path/File.swift:6: Class.method : Test skipped - reason`
    case testCaseSkipped(XCTestName, location: TestRun.SourceLocation?, reason: String?)
    /// `[3/12] Testing Module.Class/method` (`swift test --parallel`)
    case parallelProgress(XCTestName, index: Int, total: Int)
    /// `File.swift:35: Fatal error: message` (also `Precondition failed`, `Assertion failed`), or
    /// SwiftPM's `error: Process '…' exited with unexpected signal code 4`: a test process crashed.
    case crash(location: TestRun.SourceLocation?, message: String)
    /// A Swift Testing message.
    case swiftTesting(SwiftTestingMessage)

    /// An XCTest case's name: `Class.method` on Linux, `-[Module.Class method]` on macOS,
    /// `Module.Class/method` in `--parallel` progress lines.
    package struct XCTestName: Hashable, Sendable {
        /// The name as printed between the quotes (or after `Testing `).
        package var printed: String
        /// The test module, when the line names it.
        package var module: String?
        /// The test class, without its module.
        package var className: String
        /// The test method.
        package var method: String

        /// A name from its parts; `printed` defaults to the Linux form `Class.method`.
        package init(module: String?, className: String, method: String, printed: String? = nil) {
            self.printed = printed ?? "\(className).\(method)"
            self.module = module
            self.className = className
            self.method = method
        }
    }

    /// Counts at the end of a Swift Testing test, suite or run line: `with 9 issues (including 1
    /// warning and 1 known issue)`.
    package struct IssueCounts: Sendable, Equatable {
        /// All issues, known issues and warnings included.
        package var total = 0
        /// Issues recorded inside `withKnownIssue`.
        package var knownIssues = 0
        /// Issues recorded with the warning severity.
        package var warnings = 0

        /// Counts from their parts.
        package init(total: Int = 0, knownIssues: Int = 0, warnings: Int = 0) {
            self.total = total
            self.knownIssues = knownIssues
            self.warnings = warnings
        }

        /// Issues that fail a test: neither known issues nor warnings.
        package var failing: Int { total - knownIssues - warnings }
    }

    /// A Swift Testing console message (the part after the symbol).
    package enum SwiftTestingMessage: Sendable, Equatable {
        /// `Test run started.`
        case runStarted
        /// `Test name() started.` or `Suite "Display name" started.`; `name` as printed (quoted display names keep their quotes).
        case started(isSuite: Bool, name: String)
        /// `Test case passing 1 argument x → 2 to name(x:) started.`: the text between
        /// `argument(s) ` and ` started.`, that is the arguments, " to ", and the test's name.
        case caseStarted(argumentsAndTest: String)
        /// `Test name() skipped: "reason"` or `Test name() skipped.`
        case skipped(isSuite: Bool, name: String, reason: String?)
        /// `Test name() with 3 test cases passed after 0.061 seconds with 1 known issue.`
        case ended(isSuite: Bool, name: String, caseCount: Int?, passed: Bool, seconds: Double, counts: IssueCounts)
        /// `Test name() recorded an issue with 1 argument x → 2 at File.swift:12:5: message`;
        /// `kind` is `.failure`, `.error` (a caught error), `.knownIssue` or `.warning`.
        case issue(
            name: String, arguments: String?, location: TestRun.SourceLocation?, kind: TestRun.Issue.Kind,
            message: String)
        /// `Test run with 26 tests in 5 suites failed after 0.065 seconds with 2 issues.`
        case runEnded(tests: Int, suites: Int?, passed: Bool, seconds: Double, counts: IssueCounts)
        /// `↳ text`: details of the message before (comments, expression values), or `± diff`.
        case details(String)
    }

    /// The shape of `line` (without its line break; ANSI codes and a trailing CR are ignored), or
    /// nil when it is not a line `swift test` itself prints.
    package static func parse(_ line: String) -> TestLogLine? {
        var text = Substring(line.utf8.contains(0x1B) ? line.strippingANSIEscapes : line)
        if text.hasByteSuffix("\r") { text = text.dropLast() }
        return parse(plain: text)
    }

    /// The shape of a line without ANSI codes and line break.
    static func parse(plain text: Substring) -> TestLogLine? {
        guard let first = text.unicodeScalars.first else { return nil }
        if first == "T" {
            if text.hasBytePrefix("Test Case '") { return parseTestCase(text.dropFirst(11)) }
            if text.hasBytePrefix("Test Suite '") { return parseTestSuite(text.dropFirst(12)) }
        }
        if first == "\t" || first == " " {
            let trimmed = text.drop { $0 == "\t" || $0 == " " }
            if trimmed.hasBytePrefix("Executed ") { return parseExecuted(trimmed.dropFirst(9)) }
            return nil
        }
        if first == "[" { return parseProgress(text.dropFirst()) }
        if first.value >= 0x2D, let message = parseSwiftTestingLine(text) { return .swiftTesting(message) }
        // The rest are `place: message` lines.
        guard text.utf8.contains(UInt8(ascii: ":")) else { return nil }
        if let issue = parseIssueOrSkip(text) { return issue }
        return parseCrash(text)
    }

    // MARK: XCTest

    private static func parseTestSuite(_ rest: Substring) -> TestLogLine? {
        // The name ends at the last quote: the time after it has none.
        guard let quote = rest.utf8.lastIndex(of: UInt8(ascii: "'")) else { return nil }
        let name = rest[..<quote]
        let tail = rest[quote...]
        for (marker, passed) in [
            ("' started at ", nil), ("' passed at ", true), ("' failed at ", false), ("' finished at ", true),
        ] as [(String, Bool?)] {
            guard var timestamp = tail.after(prefix: marker) else { continue }
            if timestamp.hasByteSuffix(".") { timestamp = timestamp.dropLast() }  // macOS ends with a period
            guard let passed else { return .suiteStarted(name: String(name), timestamp: String(timestamp)) }
            return .suiteFinished(name: String(name), passed: passed, timestamp: String(timestamp))
        }
        return nil
    }

    private static func parseTestCase(_ rest: Substring) -> TestLogLine? {
        guard let quote = rest.utf8.lastIndex(of: UInt8(ascii: "'")) else { return nil }
        guard let name = parseXCTestName(rest[..<quote]) else { return nil }
        let tail = rest[rest.index(after: quote)...]
        if tail.hasBytePrefix(" started") { return .testCaseStarted(name) }
        guard let (status, seconds) = parseCaseEnd(tail.dropFirst()) else { return nil }
        return .testCaseFinished(name, status, seconds: seconds)
    }

    /// `passed (0.001 seconds)` (also `failed`, `skipped`), the end of a test case's last line.
    static func parseCaseEnd(_ tail: Substring) -> (TestRun.Status, Double)? {
        for (word, status) in [("passed (", TestRun.Status.passed), ("failed (", .failed), ("skipped (", .skipped)]
        where tail.hasBytePrefix(word) {
            var number = tail.dropFirst(word.count)
            guard let space = number.firstIndex(of: " ") else { return nil }
            number = number[..<space]
            return (status, Double(number).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0)
        }
        return nil
    }

    /// `Class.method`, `Module.Class.method` or `-[Module.Class method]`. Names may hold spaces,
    /// quotes and any other character (Quick names its tests after their descriptions): in the
    /// Linux form the class is what comes before the first dot when the name has a space, and
    /// before the last dot otherwise; the parser corrects it with the open suite's name.
    static func parseXCTestName(_ text: Substring) -> XCTestName? {
        guard !text.isEmpty else { return nil }
        let printed = String(text)
        if text.hasBytePrefix("-[") || text.hasBytePrefix("+["), text.hasByteSuffix("]") {
            let inner = text.dropFirst(2).dropLast()
            guard let space = inner.firstIndex(of: " ") else { return nil }
            let qualified = inner[..<space]
            let method = inner[inner.index(after: space)...]
            guard !method.isEmpty else { return nil }
            if let dot = qualified.firstIndex(of: ".") {
                return XCTestName(
                    module: String(qualified[..<dot]), className: String(qualified[qualified.index(after: dot)...]),
                    method: String(method), printed: printed)
            }
            return XCTestName(module: nil, className: String(qualified), method: String(method), printed: printed)
        }
        let hasSpace = text.utf8.contains(0x20)
        guard
            let dot = hasSpace
                ? text.utf8.firstIndex(of: UInt8(ascii: ".")) : text.utf8.lastIndex(of: UInt8(ascii: "."))
        else { return nil }
        let className = text[..<dot]
        let method = text[text.index(after: dot)...]
        // Quick can name an example with nothing: `QuickSpec.`.
        guard !className.isEmpty, !className.utf8.contains(0x20) else { return nil }
        return XCTestName(module: nil, className: String(className), method: String(method), printed: printed)
    }

    private static func parseExecuted(_ rest: Substring) -> TestLogLine? {
        // "7 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.005 (0.005) seconds"
        let words = rest.split(separator: " ")
        guard let tests = Int(words.first ?? ""), words.count > 1, words[1].hasBytePrefix("test"),
            let inIndex = words.lastIndex(of: "in"), inIndex + 1 < words.count,
            let seconds = Double(words[inIndex + 1])
        else { return nil }
        let wallSeconds = inIndex + 2 < words.count ? Double(words[inIndex + 2].trimmingParentheses) : nil
        var skipped = 0
        var failures = 0
        var unexpected = 0
        for index in words.indices.dropFirst(2) {
            let word = words[index]
            if word == "skipped", let count = Int(words[index - 2]) { skipped = count }
            if word.hasBytePrefix("failure"), let count = Int(words[index - 1]) { failures = count }
            if word == "unexpected)", let count = Int(words[index - 1].trimmingParentheses) { unexpected = count }
        }
        return .executed(
            tests: tests, skipped: skipped, failures: failures, unexpected: unexpected, seconds: seconds,
            wallSeconds: wallSeconds ?? seconds)
    }

    private static func parseProgress(_ rest: Substring) -> TestLogLine? {
        // "3/12] Testing Module.Class/method"
        guard let close = rest.firstIndex(of: "]") else { return nil }
        let counts = rest[..<close].split(separator: "/")
        guard counts.count == 2, let index = Int(counts[0]), let total = Int(counts[1]) else { return nil }
        let tail = rest[rest.index(after: close)...]
        guard tail.hasBytePrefix(" Testing ") else { return nil }
        let qualified = tail.dropFirst(9)
        guard let slash = qualified.firstIndex(of: "/") else { return nil }
        let type = qualified[..<slash]
        let method = qualified[qualified.index(after: slash)...]
        guard let dot = type.firstIndex(of: "."), !method.isEmpty, !type.contains(" ") else { return nil }
        let name = XCTestName(
            module: String(type[..<dot]), className: String(type[type.index(after: dot)...]), method: String(method),
            printed: String(qualified))
        return .parallelProgress(name, index: index, total: total)
    }

    /// `path:line: error: Name : message` and `path:line: Name : Test skipped - reason`.
    private static func parseIssueOrSkip(_ text: Substring) -> TestLogLine? {
        if let range = text.find(": error: ") {
            guard let location = parseLocation(text[..<range.lowerBound]) else { return nil }
            let rest = text[range.upperBound...]
            guard let separator = rest.find(" : "),
                let name = parseXCTestName(rest[..<separator.lowerBound])
            else { return nil }
            return .testCaseIssue(name, location: location.value, message: String(rest[separator.upperBound...]))
        }
        guard let range = text.find(" : Test skipped") else { return nil }
        let head = text[..<range.lowerBound]
        guard let colon = head.lastRange(of: ": "), let location = parseLocation(head[..<colon.lowerBound]),
            let name = parseXCTestName(head[colon.upperBound...])
        else { return nil }
        var reason = text[range.upperBound...]
        if reason.hasBytePrefix(" - ") {
            reason = reason.dropFirst(3)
        } else if !reason.isEmpty {
            return nil
        }
        return .testCaseSkipped(name, location: location.value, reason: reason.isEmpty ? nil : String(reason))
    }

    /// A `path:line` prefix: a location, or one that XCTest could not tell (`<unknown>:0`,
    /// `<EXPR>:0`).
    enum LocationMatch {
        case known(TestRun.SourceLocation)
        case unknown

        var value: TestRun.SourceLocation? {
            if case .known(let location) = self { return location }
            return nil
        }
    }

    /// `path:line`, or nil for anything else, including compiler diagnostics' `path:line:column`.
    static func parseLocation(_ text: Substring) -> LocationMatch? {
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]) else {
            return nil
        }
        let file = text[..<colon]
        guard !file.isEmpty else { return nil }
        if let previous = file.lastIndex(of: ":"), Int(file[file.index(after: previous)...]) != nil { return nil }
        if file.hasBytePrefix("<") && file.hasByteSuffix(">") || line == 0 { return .unknown }
        return .known(TestRun.SourceLocation(file: String(file), line: line))
    }

    private static func parseCrash(_ text: Substring) -> TestLogLine? {
        // SwiftPM's, on standard error: may follow other output on the same line.
        if let start = text.find("error: Process '"), text.find("' exited with unexpected signal") != nil {
            return .crash(location: nil, message: String(text[start.lowerBound...].dropFirst(7)))
        }
        for marker in [": Fatal error", ": Precondition failed", ": Assertion failed"] {
            guard let range = text.find(marker) else { continue }
            let location = parseLocation(text[..<range.lowerBound])
            let message = text[text.index(range.lowerBound, offsetBy: 2)...]
            return .crash(location: location?.value, message: String(message))
        }
        if text.hasBytePrefix("Fatal error: ") { return .crash(location: nil, message: String(text)) }
        return nil
    }

    // MARK: Swift Testing

    private enum Symbol {
        case message, details
    }

    /// The symbols Swift Testing prints before a message: text symbols (Linux, macOS), SF Symbols
    /// private-use characters (macOS), and the Windows substitutes.
    private static func symbol(_ scalar: Unicode.Scalar) -> Symbol? {
        switch scalar.value {
        // default, skip, pass, known issue, fail, warning, attachment
        case 0x25C7, 0x279C, 0x2714, 0x2501, 0x2718, 0x26A0, 0x2399: return .message
        case 0x1007C8, 0x10065F, 0x10105B, 0x100882, 0x100884, 0x1001FF, 0x100237: return .message
        case 0x25CA, 0x221A, 0x2D, 0xD7, 0x25B2: return .message  // Windows: ◊ √ - × ▲
        // details (↳, →), difference (±)
        case 0x21B3, 0x100135, 0x2192, 0xB1, 0x10017A: return .details
        default: return nil
        }
    }

    private static func parseSwiftTestingLine(_ text: Substring) -> SwiftTestingMessage? {
        var scalars = text.unicodeScalars[...]
        guard let first = scalars.popFirst(), let kind = symbol(first) else { return nil }
        if scalars.first == "\u{FE0E}" { scalars.removeFirst() }
        guard scalars.popFirst() == " " else { return nil }
        let message = Substring(scalars)
        switch kind {
        case .details: return .details(String(message))
        case .message: return parseSwiftTestingMessage(message)
        }
    }

    /// The message of a Swift Testing line without its symbol (also the `text` of the event
    /// stream's `messages`).
    package static func parseSwiftTestingMessage(_ message: Substring) -> SwiftTestingMessage? {
        if message == "Test run started." { return .runStarted }
        if message.hasBytePrefix("Test run with ") { return parseRunEnded(message.dropFirst(14)) }
        if message.hasBytePrefix("Test case passing "), message.hasByteSuffix(" started.") {
            return dropArgumentCount(message.dropFirst(18).dropLast(9)).map { .caseStarted(argumentsAndTest: $0) }
        }
        if message.hasBytePrefix("Passing ") {  // Swift 6.0's form
            return dropArgumentCount(message.dropFirst(8)).map { .caseStarted(argumentsAndTest: $0) }
        }
        let isSuite: Bool
        let rest: Substring
        if message.hasBytePrefix("Test ") {
            isSuite = false
            rest = message.dropFirst(5)
        } else if message.hasBytePrefix("Suite ") {
            isSuite = true
            rest = message.dropFirst(6)
        } else {
            return nil
        }
        if let issue = parseIssue(rest) { return issue }
        if rest.hasByteSuffix(" skipped.") {
            return .skipped(isSuite: isSuite, name: String(rest.dropLast(9)), reason: nil)
        }
        if let range = rest.find(" skipped: \""), rest.hasByteSuffix("\"") {
            let reason = rest[range.upperBound...].dropLast()
            return .skipped(isSuite: isSuite, name: String(rest[..<range.lowerBound]), reason: String(reason))
        }
        if rest.hasByteSuffix(" started.") { return .started(isSuite: isSuite, name: String(rest.dropLast(9))) }
        return parseEnded(rest, isSuite: isSuite)
    }

    /// "1 argument x → 2 to f(x:)" → "x → 2 to f(x:)".
    private static func dropArgumentCount(_ text: Substring) -> String? {
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count == 3, Int(words[0]) != nil, words[1].hasBytePrefix("argument") else { return nil }
        return String(words[2])
    }

    private static func parseIssue(_ rest: Substring) -> SwiftTestingMessage? {
        let kinds: [(String, TestRun.Issue.Kind)] = [
            (" recorded an issue", .failure), (" recorded a known issue", .knownIssue),
            (" recorded a warning", .warning),
        ]
        var found: (range: Range<Substring.Index>, kind: TestRun.Issue.Kind)?
        for (marker, kind) in kinds {
            if let range = rest.find(marker), found.map({ range.lowerBound < $0.range.lowerBound }) ?? true {
                found = (range, kind)
            }
        }
        guard let found else { return nil }
        let name = String(rest[..<found.range.lowerBound])
        var tail = rest[found.range.upperBound...]
        var arguments: Substring?
        var location: TestRun.SourceLocation?
        if let (range, parsed) = findSourceLocation(in: tail) {
            if tail[..<range.lowerBound].hasBytePrefix(" with ") { arguments = tail[..<range.lowerBound] }
            location = parsed
            tail = tail[range.upperBound...]
        } else if tail.hasBytePrefix(" with "), let colon = tail.find(": ") {
            arguments = tail[..<colon.lowerBound]
            tail = tail[colon.lowerBound...]
        }
        guard tail.hasBytePrefix(": ") else { return nil }
        let text = String(tail.dropFirst(2))
        let argumentText = arguments.flatMap { dropArgumentCount($0.dropFirst(6)) }
        let kind = found.kind == .failure && text.hasBytePrefix("Caught error") ? .error : found.kind
        return .issue(name: name, arguments: argumentText, location: location, kind: kind, message: text)
    }

    /// The first " at File.swift:12:5" in `text` (followed by ": "), and the location.
    private static func findSourceLocation(
        in text: Substring
    ) -> (Range<Substring.Index>, TestRun.SourceLocation)? {
        var searchStart = text.startIndex
        while let range = text[searchStart...].find(" at ") {
            let after = text[range.upperBound...]
            if let end = after.find(": ") {
                let parts = after[..<end.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
                if parts.count == 3, !parts[0].isEmpty, let line = Int(parts[1]), let column = Int(parts[2]) {
                    return (
                        range.lowerBound..<end.lowerBound,
                        TestRun.SourceLocation(file: String(parts[0]), line: line, column: column)
                    )
                }
            }
            searchStart = range.upperBound
        }
        return nil
    }

    private static func parseEnded(_ rest: Substring, isSuite: Bool) -> SwiftTestingMessage? {
        guard rest.hasByteSuffix(".") else { return nil }
        let body = rest.dropLast()
        let passedRange = body.lastRange(of: " passed after ")
        let failedRange = body.lastRange(of: " failed after ")
        let range: Range<Substring.Index>
        let passed: Bool
        switch (passedRange, failedRange) {
        case (let p?, let f?): (range, passed) = p.lowerBound > f.lowerBound ? (p, true) : (f, false)
        case (let p?, nil): (range, passed) = (p, true)
        case (nil, let f?): (range, passed) = (f, false)
        case (nil, nil): return nil
        }
        var name = body[..<range.lowerBound]
        var caseCount: Int?
        if let with = name.lastRange(of: " with "),
            name.hasByteSuffix(" test case") || name.hasByteSuffix(" test cases")
        {
            let words = name[with.upperBound...].split(separator: " ")
            if let count = Int(words[0]) {
                caseCount = count
                name = name[..<with.lowerBound]
            }
        }
        guard let (seconds, counts) = parseDuration(body[range.upperBound...]) else { return nil }
        return .ended(
            isSuite: isSuite, name: String(name), caseCount: caseCount, passed: passed, seconds: seconds,
            counts: counts)
    }

    private static func parseRunEnded(_ rest: Substring) -> SwiftTestingMessage? {
        // "26 tests in 5 suites failed after 0.065 seconds with 2 issues."
        guard rest.hasByteSuffix(".") else { return nil }
        let words = rest.dropLast().split(separator: " ", maxSplits: 5)
        guard words.count >= 4, let tests = Int(words[0]) else { return nil }
        var index = 2
        var suites: Int?
        if words[index] == "in", words.count >= 6, let count = Int(words[index + 1]) {
            suites = count
            index += 3
        }
        let verdict = words[index...].joined(separator: " ")
        let passed: Bool
        let tail: Substring
        if verdict.hasBytePrefix("passed after ") {
            passed = true
            tail = Substring(verdict.dropFirst(13))
        } else if verdict.hasBytePrefix("failed after ") {
            passed = false
            tail = Substring(verdict.dropFirst(13))
        } else {
            return nil
        }
        guard let (seconds, counts) = parseDuration(tail) else { return nil }
        return .runEnded(tests: tests, suites: suites, passed: passed, seconds: seconds, counts: counts)
    }

    /// "0.065 seconds with 9 issues (including 1 warning and 1 known issue)"
    private static func parseDuration(_ text: Substring) -> (Double, IssueCounts)? {
        let words = text.split(separator: " ")
        guard words.count >= 2, let seconds = Double(words[0]), words[1].hasBytePrefix("second") else { return nil }
        var counts = IssueCounts()
        var explicitTotal: Int?
        for index in words.indices.dropFirst(2) {
            guard let number = Int(words[index].trimmingParentheses), index + 1 < words.count else { continue }
            let next = words[index + 1].trimmingParentheses
            if next.hasBytePrefix("issue") {
                explicitTotal = number
            } else if next == "known", index + 2 < words.count, words[index + 2].hasBytePrefix("issue") {
                counts.knownIssues = number
            } else if next.hasBytePrefix("warning") {
                counts.warnings = number
            }
        }
        counts.total = explicitTotal ?? (counts.knownIssues + counts.warnings)
        return (seconds, counts)
    }
}

extension StringProtocol {
    /// Whether the text starts with `prefix`, compared byte by byte (log lines are matched by
    /// their bytes, which is much faster than comparing characters on every line of a large log).
    @inline(__always)
    func hasBytePrefix(_ prefix: String) -> Bool { utf8.starts(with: prefix.utf8) }

    /// Whether the text ends with `suffix`, compared byte by byte.
    @inline(__always)
    func hasByteSuffix(_ suffix: String) -> Bool {
        let count = suffix.utf8.count
        return utf8.count >= count && utf8.reversed().starts(with: suffix.utf8.reversed())
    }
}

extension Substring {
    /// The rest of the text after `parts`, when it starts with them one after the other
    /// (compared byte by byte, without joining them).
    func after(prefix parts: String...) -> Substring? {
        var rest = utf8[...]
        for part in parts {
            guard rest.starts(with: part.utf8) else { return nil }
            rest = rest.dropFirst(part.utf8.count)
        }
        return Substring(rest)
    }

    /// The first range of `needle` (compared byte by byte, which is all log lines need, and
    /// much faster than a generic collection search on every line of a large log).
    func find(_ needle: String) -> Range<Index>? {
        var needle = needle
        return needle.withUTF8 { find(bytes: $0) }
    }

    /// The first range of `pattern`, UTF-8 bytes.
    func find(bytes pattern: [UInt8]) -> Range<Index>? {
        pattern.withUnsafeBufferPointer { find(bytes: $0) }
    }

    /// The first range of `pattern`, UTF-8 bytes (`memmem` over the text's own storage).
    func find(bytes pattern: UnsafeBufferPointer<UInt8>) -> Range<Index>? {
        guard let patternStart = pattern.baseAddress, !pattern.isEmpty else { return nil }
        let bytes = utf8
        let found: Int?? = bytes.withContiguousStorageIfAvailable { text -> Int? in
            guard let textStart = text.baseAddress, text.count >= pattern.count else { return nil }
            // memchr for the first byte, memcmp for the rest.
            let last = text.count - pattern.count
            var offset = 0
            while offset <= last,
                let hit = memchr(textStart + offset, Int32(patternStart[0]), last - offset + 1)
            {
                let position = UnsafeRawPointer(textStart).distance(to: UnsafeRawPointer(hit))
                if memcmp(textStart + position, patternStart, pattern.count) == 0 { return position }
                offset = position + 1
            }
            return nil
        }
        if let found {
            guard let offset = found else { return nil }
            let start = bytes.index(bytes.startIndex, offsetBy: offset)
            return start..<bytes.index(start, offsetBy: pattern.count)
        }
        var start = bytes.startIndex
        while let candidate = bytes[start...].firstIndex(of: pattern[0]) {
            guard let end = bytes.index(candidate, offsetBy: pattern.count, limitedBy: bytes.endIndex) else {
                return nil
            }
            if bytes[candidate..<end].elementsEqual(pattern) { return candidate..<end }
            start = bytes.index(after: candidate)
        }
        return nil
    }

    /// The last range of `needle`, searching backwards.
    func lastRange(of needle: String) -> Range<Index>? {
        let pattern = Array(needle.utf8)
        let bytes = utf8
        guard pattern.count <= bytes.count, !pattern.isEmpty else { return nil }
        var end = bytes.endIndex
        while bytes.distance(from: bytes.startIndex, to: end) >= pattern.count {
            let start = bytes.index(end, offsetBy: -pattern.count)
            if bytes[start..<end].elementsEqual(pattern) { return start..<end }
            end = bytes.index(before: end)
        }
        return nil
    }

    /// The text without leading "(" and trailing "),." characters.
    var trimmingParentheses: Substring {
        var text = self
        while text.first == "(" { text = text.dropFirst() }
        while let last = text.last, last == ")" || last == "," || last == "." { text = text.dropLast() }
        return text
    }
}
