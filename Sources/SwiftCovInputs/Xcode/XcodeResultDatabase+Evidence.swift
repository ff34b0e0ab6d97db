import SwiftCovFormats
import SwiftCovModel

/// Each test run's evidence (`TestEvidence`) in Xcode 16 and later's `database.sqlite3`: one per
/// `TestCaseRuns` row, its steps the `Activities` rows under it (`testCaseRun_fk` for the top
/// level, `parent_fk` below, in `orderInParent`), its failures its `TestIssues` rows (expected
/// ones named by `ExpectedFailures`), its attachments the `Attachments` rows of its steps
/// (`activity_fk`) and of its failures (`testIssue_fk`), their bytes `Data/data.<xcResultKitPayloadRefId>`.
///
/// A failure is tied to the step whose `failureIDs` name it; the database ties no other (Xcode
/// 16 and 26 record no assertion-failure steps there), so none is guessed from times. Times are
/// stored in seconds since 2001 and given in seconds since 1970. Steps are walked with a stack
/// of their own (a 10,000-level tree is read, never a stack overflow), each row at most once.
extension XcodeResultDatabase {
    /// Seconds from 1970 to 2001, where the database's times count from.
    static let referenceDate = 978_307_200.0

    /// The evidence of every test run in `database`.
    package static func evidence(_ database: SQLiteDatabase) throws(SQLiteDatabase.DecodeError) -> [TestEvidence] {
        try Reader(database).evidence()
    }

    /// The evidence of the bundle at `path`'s database.
    package static func evidence(bundle path: String) throws(TestResultsError) -> [TestEvidence] {
        try withDatabase(bundle: path) { (database) throws(SQLiteDatabase.DecodeError) in try evidence(database) }
    }
}

