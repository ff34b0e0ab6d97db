import SwiftCovFormats
import SwiftCovInputs
import SwiftCovModel

/// What `xcrun xcresulttool get test-results tests|summary|test-details --format json` prints (the
/// shapes of Xcode 16.3 and later), from a bundle's test results (`XcodeTestsDocument.Results`,
/// read from its database or its object graph). Keys sorted as the tool prints them; a key the
/// bundle cannot supply is left out, never invented (`summary`'s deprecated integer
/// `testIdentifier`, its `statistics` and `topInsights` beyond empty lists; `test-details`'
/// localized `duration` sentence, `startTime`, `arguments`).
///
/// - `summary` counts each test once per test plan configuration and device it ran on, with the
///   outcome of its last attempt (a retry that passed is passed); argument cases are one test.
///   `devicesAndConfigurations` gives the same counts per pair; `testFailures` one entry per
///   failing test and pair, with its first failure's text.
/// - `test-details` gives the test's runs under one `Device` node per device (its model, its
///   identifier, `details` its platform and OS version), its argument cases and repetitions below
///   (the failure messages are the `tests` document's).
package enum XcodeTestResultsJSON {
    /// The `tests` document.
    package static func tests(_ results: XcodeTestsDocument.Results) -> String {
        text(results.testsDocument)
    }

    /// The counts of one test plan configuration on one device.
    struct Counts {
        var passed = 0
        var failed = 0
        var skipped = 0
        var expected = 0

        mutating func add(_ result: String) {
            switch result {
            case "Passed": passed += 1
            case "Skipped": skipped += 1
            case "Expected Failure": expected += 1
            default: failed += 1
            }
        }

        func members(into list: inout [(key: String, value: JSONValue)], expectedKey: String) {
            list.append((expectedKey, .number(Double(expected))))
            list.append(("failedTests", .number(Double(failed))))
            list.append(("passedTests", .number(Double(passed))))
            list.append(("skippedTests", .number(Double(skipped))))
        }
    }

    /// The `summary` document.
    package static func summary(_ results: XcodeTestsDocument.Results) -> String {
        var pairs: [[String?]] = []
        var countsOfPair: [[String?]: Counts] = [:]
        var total = Counts()
        var failures: [JSONValue] = []
        for (bundle, testCase) in results.cases {
            for (pair, runs) in runsByPlace(testCase.runs) {
                let result = XcodeTestsDocument.aggregate(
                    XcodeTestsDocument.children(runs, by: [.arguments]).results)
                if countsOfPair[pair] == nil { pairs.append(pair) }
                countsOfPair[pair, default: Counts()].add(result)
                total.add(result)
                guard !["Passed", "Skipped", "Expected Failure"].contains(result) else { continue }
                var failure: [(key: String, value: JSONValue)] = []
                let text = runs.reversed().lazy.compactMap(\.failures.first).first ?? runs.last?.messages.first
                if let text { failure.append(("failureText", .string(text))) }
                failure.append(("targetName", .string(bundle)))
                if let identifier = testCase.identifier {
                    failure.append(("testIdentifierString", .string(identifier)))
                }
                if let url = testCase.url { failure.append(("testIdentifierURL", .string(url))) }
                failure.append(("testName", .string(testCase.name)))
                failures.append(.object(failure))
            }
        }
        var devicesAndConfigurations: [JSONValue] = []
        for pair in pairs {
            var members: [(key: String, value: JSONValue)] = []
            if let device = results.devices.first(where: { $0.id == pair[1] }) {
                members.append(("device", device.json))
            }
            countsOfPair[pair, default: Counts()].members(into: &members, expectedKey: "expectedFailures")
            if let name = pair[0], let position = results.configurations.firstIndex(of: name) {
                members.append(("testPlanConfiguration", configuration(name, position)))
            }
            devicesAndConfigurations.append(.object(members))
        }
        var members: [(key: String, value: JSONValue)] = [
            ("devicesAndConfigurations", .array(devicesAndConfigurations))
        ]
        if let environment = results.environmentDescription {
            members.append(("environmentDescription", .string(environment)))
        }
        members.append(("expectedFailures", .number(Double(total.expected))))
        members.append(("failedTests", .number(Double(total.failed))))
        if let finish = results.finishTime { members.append(("finishTime", .number(finish))) }
        members.append(("passedTests", .number(Double(total.passed))))
        members.append(("result", .string(total.failed > 0 ? "Failed" : total.passed > 0 ? "Passed" : "Skipped")))
        members.append(("skippedTests", .number(Double(total.skipped))))
        if let start = results.startTime { members.append(("startTime", .number(start))) }
        members.append(("statistics", .array([])))
        members.append(("testFailures", .array(failures)))
        if let title = results.title { members.append(("title", .string(title))) }
        members.append(("topInsights", .array([])))
        members.append(
            ("totalTestCount", .number(Double(total.passed + total.failed + total.skipped + total.expected))))
        return text(.object(members))
    }

    /// The `test-details` document of the test `testID` (its identifier or its URL); nil when the
    /// bundle has no such test. `evidence` says whether its runs attached images or recordings.
    package static func testDetails(
        _ results: XcodeTestsDocument.Results, testID: String, evidence: [TestEvidence]
    ) -> String? {
        guard
            let testCase = results.cases.lazy.map(\.testCase).first(where: {
                $0.identifier == testID || $0.url == testID
            })
        else { return nil }
        let splitting = results.splitting
        let (node, result) = XcodeTestsDocument.caseNode(testCase, splitting: splitting)
        var devices: [XcodeTestsDocument.Device] = []
        var configurations: [String] = []
        for run in testCase.runs {
            if let device = run.device, !devices.contains(device) { devices.append(device) }
            if let name = run.configuration, !configurations.contains(name) { configurations.append(name) }
        }
        // One Device node per device, the runs there below it.
        var testRuns: [JSONValue] = []
        if devices.isEmpty {
            if case .array(let children)? = node["children"] { testRuns = children }
        } else {
            for device in devices {
                let runs = testCase.runs.filter { $0.device == device }
                let inner = XcodeTestsDocument.children(
                    runs, by: splitting.byConfiguration ? [.configuration, .arguments] : [.arguments])
                let details = [device.platform, device.osVersion].compactMap { $0 }
                testRuns.append(
                    XcodeTestsDocument.node(
                        name: device.modelName ?? device.name ?? device.id, type: "Device", identifier: device.id,
                        result: XcodeTestsDocument.aggregate(inner.results), duration: inner.duration,
                        details: details.isEmpty ? nil : details.joined(separator: " "),
                        children: inner.nodes.filter { $0["nodeType"] != .string("Failure Message") }))
            }
        }
        let media = evidence.contains { run in
            (run.testIdentifier == testCase.identifier || run.testIdentifierURL == testID)
                && run.attachments.contains { isMedia($0.uniformTypeIdentifier) }
        }
        var members: [(key: String, value: JSONValue)] = [("devices", .array(devices.map(\.json)))]
        if let duration = node["durationInSeconds"] { members.append(("durationInSeconds", duration)) }
        members.append(("hasMediaAttachments", .bool(media)))
        members.append(("hasPerformanceMetrics", .bool(testCase.runs.contains(where: \.hasPerformanceMetrics))))
        let count = testCase.runs.count
        members.append(("testDescription", .string("Test case with \(count) run\(count == 1 ? "" : "s")")))
        if let identifier = testCase.identifier { members.append(("testIdentifier", .string(identifier))) }
        if let url = testCase.url { members.append(("testIdentifierURL", .string(url))) }
        members.append(("testName", .string(testCase.name)))
        members.append(
            (
                "testPlanConfigurations",
                .array(
                    configurations.map { name in
                        configuration(name, results.configurations.firstIndex(of: name) ?? 0)
                    })
            ))
        members.append(("testResult", .string(result)))
        members.append(("testRuns", .array(testRuns)))
        if !testCase.tags.isEmpty { members.append(("tags", .array(testCase.tags.sorted().map { .string($0) }))) }
        return text(.object(members))
    }

    /// A case's runs by the configuration and device they ran on, in the order met.
    static func runsByPlace(_ runs: [XcodeTestsDocument.Run]) -> [([String?], [XcodeTestsDocument.Run])] {
        var order: [[String?]] = []
        var groups: [[String?]: [XcodeTestsDocument.Run]] = [:]
        for run in runs {
            let key = [run.configuration, run.device?.id]
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(run)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    static func configuration(_ name: String, _ position: Int) -> JSONValue {
        .object([("configurationId", .string(String(position + 1))), ("configurationName", .string(name))])
    }

    /// Whether an attachment of this type is an image or a recording.
    static func isMedia(_ type: String?) -> Bool {
        guard let type = type?.lowercased() else { return false }
        return ["png", "jpeg", "heic", "gif", "tiff", "image", "movie", "mpeg-4", "quicktime", "video"].contains {
            type.contains($0)
        }
    }

    static func text(_ document: JSONValue) -> String {
        var json = JSONWriter()
        json.value(document)
        return json.finish().text
    }
}
