#!/usr/bin/env python3
"""Writes deep-activities.xcresult: an INVENTED bundle in the shape of Xcode 16+'s database.sqlite3
(the tables and columns of fastlane's Xcode 26 fixture, a few of them), for hostile cases: one UI
test run whose steps nest 10,000 deep, two steps in a cycle of parent_fk that no run reaches, and
an attachment with a hostile name. Run it from this folder: python3 make-deep-activities.py"""
import os, sqlite3

bundle = "deep-activities.xcresult"
os.makedirs(bundle, exist_ok=True)
with open(bundle + "/Info.plist", "w") as f:
    f.write("""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>version</key>
\t<dict>
\t\t<key>major</key>
\t\t<integer>3</integer>
\t\t<key>minor</key>
\t\t<integer>53</integer>
\t</dict>
</dict>
</plist>
""")
path = bundle + "/database.sqlite3"
if os.path.exists(path):
    os.remove(path)
db = sqlite3.connect(path)
db.executescript("""
PRAGMA page_size = 4096;
CREATE TABLE Testables (name TEXT, testKind TEXT, orderInTestPlan INTEGER, identifierURL TEXT);
CREATE TABLE TestSuites (name TEXT, testable_fk INTEGER, parentSuite_fk INTEGER, orderInParent INTEGER);
CREATE TABLE TestCases (name TEXT, identifier TEXT, testSuite_fk INTEGER NOT NULL, orderInTestSuite INTEGER);
CREATE TABLE TestCaseRuns (result TEXT, duration REAL, testCase_fk INTEGER NOT NULL, testSuiteRun_fk INTEGER);
CREATE TABLE TestIssues (compactDescription TEXT, testCaseRun_fk INTEGER, uuid TEXT, orderInOwner INTEGER, timestamp REAL);
CREATE TABLE Activities (title TEXT, startTime REAL, finishTime REAL, parent_fk INTEGER, testCaseRun_fk INTEGER, orderInParent INTEGER, failureIDs TEXT, uuid TEXT);
CREATE TABLE Attachments (name TEXT, uniformTypeIdentifier TEXT, timestamp REAL, xcResultKitPayloadRefId TEXT, uuid TEXT, activity_fk INTEGER, testIssue_fk INTEGER, filenameOverride TEXT);
INSERT INTO Testables VALUES ('AppUITests', 'UI', 0, NULL);
INSERT INTO TestSuites VALUES ('DeepTests', 1, NULL, 0);
INSERT INTO TestCases VALUES ('testDeep()', 'DeepTests/testDeep()', 1, 0);
INSERT INTO TestCaseRuns VALUES ('Failure', 1.5, 1, NULL);
INSERT INTO TestIssues VALUES ('failed at the bottom', 1, 'AAAAAAAA-0000-0000-0000-000000000001', 0, 700000000.5);
""")
depth = 10_000
rows = []
for level in range(depth):
    parent = None if level == 0 else level  # rowid of the step above
    run = 1 if level == 0 else None
    failure = "AAAAAAAA-0000-0000-0000-000000000001" if level == depth - 1 else ""
    rows.append((str(level), 700000000.0 + level / 1000, 700000000.0 + level / 1000, parent, run, 0, failure, None))
db.executemany("INSERT INTO Activities VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
# Two steps that are each other's parent: reached from no run.
db.execute("INSERT INTO Activities VALUES ('cycle a', NULL, NULL, 10002, NULL, 0, '', NULL)")
db.execute("INSERT INTO Activities VALUES ('cycle b', NULL, NULL, 10001, NULL, 0, '', NULL)")
db.execute(
    "INSERT INTO Attachments VALUES (?, 'public.png', 700000001.0, '0~missing', ?, ?, NULL, ?)",
    ("../../etc/passwd\x00" + "n" * 10_000, "../../escape", depth, "/abs/../../x.png"),
)
db.commit()
db.execute("VACUUM")
db.close()