extension XcodeResultDatabase.Reader {
    func evidence() throws(SQLiteDatabase.DecodeError) -> [TestEvidence] {
        let (testables, suites, cases, runs, places, policies, issues, argumentsOfRun) = try testTables()
        let expectedFailures = try rows("ExpectedFailures")
        let activities = try rows("Activities")
        let attachments = try rows("Attachments")

        func time(_ table: Rows, _ row: SQLiteRow, _ column: String) -> Double? {
            table.real(row, column).map { $0 + XcodeResultDatabase.referenceDate }
        }
        let childSteps = activities.grouped(by: "parent_fk")
        let stepsOfRun = activities.grouped(by: "testCaseRun_fk") { activities.integer($0, "parent_fk") == nil }
        let issuesOfRun = issues.issues.grouped(by: "testCaseRun_fk")
        let expectedIssues = Set(expectedFailures.rows.compactMap { expectedFailures.integer($0, "issue_fk") })
        let attachmentsOfStep = attachments.grouped(by: "activity_fk")
        let attachmentsOfIssue = attachments.grouped(by: "testIssue_fk") {
            attachments.integer($0, "activity_fk") == nil
        }
        func attachment(_ row: SQLiteRow, at step: Int?) -> TestEvidence.Attachment {
            TestEvidence.Attachment(
                name: attachments.text(row, "name") ?? "",
                uniformTypeIdentifier: attachments.text(row, "uniformTypeIdentifier"),
                timestamp: time(attachments, row, "timestamp"), lifetime: attachments.text(row, "lifetime"),
                filename: attachments.text(row, "filenameOverride"), uuid: attachments.text(row, "uuid"),
                payload: attachments.text(row, "xcResultKitPayloadRefId").flatMap {
                    $0.isEmpty ? nil : TestEvidence.Payload(id: $0)
                },
                activity: step)
        }
        // A test case's class: its bundle and suites, as the tests document names them.
        func className(_ testCase: SQLiteRow) -> String {
            var names: [String] = []
            var suite = suites.row(cases.integer(testCase, "testSuite_fk"))
            var module: String?
            while let row = suite, names.count <= suites.rows.count {
                names.append(suites.text(row, "summary") ?? suites.text(row, "name") ?? "")
                if let testable = testables.row(suites.integer(row, "testable_fk")) {
                    module = testables.text(testable, "name")
                }
                suite = suites.row(suites.integer(row, "parentSuite_fk"))
            }
            return ((module.map { [$0] } ?? []) + names.reversed()).joined(separator: ".")
        }

        var result: [TestEvidence] = []
        for run in runs.rows {
            guard let runID = run.rowid, let testCase = cases.row(runs.integer(run, "testCase_fk")) else { continue }
            let status: TestRun.Status =
                switch XcodeTestsDocument.result(runs.text(run, "result")) {
                case "Passed", "Expected Failure": .passed
                case "Skipped": .skipped
                case "Failed": .failed
                default: .error
                }
            var evidence = TestEvidence(
                testIdentifier: cases.text(testCase, "identifier") ?? cases.text(testCase, "name") ?? "",
                className: className(testCase),
                testName: cases.text(testCase, "summary") ?? cases.text(testCase, "name") ?? "", status: status)
            evidence.testIdentifierURL = cases.text(testCase, "identifierURL")
            let place = places.place(ofSuiteRun: runs.integer(run, "testSuiteRun_fk"))
            evidence.configuration = place.configuration
            evidence.deviceName = place.device.flatMap { places.devices.text($0, "name") }
            evidence.deviceIdentifier = place.device.flatMap { places.devices.text($0, "identifier") }
            evidence.argumentValues = argumentsOfRun[runID] ?? []
            evidence.arguments = argumentsOfRun[runID]?.joined(separator: ", ")
            let policy = policies.row(runs.integer(run, "repetitionPolicy_fk"))
            evidence.attempt = Int(clamping: max(1, policy.flatMap { policies.integer($0, "repetition") } ?? 1))
            var budget = TextBudget()
            func kept(_ text: String) -> String { budget.admit(text) + budget.endElement() }

            var failureOfUUID: [String: Int] = [:]
            var issueRowOfFailure: [Int64] = []
            for issue in issues.issues.ordered(issuesOfRun[runID] ?? [], by: "orderInOwner") {
                let uuid = issues.issues.text(issue, "uuid")
                if let uuid { failureOfUUID[uuid.uppercased()] = evidence.failures.count }
                let location = issues.location(issue).flatMap { place in
                    place.line >= 1 && place.line < Int32.max
                        ? TestRun.SourceLocation(file: place.path, line: Int(place.line)) : nil
                }
                evidence.failures.append(
                    TestEvidence.Failure(
                        message: kept(issues.description(issue)), location: location,
                        isExpected: issue.rowid.map(expectedIssues.contains) ?? false, uuid: uuid))
                issueRowOfFailure.append(issue.rowid ?? -1)
            }

            var pending = activities.ordered(stepsOfRun[runID] ?? [], by: "orderInParent").reversed().map {
                (row: $0, parent: Int?.none, depth: 0)
            }
            var visited = Set<Int64>()
            var stepsLeftOut = 0
            while let (row, parent, depth) = pending.popLast() {
                guard let id = row.rowid, visited.insert(id).inserted else { continue }
                guard evidence.activities.count < TestEvidence.maximumActivities else {
                    stepsLeftOut += 1
                    pending.append(contentsOf: (childSteps[id] ?? []).map { ($0, nil, depth + 1) })
                    continue
                }
                let position = evidence.activities.count
                evidence.activities.append(
                    TestEvidence.Activity(
                        title: kept(activities.text(row, "title") ?? ""),
                        activityType: activities.text(row, "activityType"),
                        start: time(activities, row, "startTime"), finish: time(activities, row, "finishTime"),
                        uuid: activities.text(row, "uuid"), parent: parent, depth: depth))
                for column in ["failureIDs", "expectedFailureIDs"] {
                    for uuid in Self.identifiers(in: activities.text(row, column) ?? "") {
                        if let failure = failureOfUUID[uuid], evidence.failures[failure].activity == nil {
                            evidence.failures[failure].activity = position
                        }
                    }
                }
                for attached in attachmentsOfStep[id] ?? []
                where evidence.attachments.count < TestEvidence.maximumAttachments {
                    evidence.attachments.append(attachment(attached, at: position))
                }
                pending.append(
                    contentsOf: activities.ordered(childSteps[id] ?? [], by: "orderInParent").reversed().map {
                        ($0, position, depth + 1)
                    })
            }
            let failingSteps = Set(evidence.failures.compactMap(\.activity))
            for index in evidence.attachments.indices {
                if let step = evidence.attachments[index].activity, failingSteps.contains(step) {
                    evidence.attachments[index].isAssociatedWithFailure = true
                }
            }
            // Attachments of a failure (the UI hierarchy Xcode records when an assertion fails).
            for (failure, issueRow) in issueRowOfFailure.enumerated() {
                for attached in attachmentsOfIssue[issueRow] ?? []
                where evidence.attachments.count < TestEvidence.maximumAttachments {
                    var made = attachment(attached, at: evidence.failures[failure].activity)
                    made.isAssociatedWithFailure = true
                    evidence.attachments.append(made)
                }
            }
            var notes: [String] = []
            if stepsLeftOut > 0 {
                notes.append("\(stepsLeftOut) steps past the first \(TestEvidence.maximumActivities)")
            }
            if budget.isExhausted { notes.append(budget.leftOutNote(of: "text")) }
            if !notes.isEmpty { evidence.leftOut = notes.joined(separator: "; ") }
            result.append(evidence)
        }
        return result
    }

    /// The UUIDs in a list of them as the database keeps it (`failureIDs`), whatever separates
    /// them, upper-cased.
    static func identifiers(in text: String) -> [String] {
        text.uppercased().split { !($0.isHexDigit || $0 == "-") }.map(String.init).filter { $0.count >= 32 }
    }
}
