import SwiftCovModel

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
    /// `Module.Class/method` in `--parallel` progress lines. The text as printed is not kept (a
    /// string a test, made and freed): its form and parts give it again.
    package struct XCTestName: Hashable, Sendable {
        /// How the name was printed.
        package enum Form: Hashable, Sendable {
            /// `Class.method` (Linux).
            case dotted
            /// `-[Module.Class method]` (`+[…]` for a class method; macOS).
            case bracketed(instanceMethod: Bool)
            /// `Module.Class/method` (`--parallel` progress).
            case slashed
        }

        /// The test module, when the line names it.
        package var module: String?
        /// The test class, without its module.
        package var className: String
        /// The test method.
        package var method: String
        /// How it was printed.
        package var form: Form

        /// A name from its parts, printed in the Linux form `Class.method` unless `form` says.
        package init(module: String?, className: String, method: String, form: Form = .dotted) {
            self.module = module
            self.className = className
            self.method = method
            self.form = form
        }

        /// The printed name's length in bytes.
        var printedCount: Int {
            let parts = className.utf8.count + method.utf8.count + 1
            let qualified = module.map { $0.utf8.count + 1 + parts } ?? parts
            switch form {
            case .dotted: return parts
            case .bracketed: return qualified + 3
            case .slashed: return qualified
            }
        }

        /// The name as printed between the quotes (or after `Testing `).
        package var printed: String {
            let qualified = module.map { "\($0).\(className)" } ?? className
            switch form {
            case .dotted: return "\(className).\(method)"
            case .bracketed(let instanceMethod): return (instanceMethod ? "-[" : "+[") + qualified + " \(method)]"
            case .slashed: return "\(qualified)/\(method)"
            }
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
        var text = line.utf8.contains(0x1B) ? line.strippingANSIEscapes : line
        if text.utf8.last == 0x0D { text.removeLast() }
        return LineText.with(text) { parse(plain: $0) }
    }

    /// The shape of a line without ANSI codes and line break, given as its bytes (valid UTF-8).
    /// `openClass` is the XCTest class whose suite is open: a Linux test name that starts with
    /// it and a dot is that class's (see `parseXCTestName`). XCTest's names and suites' names are
    /// made into strings by `string` (which may give strings made before).
    static func parse(
        plain text: LineText, openClass: String? = nil, string: (LineText) -> String = { $0.string }
    ) -> TestLogLine? {
        guard let first = text.first else { return nil }
        switch first {
        case UInt8(ascii: "T"):
            if let rest = text.after("Test Case '") { return parseTestCase(rest, openClass: openClass, string: string) }
            if let rest = text.after("Test Suite '") { return parseTestSuite(rest, string: string) }
        case UInt8(ascii: "\t"), UInt8(ascii: " "):
            var start = 0
            while start < text.count, text[start] == UInt8(ascii: "\t") || text[start] == UInt8(ascii: " ") {
                start += 1
            }
            if let rest = text.suffix(from: start).after("Executed ") { return parseExecuted(rest) }
            return nil
        case UInt8(ascii: "["):
            return parseProgress(text.dropFirst()).map { .parallelProgress($0.name, index: $0.index, total: $0.total) }
        case UInt8(ascii: "-"), 0x80...:
            // Swift Testing's symbols: `-` on Windows, the rest beyond ASCII.
            if let message = parseSwiftTestingLine(text) { return .swiftTesting(message.message) }
        default:
            break
        }
        // The rest are `place: message` lines.
        guard mayBeIssueOrCrash(text) else { return nil }
        if let issue = parseIssueOrSkip(text) { return issue }
        return parseCrash(text)
    }

    /// Whether `text` may be a line that `parseIssueOrSkip` or `parseCrash` reads: each of their
    /// markers (`: error: `, ` : Test skipped`, `error: Process '`, `: Fatal error`, `: Precondition
    /// failed`, `: Assertion failed`) holds ": " followed by one of `e T P F A`, or the line starts
    /// with `Fatal error: `. One look at each ": " instead of a search for each marker: the lines a
    /// test prints (a logger's `info label: message`) are ruled out at once.
    static func mayBeIssueOrCrash(_ text: LineText) -> Bool {
        if text.hasPrefix("Fatal error: ") { return true }
        var start = 0
        while let colon = text.suffix(from: start).firstIndex(of: UInt8(ascii: ":")) {
            let next = start + colon + 2
            guard next < text.count else { return false }
            if text[next - 1] == UInt8(ascii: " ") {
                switch text[next] {
                case UInt8(ascii: "e"), UInt8(ascii: "T"), UInt8(ascii: "P"), UInt8(ascii: "F"), UInt8(ascii: "A"):
                    return true
                default: break
                }
            }
            start = next - 1
        }
        return false
    }

    // MARK: XCTest

    private static func parseTestSuite(_ rest: LineText, string: (LineText) -> String) -> TestLogLine? {
        guard let line = parseSuiteLine(rest) else { return nil }
        guard let passed = line.passed else {
            return .suiteStarted(name: string(line.name), timestamp: line.timestamp.string)
        }
        return .suiteFinished(name: string(line.name), passed: passed, timestamp: line.timestamp.string)
    }

    /// A `Test Suite '…' …` line after its `Test Suite '`, as its bytes: the name, whether it
    /// passed (nil: it started), and the time it gives.
    static func parseSuiteLine(_ rest: LineText) -> (name: LineText, passed: Bool?, timestamp: LineText)? {
        // The name ends at the last quote: the time after it has none.
        guard let quote = rest.lastIndex(of: UInt8(ascii: "'")) else { return nil }
        let name = rest.prefix(quote)
        let tail = rest.suffix(from: quote)
        let passed: Bool?
        let timestampStart: LineText
        if let after = tail.after("' started at ") {
            (passed, timestampStart) = (nil, after)
        } else if let after = tail.after("' passed at ") {
            (passed, timestampStart) = (true, after)
        } else if let after = tail.after("' failed at ") {
            (passed, timestampStart) = (false, after)
        } else if let after = tail.after("' finished at ") {
            (passed, timestampStart) = (true, after)
        } else {
            return nil
        }
        var timestamp = timestampStart
        if timestamp.hasSuffix(".") { timestamp = timestamp.dropLast() }  // macOS ends with a period
        return (name, passed, timestamp)
    }

    private static func parseTestCase(
        _ rest: LineText, openClass: String?, string: (LineText) -> String
    ) -> TestLogLine? {
        guard let quote = rest.lastIndex(of: UInt8(ascii: "'")) else { return nil }
        guard let name = parseXCTestName(rest.prefix(quote), openClass: openClass, string: string) else { return nil }
        let tail = rest.suffix(from: quote + 1)
        if tail.hasPrefix(" started") { return .testCaseStarted(name) }
        guard let (status, seconds) = parseCaseEnd(tail.dropFirst()) else { return nil }
        return .testCaseFinished(name, status, seconds: seconds)
    }

    /// The name of a `Test Case '…' …` line as printed between its quotes, `name` being the
    /// name `parse` read from it (which prints as many bytes as it was printed with).
    static func printedCaseName(_ text: LineText, _ name: XCTestName) -> LineText? {
        guard let rest = text.after("Test Case '"), name.printedCount <= rest.count else { return nil }
        return rest.prefix(name.printedCount)
    }

    /// `passed (0.001 seconds)` (also `failed`, `skipped`), the end of a test case's last line.
    static func parseCaseEnd(_ tail: LineText) -> (TestRun.Status, Double)? {
        let status: TestRun.Status
        var number: LineText
        if let rest = tail.after("passed (") {
            (status, number) = (.passed, rest)
        } else if let rest = tail.after("failed (") {
            (status, number) = (.failed, rest)
        } else if let rest = tail.after("skipped (") {
            (status, number) = (.skipped, rest)
        } else {
            return nil
        }
        guard let space = number.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        number = number.prefix(space)
        return (status, number.double.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0)
    }

    /// `Class.method`, `Module.Class.method` or `-[Module.Class method]`. Names may hold spaces,
    /// quotes and any other character (Quick names its tests after their descriptions): in the
    /// Linux form the class is what comes before the first dot when the name has a space, and
    /// before the last dot otherwise; but when the name starts with `openClass` (the open
    /// suite's name, which may hold dots) and a dot, the class is `openClass` and the method the
    /// rest (`openClass` itself is kept: the tests of a class share its name's storage). The
    /// names kept (module, class, method) are made by `string`.
    static func parseXCTestName(
        _ text: LineText, openClass: String? = nil, string: (LineText) -> String = { $0.string }
    ) -> XCTestName? {
        guard !text.isEmpty else { return nil }
        if text.hasPrefix("-[") || text.hasPrefix("+["), text.hasSuffix("]") {
            let form = XCTestName.Form.bracketed(instanceMethod: text.hasPrefix("-["))
            let inner = text.dropFirst(2).dropLast()
            guard let space = inner.firstIndex(of: UInt8(ascii: " ")) else { return nil }
            let qualified = inner.prefix(space)
            let method = inner.suffix(from: space + 1)
            guard !method.isEmpty else { return nil }
            if let dot = qualified.firstIndex(of: UInt8(ascii: ".")) {
                return XCTestName(
                    module: string(qualified.prefix(dot)), className: string(qualified.suffix(from: dot + 1)),
                    method: string(method), form: form)
            }
            return XCTestName(module: nil, className: string(qualified), method: string(method), form: form)
        }
        let hasSpace = text.contains(0x20)
        guard
            let dot = hasSpace
                ? text.firstIndex(of: UInt8(ascii: ".")) : text.lastIndex(of: UInt8(ascii: "."))
        else { return nil }
        let className = text.prefix(dot)
        let method = text.suffix(from: dot + 1)
        // Quick can name an example with nothing: `QuickSpec.`.
        guard !className.isEmpty, !className.contains(0x20) else { return nil }
        if let openClass, case let length = openClass.utf8.count, text.count > length + 1, text[length] == 0x2E,
            LineText.with(openClass, { text.hasPrefix($0) })
        {
            return XCTestName(module: nil, className: openClass, method: string(text.suffix(from: length + 1)))
        }
        return XCTestName(module: nil, className: string(className), method: string(method))
    }

    private static func parseExecuted(_ rest: LineText) -> TestLogLine? {
        parseCommonExecuted(rest) ?? parseExecutedWords(rest)
    }

    /// "7 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.005 (0.005) seconds", word
    /// by word: any order and number of the parts.
    static func parseExecutedWords(_ rest: LineText) -> TestLogLine? {
        rest.withPieces(UInt8(ascii: " ")) { parseExecuted(words: $0) }
    }

    /// The shapes XCTest prints, read straight through (`N test(s), with [K test(s) skipped and]
    /// F failure(s) (U unexpected) in S (W) seconds`): what `parseExecutedWords` reads from them,
    /// without cutting the line into words. Nil for any other line (also one with a sign, a
    /// number too long, or spaces doubled), left to `parseExecutedWords`.
    static func parseCommonExecuted(_ text: LineText) -> TestLogLine? {
        var cursor = 0
        func integer() -> Int? {
            let start = cursor
            var value = 0
            while cursor < text.count, cursor - start < 18 {
                let digit = Int(text[cursor]) &- Int(UInt8(ascii: "0"))
                guard digit >= 0 && digit <= 9 else { break }
                value = value * 10 + digit
                cursor += 1
            }
            let isDigit = cursor < text.count && text[cursor] >= UInt8(ascii: "0") && text[cursor] <= UInt8(ascii: "9")
            return cursor > start && !isDigit ? value : nil
        }
        func literal(_ expected: StaticString) -> Bool {
            guard text.suffix(from: cursor).hasPrefix(expected) else { return false }
            cursor += expected.utf8CodeUnitCount
            return true
        }
        func number(upTo end: UInt8) -> Double? {
            guard let length = text.suffix(from: cursor).firstIndex(of: end), length > 0 else { return nil }
            defer { cursor += length }
            return text[cursor, cursor + length].double
        }
        guard let tests = integer(), literal(" test") else { return nil }
        _ = literal("s")
        guard literal(", with "), let first = integer() else { return nil }
        var skipped = 0
        var failures = first
        if literal(" test") {
            _ = literal("s")
            guard literal(" skipped and "), let count = integer() else { return nil }
            (skipped, failures) = (first, count)
        }
        guard literal(" failure") else { return nil }
        _ = literal("s")
        guard literal(" ("), let unexpected = integer(), literal(" unexpected) in "),
            let seconds = number(upTo: UInt8(ascii: " ")), literal(" ("),
            let wallSeconds = number(upTo: UInt8(ascii: ")")),
            literal(") seconds"), cursor == text.count
        else { return nil }
        return .executed(
            tests: tests, skipped: skipped, failures: failures, unexpected: unexpected, seconds: seconds,
            wallSeconds: wallSeconds)
    }

    private static func parseExecuted(words: UnsafeBufferPointer<LineText>) -> TestLogLine? {
        guard let tests = words.first?.int, words.count > 1, words[1].hasPrefix("test"),
            let inIndex = words.lastIndex(where: { $0 == "in" }), inIndex + 1 < words.count,
            let seconds = words[inIndex + 1].double
        else { return nil }
        let wallSeconds = inIndex + 2 < words.count ? words[inIndex + 2].trimmingParentheses.double : nil
        var skipped = 0
        var failures = 0
        var unexpected = 0
        for index in words.indices.dropFirst(2) {
            let word = words[index]
            if word == "skipped", let count = words[index - 2].int { skipped = count }
            if word.hasPrefix("failure"), let count = words[index - 1].int { failures = count }
            if word == "unexpected)", let count = words[index - 1].trimmingParentheses.int { unexpected = count }
        }
        return .executed(
            tests: tests, skipped: skipped, failures: failures, unexpected: unexpected, seconds: seconds,
            wallSeconds: wallSeconds ?? seconds)
    }

    /// A `--parallel` progress line, `[3/12] Testing Module.Class/method`, as its bytes (valid
    /// while the line is): a test named again and again is looked up by them, its name's strings
    /// made once.
    struct ProgressLine {
        var index: Int
        var total: Int
        /// `Module.Class/method`.
        var qualified: LineText
        /// Where the dot after the module and the slash before the method are in `qualified`.
        var dot: Int
        var slash: Int

        /// `Class/method`: the test without its module.
        var classAndMethod: LineText { qualified.suffix(from: dot + 1) }

        /// The test's name, its parts made into strings.
        var name: XCTestName {
            XCTestName(
                module: qualified.prefix(dot).string, className: qualified[dot + 1, slash].string,
                method: qualified.suffix(from: slash + 1).string, form: .slashed)
        }
    }

    /// A progress line after its `[`: "3/12] Testing Module.Class/method".
    static func parseProgress(_ rest: LineText) -> ProgressLine? {
        guard let close = rest.firstIndex(of: UInt8(ascii: "]")),
            let (index, total) = progressCounts(rest.prefix(close)),
            let qualified = rest.suffix(from: close + 1).after(" Testing "),
            let slash = qualified.firstIndex(of: UInt8(ascii: "/"))
        else { return nil }
        let type = qualified.prefix(slash)
        guard let dot = type.firstIndex(of: UInt8(ascii: ".")), slash + 1 < qualified.count, !type.contains(0x20) else {
            return nil
        }
        return ProgressLine(index: index, total: total, qualified: qualified, dot: dot, slash: slash)
    }

    /// `3/12`: two numbers between slashes (empty pieces skipped, as `split` skips them), read
    /// without cutting the text into pieces.
    private static func progressCounts(_ text: LineText) -> (Int, Int)? {
        var pieces = 0
        var first = text
        var second = text
        var start = 0
        for end in 0...text.count where end == text.count || text[end] == UInt8(ascii: "/") {
            if end > start {
                pieces += 1
                guard pieces <= 2 else { return nil }
                if pieces == 1 { first = text[start, end] } else { second = text[start, end] }
            }
            start = end + 1
        }
        guard pieces == 2, let index = first.int, let total = second.int else { return nil }
        return (index, total)
    }

    /// `path:line: error: Name : message` and `path:line: Name : Test skipped - reason`.
    private static func parseIssueOrSkip(_ text: LineText) -> TestLogLine? {
        if let marker = text.find(": error: ") {
            guard let location = parseLocation(text.prefix(marker)) else { return nil }
            let rest = text.suffix(from: marker + 9)
            guard let separator = rest.find(" : "), let name = parseXCTestName(rest.prefix(separator)) else {
                return nil
            }
            return .testCaseIssue(name, location: location.value, message: rest.suffix(from: separator + 3).string)
        }
        guard let marker = text.find(" : Test skipped") else { return nil }
        let head = text.prefix(marker)
        guard let colon = head.lastFind(": "), let location = parseLocation(head.prefix(colon)),
            let name = parseXCTestName(head.suffix(from: colon + 2))
        else { return nil }
        var reason = text.suffix(from: marker + 15)
        if let rest = reason.after(" - ") {
            reason = rest
        } else if !reason.isEmpty {
            return nil
        }
        return .testCaseSkipped(name, location: location.value, reason: reason.isEmpty ? nil : reason.string)
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
    static func parseLocation(_ text: LineText) -> LocationMatch? {
        guard let colon = text.lastIndex(of: UInt8(ascii: ":")), let line = text.suffix(from: colon + 1).int else {
            return nil
        }
        let file = text.prefix(colon)
        guard !file.isEmpty else { return nil }
        if let previous = file.lastIndex(of: UInt8(ascii: ":")), file.suffix(from: previous + 1).int != nil {
            return nil
        }
        if file.hasPrefix("<") && file.hasSuffix(">") || line == 0 { return .unknown }
        return .known(TestRun.SourceLocation(file: file.string, line: line))
    }

    private static func parseCrash(_ text: LineText) -> TestLogLine? {
        // SwiftPM's, on standard error: may follow other output on the same line.
        if let start = text.find("error: Process '"), text.find("' exited with unexpected signal") != nil {
            return .crash(location: nil, message: text.suffix(from: start + 7).string)
        }
        for marker: StaticString in [": Fatal error", ": Precondition failed", ": Assertion failed"] {
            guard let found = text.find(marker) else { continue }
            let location = parseLocation(text.prefix(found))
            return .crash(location: location?.value, message: text.suffix(from: found + 2).string)
        }
        if text.hasPrefix("Fatal error: ") { return .crash(location: nil, message: text.string) }
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

    /// A Swift Testing message as its line holds it: names and texts are the line's bytes (valid
    /// while the line is), so that the log parser makes strings only of what it keeps.
    enum SwiftTestingLine {
        case runStarted
        case started(isSuite: Bool, name: LineText)
        case caseStarted(argumentsAndTest: LineText)
        case skipped(isSuite: Bool, name: LineText, reason: LineText?)
        case ended(isSuite: Bool, name: LineText, caseCount: Int?, passed: Bool, seconds: Double, counts: IssueCounts)
        /// `location` is the text of a place (`File.swift:12:5`), read by `sourceLocation`.
        case issue(
            name: LineText, arguments: LineText?, location: LineText?, kind: TestRun.Issue.Kind, message: LineText)
        case runEnded(tests: Int, suites: Int?, passed: Bool, seconds: Double, counts: IssueCounts)
        case details(LineText)

        /// The message with its texts as strings.
        var message: SwiftTestingMessage {
            switch self {
            case .runStarted: return .runStarted
            case .started(let isSuite, let name): return .started(isSuite: isSuite, name: name.string)
            case .caseStarted(let text): return .caseStarted(argumentsAndTest: text.string)
            case .skipped(let isSuite, let name, let reason):
                return .skipped(isSuite: isSuite, name: name.string, reason: reason?.string)
            case .ended(let isSuite, let name, let caseCount, let passed, let seconds, let counts):
                return .ended(
                    isSuite: isSuite, name: name.string, caseCount: caseCount, passed: passed, seconds: seconds,
                    counts: counts)
            case .issue(let name, let arguments, let location, let kind, let message):
                return .issue(
                    name: name.string, arguments: arguments?.string, location: location.flatMap(sourceLocation),
                    kind: kind, message: message.string)
            case .runEnded(let tests, let suites, let passed, let seconds, let counts):
                return .runEnded(tests: tests, suites: suites, passed: passed, seconds: seconds, counts: counts)
            case .details(let text): return .details(text.string)
            }
        }
    }

    /// A line with a Swift Testing symbol, as its bytes.
    static func parseSwiftTestingLine(_ text: LineText) -> SwiftTestingLine? {
        guard let (first, length) = text.firstScalar, let kind = symbol(first) else { return nil }
        var message = text.dropFirst(length)
        if let rest = message.after("\u{FE0E}") { message = rest }
        guard let rest = message.after(" ") else { return nil }
        switch kind {
        case .details: return .details(rest)
        case .message: return parseSwiftTestingMessage(rest)
        }
    }

    /// The message of a Swift Testing line without its symbol (also the `text` of the event
    /// stream's `messages`).
    package static func parseSwiftTestingMessage(_ message: Substring) -> SwiftTestingMessage? {
        LineText.with(String(message)) { parseSwiftTestingMessage($0)?.message }
    }

    static func parseSwiftTestingMessage(_ message: LineText) -> SwiftTestingLine? {
        if message == "Test run started." { return .runStarted }
        if let rest = message.after("Test run with ") { return parseRunEnded(rest) }
        if let rest = message.after("Test case passing "), message.hasSuffix(" started.") {
            return dropArgumentCount(rest.dropLast(9)).map { .caseStarted(argumentsAndTest: $0) }
        }
        if let rest = message.after("Passing ") {  // Swift 6.0's form
            return dropArgumentCount(rest).map { .caseStarted(argumentsAndTest: $0) }
        }
        let isSuite: Bool
        let rest: LineText
        if let after = message.after("Test ") {
            (isSuite, rest) = (false, after)
        } else if let after = message.after("Suite ") {
            (isSuite, rest) = (true, after)
        } else {
            return nil
        }
        // Every marker of an issue starts with " recorded a", and its message follows ": ": most
        // lines have no ": " (a function's labels are followed by ")" or a letter), and the rest
        // are looked through once.
        if rest.hasColonSpace, rest.find(" recorded a") != nil, let issue = parseIssue(rest) { return issue }
        if rest.hasSuffix(" skipped.") {
            return .skipped(isSuite: isSuite, name: rest.dropLast(9), reason: nil)
        }
        if rest.hasSuffix("\""), let marker = rest.find(" skipped: \"") {
            let reason = rest[marker + 11, max(marker + 11, rest.count - 1)]
            return .skipped(isSuite: isSuite, name: rest.prefix(marker), reason: reason)
        }
        if rest.hasSuffix(" started.") { return .started(isSuite: isSuite, name: rest.dropLast(9)) }
        return parseEnded(rest, isSuite: isSuite)
    }

    /// "1 argument x → 2 to f(x:)" → "x → 2 to f(x:)".
    private static func dropArgumentCount(_ text: LineText) -> LineText? {
        guard let first = text.firstIndex(of: UInt8(ascii: " ")), text.prefix(first).int != nil else { return nil }
        let rest = text.suffix(from: first + 1)
        guard let second = rest.firstIndex(of: UInt8(ascii: " ")), rest.hasPrefix("argument") else { return nil }
        return rest.suffix(from: second + 1)
    }

    private static func parseIssue(_ rest: LineText) -> SwiftTestingLine? {
        var found: (start: Int, end: Int, kind: TestRun.Issue.Kind)?
        for (marker, kind): (StaticString, TestRun.Issue.Kind) in [
            (" recorded an issue", .failure), (" recorded a known issue", .knownIssue),
            (" recorded a warning", .warning),
        ] {
            if let start = rest.find(marker), found.map({ start < $0.start }) ?? true {
                found = (start, start + marker.utf8CodeUnitCount, kind)
            }
        }
        guard let found else { return nil }
        let name = rest.prefix(found.start)
        var tail = rest.suffix(from: found.end)
        var arguments: LineText?
        var location: LineText?
        if let (range, parsed) = findSourceLocation(in: tail) {
            if tail.prefix(range.lowerBound).hasPrefix(" with ") { arguments = tail.prefix(range.lowerBound) }
            location = parsed
            tail = tail.suffix(from: range.upperBound)
        } else if tail.hasPrefix(" with "), let colon = tail.find(": ") {
            arguments = tail.prefix(colon)
            tail = tail.suffix(from: colon)
        }
        guard let message = tail.after(": ") else { return nil }
        let argumentText = arguments.flatMap { dropArgumentCount($0.dropFirst(6)) }
        let kind = found.kind == .failure && message.hasPrefix("Caught error") ? .error : found.kind
        return .issue(name: name, arguments: argumentText, location: location, kind: kind, message: message)
    }

    /// The first " at File.swift:12:5" in `text` (followed by ": "): its offsets, and the
    /// location's text.
    private static func findSourceLocation(in text: LineText) -> (Range<Int>, LineText)? {
        var searchStart = 0
        while let found = text.suffix(from: searchStart).find(" at ") {
            let start = searchStart + found
            let after = text.suffix(from: start + 4)
            if let end = after.find(": "), sourceLocation(after.prefix(end)) != nil {
                return (start..<(start + 4 + end), after.prefix(end))
            }
            searchStart = start + 4
        }
        return nil
    }

    /// `File.swift:12:5` as a location, nil for any other text.
    static func sourceLocation(_ text: LineText) -> TestRun.SourceLocation? {
        let parts = text.split(UInt8(ascii: ":"), omittingEmpty: false)
        guard parts.count == 3, !parts[0].isEmpty, let line = parts[1].int, let column = parts[2].int else {
            return nil
        }
        return TestRun.SourceLocation(file: parts[0].string, line: line, column: column)
    }

    private static func parseEnded(_ rest: LineText, isSuite: Bool) -> SwiftTestingLine? {
        guard rest.hasSuffix(".") else { return nil }
        let body = rest.dropLast()
        // The last " passed after " or " failed after " (a name may hold either): one look back
        // at each space.
        var start = body.count - 14
        var passed = false
        while start >= 0 {
            if body[start] == 0x20 {
                let rest = body.suffix(from: start)
                if rest.hasPrefix(" passed after ") {
                    passed = true
                    break
                }
                if rest.hasPrefix(" failed after ") { break }
            }
            start -= 1
        }
        guard start >= 0 else { return nil }
        var name = body.prefix(start)
        var caseCount: Int?
        if name.hasSuffix(" test case") || name.hasSuffix(" test cases"), let with = name.lastFind(" with ") {
            if let count = name.suffix(from: with + 6).withPieces(UInt8(ascii: " "), { $0.first?.int }) {
                caseCount = count
                name = name.prefix(with)
            }
        }
        guard let (seconds, counts) = parseDuration(body.suffix(from: start + 14)) else { return nil }
        return .ended(
            isSuite: isSuite, name: name, caseCount: caseCount, passed: passed, seconds: seconds,
            counts: counts)
    }

    private static func parseRunEnded(_ rest: LineText) -> SwiftTestingLine? {
        // "26 tests in 5 suites failed after 0.065 seconds with 2 issues."
        guard rest.hasSuffix(".") else { return nil }
        let words = rest.dropLast().split(UInt8(ascii: " "), maxSplits: 5)
        guard words.count >= 4, let tests = words[0].int else { return nil }
        var index = 2
        var suites: Int?
        if words[index] == "in", words.count >= 6, let count = words[index + 1].int {
            suites = count
            index += 3
        }
        let verdict = words[index...].map(\.string).joined(separator: " ")
        return LineText.with(verdict) { verdict -> SwiftTestingLine? in
            let passed: Bool
            let tail: LineText
            if let rest = verdict.after("passed after ") {
                (passed, tail) = (true, rest)
            } else if let rest = verdict.after("failed after ") {
                (passed, tail) = (false, rest)
            } else {
                return nil
            }
            guard let (seconds, counts) = parseDuration(tail) else { return nil }
            return .runEnded(tests: tests, suites: suites, passed: passed, seconds: seconds, counts: counts)
        }
    }

    /// "0.065 seconds with 9 issues (including 1 warning and 1 known issue)"
    private static func parseDuration(_ text: LineText) -> (Double, IssueCounts)? {
        // Most lines: "0.065 seconds" and no issues, read without cutting the text into words.
        if let space = text.firstIndex(of: UInt8(ascii: " ")), space > 0, text.suffix(from: space + 1) == "seconds" {
            return text.prefix(space).double.map { ($0, IssueCounts()) }
        }
        return text.withPieces(UInt8(ascii: " ")) { parseDuration(words: $0) }
    }

    private static func parseDuration(words: UnsafeBufferPointer<LineText>) -> (Double, IssueCounts)? {
        guard words.count >= 2, let seconds = words[0].double, words[1].hasPrefix("second") else { return nil }
        var counts = IssueCounts()
        var explicitTotal: Int?
        for index in words.indices.dropFirst(2) {
            guard let number = words[index].trimmingParentheses.int, index + 1 < words.count else { continue }
            let next = words[index + 1].trimmingParentheses
            if next.hasPrefix("issue") {
                explicitTotal = number
            } else if next == "known", index + 2 < words.count, words[index + 2].hasPrefix("issue") {
                counts.knownIssues = number
            } else if next.hasPrefix("warning") {
                counts.warnings = number
            }
        }
        counts.total = explicitTotal ?? (counts.knownIssues + counts.warnings)
        return (seconds, counts)
    }
}
