import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// The test results in Xcode 16 and later's `database.sqlite3`, turned into the document
/// `xcrun xcresulttool get test-results tests --format json` prints from it
/// (`XcodeTestsDocument`), so that a bundle holding only `Info.plist` and the database is read by
/// the one reader of that document (`XCResultToolJSON`) and `swiftcov xcresult get test-results`
/// prints what the tool prints.
///
/// The tree is the tool's: the test plan, then each testable (unit or UI test bundle) in plan
/// order, its suites nested as declared, each suite's test cases in order, and under a test case
/// its runs as `XcodeTestsDocument` places them; `devices` are the run destinations' devices and
/// `testPlanConfigurations` the configurations the runs ran in.
package enum XcodeResultDatabase {
    /// The `tests` document of `database`.
    package static func testsDocument(_ database: SQLiteDatabase) throws(SQLiteDatabase.DecodeError) -> JSONValue {
        try results(database).testsDocument
    }

    /// The test results of `database`, from which each of the tool's documents is made.
    package static func results(_ database: SQLiteDatabase) throws(SQLiteDatabase.DecodeError)
        -> XcodeTestsDocument.Results
    {
        try Reader(database).results()
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
            let platforms: Rows

            init(_ reader: Reader) throws(SQLiteDatabase.DecodeError) {
                suiteRuns = try reader.rows("TestSuiteRuns")
                testableRuns = try reader.rows("TestableRuns")
                planRuns = try reader.rows("TestPlanRuns")
                configurations = try reader.rows("TestPlanConfigurations")
                actions = try reader.rows("Actions")
                destinations = try reader.rows("RunDestinations")
                devices = try reader.rows("Devices")
                platforms = try reader.rows("Platforms")
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

        /// Each run's argument case (by the run's rowid), from its Arguments rows in order: its values
        /// as `argumentValues` names them.
        /// The tables every reading of the tests needs: the testables, suites, cases and their
        /// runs, where each run ran, its repetition, its issues and its arguments.
        func testTables() throws(SQLiteDatabase.DecodeError) -> (
            testables: Rows, suites: Rows, cases: Rows, runs: Rows, places: Places, policies: Rows, issues: Issues,
            argumentsOfRun: [Int64: [String]]
        ) {
            (
                try rows("Testables", required: true), try rows("TestSuites", required: true),
                try rows("TestCases", required: true), try rows("TestCaseRuns", required: true), try Places(self),
                try rows("RepetitionPolicies"), try Issues(self), try argumentLabels()
            )
        }

        func argumentLabels() throws(SQLiteDatabase.DecodeError) -> [Int64: [String]] {
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
            return argumentsOfRun.mapValues(Self.argumentValues)
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

        /// A device row as the document lists it.
        static func device(_ places: Places, _ row: SQLiteRow) -> XcodeTestsDocument.Device {
            let devices = places.devices
            let platforms = places.platforms
            return XcodeTestsDocument.Device(
                id: devices.text(row, "identifier") ?? "device \(row.rowid ?? 0)", name: devices.text(row, "name"),
                architecture: devices.text(row, "nativeArchitecture"), modelName: devices.text(row, "modelName"),
                osVersion: devices.text(row, "operatingSystemVersion"),
                osVersionWithBuildNumber: devices.text(row, "operatingSystemVersionWithBuildNumber"),
                platform: platforms.row(devices.integer(row, "platform_fk")).flatMap {
                    platforms.text($0, "userDescription")
                })
        }

        func results() throws(SQLiteDatabase.DecodeError) -> XcodeTestsDocument.Results {
            let (testables, suites, cases, runs, places, policies, issueRows, argumentsOfRun) = try testTables()
            let issues = issueRows.issues
            let skips = try rows("SkipNotices")
            let plans = try rows("TestPlans")
            let tags = try rows("TestTags")
            let metrics = try rows("PerformanceMetrics")
            let measuredRuns = Set(metrics.rows.compactMap { metrics.integer($0, "testCaseRun_fk") })

            // Failures and skip notices of each run, and the span of the failures' times.
            var messagesOfRun: [Int64: [(order: Int64, text: String, description: String)]] = [:]
            var issueTimes: [Int64: (first: Double, last: Double)] = [:]
            for row in issues.rows {
                guard let run = issues.integer(row, "testCaseRun_fk") else { continue }
                let description = issueRows.description(row)
                var text = description
                if let (path, line) = issueRows.location(row) {
                    text = "\(path.split(separator: "/").last.map(String.init) ?? path):\(line): \(description)"
                }
                messagesOfRun[run, default: []].append((issues.integer(row, "orderInOwner") ?? 0, text, description))
                if let time = issues.real(row, "timestamp") {
                    let span = issueTimes[run] ?? (time, time)
                    issueTimes[run] = (min(span.first, time), max(span.last, time))
                }
            }

            var results = XcodeTestsDocument.Results()
            var runsOfCase: [Int64: [XcodeTestsDocument.Run]] = [:]
            var unnumbered: [[String?]: Int64] = [:]
            for row in runs.rows {
                guard let testCase = runs.integer(row, "testCase_fk") else { continue }
                let place = places.place(ofSuiteRun: runs.integer(row, "testSuiteRun_fk"))
                let policy = policies.row(runs.integer(row, "repetitionPolicy_fk"))
                var run = XcodeTestsDocument.Run(result: XcodeTestsDocument.result(runs.text(row, "result")))
                run.configuration = place.configuration
                run.device = place.device.map { Self.device(places, $0) }
                run.arguments = row.rowid.flatMap { argumentsOfRun[$0] }?.joined(separator: ", ")
                run.hasPerformanceMetrics = row.rowid.map(measuredRuns.contains) ?? false
                if let repetition = policy.flatMap({ policies.integer($0, "repetition") }) {
                    run.repetition = repetition
                } else {
                    // Runs with no policy (a test in several actions) are numbered in the order met.
                    let key = [String(testCase), run.configuration, run.device?.id, run.arguments]
                    run.repetition = unnumbered[key, default: 0] + 1
                    unnumbered[key] = run.repetition
                }
                run.retryOnFailure = policy.flatMap { policies.text($0, "repetitionModeString") } == "RunRetryOnFailure"
                // A run stored as 0 s whose failures were recorded over a span took that span (as
                // the tool reports it).
                run.duration = runs.real(row, "duration")
                if run.duration == 0, let id = row.rowid, let span = issueTimes[id] {
                    run.storedDuration = run.duration
                    run.duration = span.last - span.first
                }
                let messages = (row.rowid.flatMap { messagesOfRun[$0] } ?? []).sorted { $0.order < $1.order }
                run.messages = messages.map(\.text)
                run.failures = messages.map(\.description)
                if let skip = skips.row(runs.integer(row, "skipNotice_fk")), let message = skips.text(skip, "message") {
                    run.messages.append(message)
                }
                if let device = run.device, !results.devices.contains(device) { results.devices.append(device) }
                if let configuration = run.configuration, !results.configurations.contains(configuration) {
                    results.configurations.append(configuration)
                }
                runsOfCase[testCase, default: []].append(run)
            }
            let tagsOfCase = tags.grouped(by: "testCase_fk")

            // Suites nested under their parents, in declared order; test cases under their suites.
            let childSuites = suites.grouped(by: "parentSuite_fk")
            let topSuites = suites.grouped(by: "testable_fk") { suites.integer($0, "parentSuite_fk") == nil }
            let casesOfSuite = cases.grouped(by: "testSuite_fk")
            func suiteGroup(_ suite: SQLiteRow, depth: Int) -> XcodeTestsDocument.Group {
                var group = XcodeTestsDocument.Group(
                    type: "Test Suite", name: suites.text(suite, "summary") ?? suites.text(suite, "name") ?? "",
                    url: suites.text(suite, "identifierURL"))
                guard depth < XCResultObject.maximumDepth, let id = suite.rowid else { return group }
                for child in suites.ordered(childSuites[id] ?? [], by: "orderInParent") {
                    group.children.append(.group(suiteGroup(child, depth: depth + 1)))
                }
                for row in cases.ordered(casesOfSuite[id] ?? [], by: "orderInTestSuite") {
                    var testCase = XcodeTestsDocument.Case(
                        name: cases.text(row, "summary") ?? cases.text(row, "name") ?? "",
                        identifier: cases.text(row, "identifier"), url: cases.text(row, "identifierURL"))
                    testCase.tags = (row.rowid.flatMap { tagsOfCase[$0] } ?? []).compactMap { tags.text($0, "name") }
                    testCase.runs = row.rowid.flatMap { runsOfCase[$0] } ?? []
                    group.children.append(.testCase(testCase))
                }
                return group
            }

            for testable in testables.ordered(testables.rows, by: "orderInTestPlan") {
                var bundle = XcodeTestsDocument.Group(
                    type: testables.text(testable, "testKind") == "UI" ? "UI test bundle" : "Unit test bundle",
                    name: testables.text(testable, "name") ?? "", url: testables.text(testable, "identifierURL"))
                for suite in suites.ordered(testable.rowid.flatMap { topSuites[$0] } ?? [], by: "orderInParent") {
                    bundle.children.append(.group(suiteGroup(suite, depth: 0)))
                }
                results.bundles.append(bundle)
            }
            if let name = plans.rows.first.flatMap({ plans.text($0, "name") }) { results.plan = name }

            // The action: its name and times, the scheme and the SDK it was built with.
            let invocations = try rows("Invocations")
            let sdks = try rows("SDKs")
            if let action = places.actions.rows.first {
                let scheme = invocations.row(places.actions.integer(action, "invocation_fk")).flatMap {
                    invocations.text($0, "scheme")
                }
                let sdk = places.destinations.row(places.actions.integer(action, "runDestination_fk")).flatMap {
                    sdks.row(places.destinations.integer($0, "sdk_fk"))
                }.flatMap { sdks.text($0, "name") }
                if let name = places.actions.text(action, "name"), let scheme { results.title = name + " - " + scheme }
                if let scheme, let sdk { results.environmentDescription = scheme + " · Built with " + sdk }
                results.startTime = places.actions.real(action, "started").map {
                    $0 + XcodeResultDatabase.referenceDate
                }
                results.finishTime = places.actions.real(action, "finished").map {
                    $0 + XcodeResultDatabase.referenceDate
                }
            }
            return results
        }

        /// A run's argument case: a UI test's appearance and orientation by name (`Dark Appearance`,
        /// `Portrait`), else the values' descriptions in order. The tool's name of the case is
        /// these joined by `, `.
        static func argumentValues(_ values: [(order: Int64, parameter: String?, value: String)]) -> [String] {
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
                ].compactMap { $0 }
            }
            return sorted.map(\.value)
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
