import SwiftCovFormats
import SwiftCovModel

/// What `xcrun xcresulttool get test-results activities --test-id ID --path BUNDLE --format json`
/// prints (the shape of Xcode 16.3 and later), from the evidence of the test's runs:
/// `{testIdentifier, testIdentifierURL, testName, testRuns: [{device: {deviceId, deviceName},
/// testPlanConfiguration: {configurationName}, activities: [{title, startTime,
/// isAssociatedWithFailure, attachments: [{name, payloadId, uuid, timestamp, lifetime}],
/// childActivities: […]}]}]}`. A key the bundle cannot supply is left out, never invented (the
/// device's model and OS, the configuration's id, the arguments).
///
/// Written without recursion (the steps are flat, depth first), each top-level step with its
/// children on one line, so that a tree 10,000 deep is not a pyramid of indentation.
package enum XcodeActivitiesJSON {
    /// The document for the runs of the test `testID` (its identifier or its URL) in `evidence`;
    /// nil when no run is of that test.
    package static func render(_ evidence: [TestEvidence], testID: String) -> String? {
        let runs = evidence.filter { $0.testIdentifier == testID || $0.testIdentifierURL == testID }
        guard let first = runs.first else { return nil }
        var json = JSONWriter()
        json.beginObject(.block)
        json.member("testIdentifier", first.testIdentifier)
        if let url = first.testIdentifierURL { json.member("testIdentifierURL", url) }
        json.member("testName", first.testName)
        json.key("testRuns")
        json.beginArray(.block)
        for run in runs {
            json.beginObject(.block)
            if run.deviceIdentifier != nil || run.deviceName != nil {
                json.key("device")
                json.beginObject()
                if let identifier = run.deviceIdentifier { json.member("deviceId", identifier) }
                if let name = run.deviceName { json.member("deviceName", name) }
                json.endObject()
            }
            if let configuration = run.configuration {
                json.key("testPlanConfiguration")
                json.beginObject()
                json.member("configurationName", configuration)
                json.endObject()
            }
            json.key("activities")
            json.beginArray(.block)
            // The steps whose `childActivities` are open.
            var open = 0
            for (position, step) in run.activities.enumerated() {
                while open > step.depth {
                    json.endArray()
                    json.endObject()
                    open -= 1
                }
                json.beginObject()
                json.member("title", step.title)
                if let start = step.start { json.member("startTime", start) }
                json.member("isAssociatedWithFailure", run.isFailing(position))
                let attachments = run.attachments(at: position)
                if !attachments.isEmpty {
                    json.key("attachments")
                    json.beginArray()
                    for attachment in attachments {
                        json.beginObject()
                        json.member("name", attachment.name)
                        if let id = attachment.payload?.id { json.member("payloadId", id) }
                        if let uuid = attachment.uuid { json.member("uuid", uuid) }
                        if let timestamp = attachment.timestamp { json.member("timestamp", timestamp) }
                        if let lifetime = attachment.lifetime { json.member("lifetime", lifetime) }
                        json.endObject()
                    }
                    json.endArray()
                }
                if position + 1 < run.activities.count, run.activities[position + 1].depth > step.depth {
                    json.key("childActivities")
                    json.beginArray()
                    open += 1
                } else {
                    json.endObject()
                }
            }
            while open > 0 {
                json.endArray()
                json.endObject()
                open -= 1
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.finish().text
    }
}
