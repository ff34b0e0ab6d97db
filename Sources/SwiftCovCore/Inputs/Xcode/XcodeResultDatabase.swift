/// The test results in Xcode 16 and later's `database.sqlite3`, turned into the document
/// `xcrun xcresulttool get test-results tests --format json` prints from it, so that a bundle
/// holding only `Info.plist` and the database is read by the one reader of that document
/// (`XCResultToolJSON`).
///
/// The tree is the tool's: the test plan, then each testable (unit or UI test bundle) in plan
/// order, its suites nested as declared, each suite's test cases in order; under a test case, a
/// node per test plan configuration (when the run had several), per device (when it had
/// several) and per argument case (Swift Testing arguments, a UI test's appearance and
/// orientation), then a node per repetition or retry, with each run's failures, skip notices
/// and results. The document carries what the reader uses (names, identifiers, node types,
/// results, durations in seconds, failure messages as `File.swift:LINE: message`), not the
/// tool's localized `duration` strings or its `details` summaries.
package enum XcodeResultDatabase {
    /// The `tests` document of `database`.
    package static func testsDocument(_ database: SQLiteDatabase) throws(SQLiteDatabase.DecodeError) -> JSONValue {
        var reader = try Reader(database)
        return try reader.document()
    }

    /// Reads whole tables (a bundle's database is a few megabytes) and joins them by rowid.
    struct Reader {
        let database: SQLiteDatabase
        var schema: [SQLiteSchemaEntry] = []

        init(_ database: SQLiteDatabase) throws(SQLiteDatabase.DecodeError) {
            self.database = database
            schema = try database.schema()
        }

        /// A table's rows by rowid, with its columns by name; empty when the database has no
        /// such table (older Xcode versions lack some).
        struct Rows {
            var table: SQLiteTable?
            var rows: [SQLiteRow] = []
            var byID: [Int64: Int] = [:]

            func value(_ row: SQLiteRow, _ column: String) -> SQLiteValue {
                guard let index = table?.column(column), index < row.values.count else { return .null }
                return row.values[index]
            }
            func text(_ row: SQLiteRow, _ column: String) -> String? { value(row, column).text }
            func integer(_ row: SQLiteRow, _ column: String) -> Int64? { value(row, column).integer }
            func real(_ row: SQLiteRow, _ column: String) -> Double? { value(row, column).real }
            func row(_ id: Int64?) -> SQLiteRow? { id.flatMap { byID[$0] }.map { rows[$0] } }
            /// `rows` (of this table) in the order of `column`, then of rowid.
            func ordered(_ rows: [SQLiteRow], by column: String) -> [SQLiteRow] {
                rows.sorted {
                    (integer($0, column) ?? 0, $0.rowid ?? 0) < (integer($1, column) ?? 0, $1.rowid ?? 0)
                }
            }

            /// The rows by their value of `column` (rows where it is null, or that `include` leaves
            /// out, are not listed), in table order.
            func grouped(by column: String, where include: (SQLiteRow) -> Bool = { _ in true }) -> [Int64: [SQLiteRow]]
            {
                var groups: [Int64: [SQLiteRow]] = [:]
                for row in rows where include(row) {
                    if let key = integer(row, column) { groups[key, default: []].append(row) }
                }
                return groups
            }
        }

        func rows(_ name: String, required: Bool = false) throws(SQLiteDatabase.DecodeError) -> Rows {
            let wanted = name.lowercased()
            guard
                let entry = schema.first(where: { $0.type == "table" && $0.name.lowercased() == wanted }),
                let table = SQLiteTable(name: entry.name, rootPage: entry.rootPage, sql: entry.sql)
            else {
                if required {
                    throw SQLiteDatabase.DecodeError(
                        offset: 0, message: "no table \(name) (not an Xcode result database)")
                }
                return Rows()
            }
            var result = Rows(table: table)
            result.rows = try database.rows(of: table)
            for (index, row) in result.rows.enumerated() { if let id = row.rowid { result.byID[id] = index } }
            return result
        }

        /// One run of a test case, with what tells it apart from the test's other runs.
        struct Run {
            var row: SQLiteRow
            var configuration: String?
            var device: String?
            var arguments: String?
            var repetition: Int64
            var retryOnFailure: Bool
        }

        /// Where each run happened: the tables that lead from a suite run to its test plan
        /// run's configuration and its action's device.
        struct Places {
            let suiteRuns: Rows
            let testableRuns: Rows
            let planRuns: Rows
            let configurations: Rows
            let actions: Rows
            let destinations: Rows
            let devices: Rows

            init(_ reader: Reader) throws(SQLiteDatabase.DecodeError) {
                suiteRuns = try reader.rows("TestSuiteRuns")
                testableRuns = try reader.rows("TestableRuns")
                planRuns = try reader.rows("TestPlanRuns")
                configurations = try reader.rows("TestPlanConfigurations")
                actions = try reader.rows("Actions")
                destinations = try reader.rows("RunDestinations")
                devices = try reader.rows("Devices")
            }

            /// The configuration's name and the device's row of suite run `id` (or its parents').
            func place(ofSuiteRun id: Int64?) -> (configuration: String?, device: SQLiteRow?) {
                var current = suiteRuns.row(id)
                var seen = 0
                while let suiteRun = current, seen < suiteRuns.rows.count {
                    if let testableRun = testableRuns.row(suiteRuns.integer(suiteRun, "testableRun_fk")) {
                        let planRun = planRuns.row(testableRuns.integer(testableRun, "testPlanRun_fk"))
                        let configuration = planRun.flatMap {
                            configurations.row(planRuns.integer($0, "configuration_fk"))
                        }
                        let action = planRun.flatMap { actions.row(planRuns.integer($0, "action_fk")) }
                        let destination = action.flatMap { destinations.row(actions.integer($0, "runDestination_fk")) }
                        let device = destination.flatMap { devices.row(destinations.integer($0, "device_fk")) }
                        return (configuration.flatMap { configurations.text($0, "name") }, device)
                    }
                    current = suiteRuns.row(suiteRuns.integer(suiteRun, "parentSuiteRun_fk"))
                    seen += 1
                }
                return (nil, nil)
            }
        }

        /// Each run's argument case (by the run's rowid), from its Arguments rows in order.
        func argumentLabels() throws(SQLiteDatabase.DecodeError) -> [Int64: String] {
            let arguments = try rows("Arguments")
            let values = try rows("TestValues")
            let parameters = try rows("Parameters")
            var argumentsOfRun: [Int64: [(order: Int64, parameter: String?, value: String)]] = [:]
            for row in arguments.rows {
                guard let run = arguments.integer(row, "testCaseRun_fk") else { continue }
                let value = values.row(arguments.integer(row, "testValue_fk")).flatMap {
                    values.text($0, "description")
                }
                let parameter = parameters.row(arguments.integer(row, "parameter_fk")).flatMap {
                    parameters.text($0, "label")
                }
                argumentsOfRun[run, default: []].append(
                    (arguments.integer(row, "orderInTestCaseRun") ?? 0, parameter, value ?? ""))
            }
            return argumentsOfRun.mapValues(Self.argumentLabel)
        }

        /// The issues of test runs, with their places in the source.
        struct Issues {
            let issues: Rows
            let contexts: Rows
            let locations: Rows

            init(_ reader: Reader) throws(SQLiteDatabase.DecodeError) {
                issues = try reader.rows("TestIssues")
                contexts = try reader.rows("SourceCodeContexts")
                locations = try reader.rows("SourceCodeLocations")
            }

            /// An issue's description, as the tool shows it.
            func description(_ row: SQLiteRow) -> String {
                issues.text(row, "compactDescription") ?? issues.text(row, "detailedDescription")
                    ?? issues.text(row, "sanitizedDescription") ?? ""
            }

            /// Where the issue was recorded: the file's path and the line, when stored.
            func location(_ row: SQLiteRow) -> (path: String, line: Int64)? {
                let context = contexts.row(issues.integer(row, "sourceCodeContext_fk"))
                guard let location = context.flatMap({ locations.row(contexts.integer($0, "location_fk")) }),
                    let path = locations.text(location, "filePath"),
                    let line = locations.integer(location, "lineNumber")
                else { return nil }
                return (path, line)
            }
        }

        mutating func document() throws(SQLiteDatabase.DecodeError) -> JSONValue {
            let testables = try rows("Testables", required: true)
            let suites = try rows("TestSuites", required: true)
            let cases = try rows("TestCases", required: true)
            let runs = try rows("TestCaseRuns", required: true)
            let places = try Places(self)
            let policies = try rows("RepetitionPolicies")
            let issueRows = try Issues(self)
            let issues = issueRows.issues
            let skips = try rows("SkipNotices")
            let plans = try rows("TestPlans")
            let argumentsOfRun = try argumentLabels()

            var runsOfCase: [Int64: [Run]] = [:]
            for row in runs.rows {
                guard let testCase = runs.integer(row, "testCase_fk") else { continue }
                let place = places.place(ofSuiteRun: runs.integer(row, "testSuiteRun_fk"))
                let policy = policies.row(runs.integer(row, "repetitionPolicy_fk"))
                let label = row.rowid.flatMap { argumentsOfRun[$0] }
                runsOfCase[testCase, default: []].append(
                    Run(
                        row: row, configuration: place.configuration,
                        device: place.device.map { Self.deviceName(places.devices, $0) }, arguments: label,
                        repetition: policy.flatMap { policies.integer($0, "repetition") } ?? 1,
                        retryOnFailure: policy.flatMap { policies.text($0, "repetitionModeString") }
                            == "RunRetryOnFailure"
                    ))
            }
            let allRuns = runsOfCase.values.joined()
            let splitByConfiguration = Set(allRuns.map(\.configuration)).count > 1
            let splitByDevice = Set(allRuns.map(\.device)).count > 1

            // Failures and skip notices of each run, and the span of the failures' times.
            var messagesOfRun: [Int64: [(order: Int64, text: String)]] = [:]
            var issueTimes: [Int64: (first: Double, last: Double)] = [:]
            for row in issues.rows {
                guard let run = issues.integer(row, "testCaseRun_fk") else { continue }
                let description = issueRows.description(row)
                var text = description
                if let (path, line) = issueRows.location(row) {
                    text = "\(path.split(separator: "/").last.map(String.init) ?? path):\(line): \(description)"
                }
                messagesOfRun[run, default: []].append((issues.integer(row, "orderInOwner") ?? 0, text))
                if let time = issues.real(row, "timestamp") {
                    let span = issueTimes[run] ?? (time, time)
                    issueTimes[run] = (min(span.first, time), max(span.last, time))
                }
            }

            func caseNode(_ testCase: SQLiteRow) -> JSONValue {
                let name = cases.text(testCase, "summary") ?? cases.text(testCase, "name") ?? ""
                var members: [(key: String, value: JSONValue)] = [
                    ("name", .string(name)), ("nodeType", .string("Test Case")),
                ]
                if let identifier = cases.text(testCase, "identifier") {
                    members.append(("nodeIdentifier", .string(identifier)))
                }
                if let url = cases.text(testCase, "identifierURL") {
                    members.append(("nodeIdentifierURL", .string(url)))
                }
                let caseRuns = testCase.rowid.flatMap { runsOfCase[$0] } ?? []
                let children = split(
                    caseRuns,
                    by: [
                        splitByConfiguration ? ("Test Plan Configuration", { $0.configuration }) : nil,
                        splitByDevice ? ("Device", { $0.device }) : nil,
                        ("Arguments", { $0.arguments }),
                    ].compactMap { $0 })
                members.append(("result", .string(Self.aggregate(children.result))))
                if let duration = children.duration { members.append(("durationInSeconds", .number(duration))) }
                if !children.nodes.isEmpty { members.append(("children", .array(children.nodes))) }
                return .object(members)
            }

            /// The nodes under a test case (or a splitting node) for `runs`: one per value of the
            /// first key that tells runs apart, else one per repetition, else the run's messages.
            func split(
                _ group: [Run], by keys: [(type: String, key: (Run) -> String?)]
            ) -> (nodes: [JSONValue], result: [String], duration: Double?) {
                if let (type, key) = keys.first {
                    let values = group.map(key)
                    guard values.contains(where: { $0 != nil }) else {
                        return split(group, by: Array(keys.dropFirst()))
                    }
                    // In the order the runs ran (the tool sorts by its collation, which the database
                    // does not keep).
                    var order: [String] = []
                    var seen = Set<String>()
                    for value in values.map({ $0 ?? "" }) where seen.insert(value).inserted { order.append(value) }
                    var nodes: [JSONValue] = []
                    var results: [String] = []
                    var durations: [Double] = []
                    for value in order {
                        let inner = split(group.filter { (key($0) ?? "") == value }, by: Array(keys.dropFirst()))
                        // The tool shows a line break in a name as a space; the runs stay apart.
                        let name = String(String.UnicodeScalarView(value.unicodeScalars.map { $0 == "\n" ? " " : $0 }))
                        let result = Self.aggregate(inner.result)
                        results.append(result)
                        var members: [(key: String, value: JSONValue)] = [
                            ("name", .string(name)), ("nodeType", .string(type)), ("result", .string(result)),
                        ]
                        if let duration = inner.duration {
                            members.append(("durationInSeconds", .number(duration)))
                            durations.append(duration)
                        }
                        if !inner.nodes.isEmpty { members.append(("children", .array(inner.nodes))) }
                        nodes.append(.object(members))
                    }
                    let average =
                        durations.count == nodes.count && !durations.isEmpty
                        ? durations.reduce(0, +) / Double(durations.count) : nil
                    return (nodes, results, average)
                }
                let sorted = group.sorted { $0.repetition < $1.repetition }
                // One run: its messages directly under the node; several: a node per repetition.
                if sorted.count == 1 {
                    let run = sorted[0]
                    return (messages(run), [Self.result(runs.text(run.row, "result"))], duration(run))
                }
                var nodes: [JSONValue] = []
                for run in sorted {
                    let name =
                        run.retryOnFailure
                        ? (run.repetition == 1 ? "First Run" : "Retry \(run.repetition - 1)")
                        : "Repetition \(run.repetition)"
                    var members: [(key: String, value: JSONValue)] = [("name", .string(name))]
                    members.append(("nodeIdentifier", .string(String(run.repetition))))
                    members.append(("nodeType", .string("Repetition")))
                    members.append(("result", .string(Self.result(runs.text(run.row, "result")))))
                    if let duration = duration(run) {
                        members.append(("durationInSeconds", .number(duration)))
                    }
                    let children = messages(run)
                    if !children.isEmpty { members.append(("children", .array(children))) }
                    nodes.append(.object(members))
                }
                // Retries end with the last attempt's result; other repetitions fail if any failed.
                let results = sorted.map { Self.result(runs.text($0.row, "result")) }
                let result = sorted.last?.retryOnFailure == true ? [results.last ?? "Failed"] : results
                return (nodes, result, sorted.last.flatMap(duration))
            }

            /// A run's time: as stored, except that a run stored as 0 s whose failures were
            /// recorded over a span took that span (as the tool reports it).
            func duration(_ run: Run) -> Double? {
                guard let stored = runs.real(run.row, "duration") else { return nil }
                guard stored == 0, let id = run.row.rowid, let span = issueTimes[id] else { return stored }
                return span.last - span.first
            }

            func messages(_ run: Run) -> [JSONValue] {
                var texts = (run.row.rowid.flatMap { messagesOfRun[$0] } ?? []).sorted { $0.order < $1.order }.map(
                    \.text)
                if let skip = skips.row(runs.integer(run.row, "skipNotice_fk")),
                    let message = skips.text(skip, "message")
                {
                    texts.append(message)
                }
                return texts.map { .object([("name", .string($0)), ("nodeType", .string("Failure Message"))]) }
            }

            // Suites nested under their parents, in declared order; test cases under their suites.
            let childSuites = suites.grouped(by: "parentSuite_fk")
            let topSuites = suites.grouped(by: "testable_fk") { suites.integer($0, "parentSuite_fk") == nil }
            let casesOfSuite = cases.grouped(by: "testSuite_fk")
            func suiteNode(_ suite: SQLiteRow, depth: Int) -> (node: JSONValue, result: String) {
                var children: [JSONValue] = []
                var results: [String] = []
                if depth < XCResultObject.maximumDepth, let id = suite.rowid {
                    for child in suites.ordered(childSuites[id] ?? [], by: "orderInParent") {
                        let (node, result) = suiteNode(child, depth: depth + 1)
                        children.append(node)
                        results.append(result)
                    }
                    for testCase in cases.ordered(casesOfSuite[id] ?? [], by: "orderInTestSuite") {
                        let node = caseNode(testCase)
                        children.append(node)
                        results.append(
                            node["result"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "")
                    }
                }
                let result = Self.aggregate(results)
                var members: [(key: String, value: JSONValue)] = [
                    ("name", .string(suites.text(suite, "summary") ?? suites.text(suite, "name") ?? "")),
                    ("nodeType", .string("Test Suite")),
                ]
                if let url = suites.text(suite, "identifierURL") { members.append(("nodeIdentifierURL", .string(url))) }
                members.append(("result", .string(result)))
                if !children.isEmpty { members.append(("children", .array(children))) }
                return (.object(members), result)
            }

            var bundles: [JSONValue] = []
            var results: [String] = []
            for testable in testables.ordered(testables.rows, by: "orderInTestPlan") {
                var children: [JSONValue] = []
                var childResults: [String] = []
                for suite in suites.ordered(testable.rowid.flatMap { topSuites[$0] } ?? [], by: "orderInParent") {
                    let (node, result) = suiteNode(suite, depth: 0)
                    children.append(node)
                    childResults.append(result)
                }
                let result = Self.aggregate(childResults)
                results.append(result)
                let kind = testables.text(testable, "testKind") == "UI" ? "UI test bundle" : "Unit test bundle"
                var members: [(key: String, value: JSONValue)] = [
                    ("name", .string(testables.text(testable, "name") ?? "")), ("nodeType", .string(kind)),
                ]
                if let url = testables.text(testable, "identifierURL") {
                    members.append(("nodeIdentifierURL", .string(url)))
                }
                members.append(("result", .string(result)))
                if !children.isEmpty { members.append(("children", .array(children))) }
                bundles.append(.object(members))
            }
            let planName = plans.rows.first.flatMap { plans.text($0, "name") } ?? "Test Plan"
            let plan: JSONValue = .object([
                ("name", .string(planName)), ("nodeType", .string("Test Plan")),
                ("result", .string(Self.aggregate(results))), ("children", .array(bundles)),
            ])
            return .object([("testNodes", .array([plan]))])
        }

        /// A device as the tool names it: its name, and its OS version when known.
        static func deviceName(_ devices: Rows, _ device: SQLiteRow) -> String {
            let name = devices.text(device, "name") ?? devices.text(device, "modelName") ?? "device"
            let version =
                devices.text(device, "operatingSystemVersionWithBuildNumber")
                ?? devices.text(device, "operatingSystemVersion")
            return version.map { "\(name) \($0)" } ?? name
        }

        /// A run's argument case: a UI test's appearance and orientation by name, else the values'
        /// descriptions in order.
        static func argumentLabel(_ values: [(order: Int64, parameter: String?, value: String)]) -> String {
            let sorted = values.sorted { $0.order < $1.order }
            let appearance = sorted.first { $0.parameter == "XCUIAppearanceMode" }
            let orientation = sorted.first { $0.parameter == "XCUIDeviceOrientation" }
            if appearance != nil || orientation != nil {
                let appearanceName = ["1": "Light Appearance", "2": "Dark Appearance"]
                let orientationName = [
                    "1": "Portrait", "2": "Portrait Upside Down", "3": "Landscape Left", "4": "Landscape Right",
                ]
                return [
                    appearance.map { appearanceName[$0.value] ?? "Appearance \($0.value)" },
                    orientation.map { orientationName[$0.value] ?? "Orientation \($0.value)" },
                ].compactMap { $0 }.joined(separator: ", ")
            }
            return sorted.map(\.value).joined(separator: ", ")
        }

        /// The tool's word for a stored result; an unknown one passes through (and reads as an error).
        static func result(_ stored: String?) -> String {
            switch stored {
            case "Success": "Passed"
            case "Failure": "Failed"
            case "Skipped": "Skipped"
            case "Expected Failure", "ExpectedFailure": "Expected Failure"
            case let other: other ?? "unknown"
            }
        }

        /// A group's result: failed if anything failed (or ended otherwise), else passed if
        /// anything passed, else skipped.
        static func aggregate(_ results: [String]) -> String {
            if results.contains(where: { !["Passed", "Skipped", "Expected Failure"].contains($0) }) {
                return results.first { !["Passed", "Skipped", "Expected Failure"].contains($0) && $0 != "Failed" }
                    ?? "Failed"
            }
            if results.contains("Passed") || results.contains("Expected Failure") { return "Passed" }
            return results.isEmpty ? "Passed" : "Skipped"
        }
    }
}

extension XcodeResultDatabase {
    /// The largest database read: bundles' databases are kilobytes to tens of megabytes.
    static let maximumDatabaseSize = 1 << 30

    /// The tests of the bundle at `path` whose results are in its `database.sqlite3` (Xcode 16
    /// and later; the only store of some bundles), read as `xcresulttool`'s `tests` document is.
    package static func testRun(bundle path: String) throws(TestResultsError) -> TestRun {
        let document = try withDatabase(bundle: path) { (database) throws(SQLiteDatabase.DecodeError) in
            try testsDocument(database)
        }
        return try XCResultToolJSON.testRun(tests: document, path: path)
    }

    /// `body`'s answer from the database of the bundle at `path`: only a regular file inside the
    /// bundle is read, at most `maximumDatabaseSize` bytes; what is wrong with it names the file.
    static func withDatabase<Answer>(
        bundle path: String, _ body: (SQLiteDatabase) throws(SQLiteDatabase.DecodeError) -> Answer
    ) throws(TestResultsError) -> Answer {
        // Only a regular file inside the bundle, as for its objects.
        let databasePath: String
        do throws(XcodeInputError) {
            guard let realPath = FileSystem.realPath(path) else {
                throw XcodeInputError(path: path, "no such file or directory")
            }
            databasePath = try XCResultBundle.fileInside(
                realPath, path: path, "database.sqlite3", missing: "no Data folder and no database.sqlite3: no results")
        } catch {
            throw error.testResultsError
        }
        let file: MappedFile
        do {
            file = try MappedFile(path: databasePath, regularFileOfAtMost: maximumDatabaseSize)
        } catch {
            throw .malformedXcodeResult(
                path: databasePath, offset: nil, keyPath: nil, message: "cannot read: \(error.message)")
        }
        do {
            return try file.withUnsafeBytes { (bytes) throws(SQLiteDatabase.DecodeError) in
                try body(try SQLiteDatabase(bytes))
            }
        } catch {
            throw .malformedXcodeResult(path: databasePath, offset: error.offset, keyPath: nil, message: error.message)
        }
    }
}
