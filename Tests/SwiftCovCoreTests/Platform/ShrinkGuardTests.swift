import Foundation
import SwiftCovTestSupport
import Testing

@testable import SwiftCovCore

/// A mapped file that another process truncates reads as zeros past its new end and says so,
/// instead of the read killing the process with SIGBUS.
@Suite("files that shrink while they are mapped", .removingTemporaryFolders)
struct ShrinkGuardTests {
    static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// A file of `count` bytes, none of them zero.
    func file(count: Int) throws -> (path: String, bytes: [UInt8]) {
        let bytes = (0..<count).map { UInt8(1 + $0 % 251) }
        let path = try temporaryDirectory() + "/input"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    /// Every byte of `file`, each page touched.
    func allBytes(of file: MappedFile) -> [UInt8] {
        file.withUnsafeBytes { Array($0) }
    }

    @Test(
        "bytes past the new end read as zeros, and the file says it shrank",
        arguments: [MappedFile.Reading.whole, .inPlaces, .inOrder, .inWindows])
    func truncatedWhileMapped(reading: MappedFile.Reading) throws {
        let (path, bytes) = try file(count: 5 * Self.page + 100)
        let mapped = try MappedFile(path: path, reading: reading)
        #expect(!mapped.shrankWhileRead)
        let kept = Self.page + 10
        #expect(truncate(path, off_t(kept)) == 0)
        let read = allBytes(of: mapped)
        #expect(read.count == bytes.count)
        #expect(Array(read[..<kept]) == Array(bytes[..<kept]))
        #expect(read[kept...].allSatisfy { $0 == 0 })
        #expect(mapped.shrankWhileRead)
    }

    @Test("a cut within the last page of a file read in order, which reads as zeros without a fault, is seen too")
    func truncatedWithinLastPage() throws {
        let (path, bytes) = try file(count: 2 * Self.page + 100)
        let mapped = try MappedFile(path: path, reading: .inOrder)
        #expect(truncate(path, off_t(2 * Self.page + 50)) == 0)
        #expect(Array(allBytes(of: mapped)[..<(2 * Self.page + 50)]) == Array(bytes[..<(2 * Self.page + 50)]))
        #expect(mapped.shrankWhileRead)
    }

    @Test("a file read whole without shrinking is not marked, and windows give it in order")
    func unchangedFile() throws {
        let (path, bytes) = try file(count: 3 * Self.page + 7)
        let mapped = try MappedFile(path: path, reading: .inOrder)
        var windows: [[UInt8]] = []
        mapped.forEachWindow(of: Self.page) { windows.append(Array($0)) }
        #expect(windows.map(\.count) == [Self.page, Self.page, Self.page, 7])
        #expect(windows.flatMap { $0 } == bytes)
        // Dropped windows read again from the file.
        #expect(allBytes(of: mapped) == bytes)
        #expect(!mapped.shrankWhileRead)
    }

    @Test("a file read in windows (read ahead, then dropped) gives its bytes, and a cut past a window too")
    func windows() throws {
        let (path, bytes) = try file(count: 5 * Self.page + 100)
        let mapped = try MappedFile(path: path, reading: .inWindows)
        mapped.readAhead(0..<2 * Self.page)
        let first = mapped.withUnsafeBytes { Array($0[..<(2 * Self.page)]) }
        #expect(first == Array(bytes[..<(2 * Self.page)]))
        mapped.drop(0..<2 * Self.page)
        // Dropped pages read again from the file.
        #expect(allBytes(of: mapped) == bytes)
        #expect(!mapped.shrankWhileRead)
        let kept = 3 * Self.page + 10
        #expect(truncate(path, off_t(kept)) == 0)
        mapped.drop(0..<mapped.count)
        // Reading ahead past the new end neither faults nor hides the cut.
        mapped.readAhead(2 * Self.page..<mapped.count + Self.page)
        let read = allBytes(of: mapped)
        #expect(Array(read[..<kept]) == Array(bytes[..<kept]))
        #expect(read[kept...].allSatisfy { $0 == 0 })
        #expect(mapped.shrankWhileRead)
    }

    @Test("a cut marks only its own file, with more files mapped at once than the first table holds")
    func manyFiles() throws {
        let folder = try temporaryDirectory()
        var files: [(path: String, mapped: MappedFile)] = []
        for index in 0..<150 {
            let path = folder + "/\(index)"
            try Data(repeating: 7, count: 2 * Self.page).write(to: URL(fileURLWithPath: path))
            files.append((path, try MappedFile(path: path)))
        }
        for (index, file) in files.enumerated() where index % 2 == 1 { #expect(truncate(file.path, 0) == 0) }
        for (index, file) in files.enumerated() {
            let cut = index % 2 == 1
            #expect(allBytes(of: file.mapped) == [UInt8](repeating: cut ? 0 : 7, count: 2 * Self.page))
            #expect(file.mapped.shrankWhileRead == cut)
        }
        // Released places are taken again.
        files = []
        for _ in 0..<100 {
            let (path, _) = try file(count: 2 * Self.page)
            let mapped = try MappedFile(path: path)
            #expect(truncate(path, 0) == 0)
            #expect(allBytes(of: mapped).allSatisfy { $0 == 0 })
            #expect(mapped.shrankWhileRead)
        }
    }

    @Test("a log cut while it is read is an error naming it, not the tests before the cut")
    func truncatedLog() throws {
        let log = try LogFixture("real-oddities.log").bytes
        let path = try temporaryDirectory() + "/test.log"
        try Data(log).write(to: URL(fileURLWithPath: path))

        let whole = try MappedFile(path: path, reading: .inOrder)
        let read = try TestResultsReader.read(whole, path: path, utcOffset: 0)
        let expected = try log.withUnsafeBytes { try TestResultsReader.read(bytes: $0, path: path, utcOffset: 0) }
        guard case .log(let run) = read, case .log(let expectedRun) = expected else {
            Issue.record("not read as a log")
            return
        }
        #expect(run == expectedRun)
        #expect(!run.suites.isEmpty)

        let cut = try MappedFile(path: path, reading: .inOrder)
        #expect(truncate(path, off_t(log.count / 3)) == 0)
        #expect(throws: TestResultsError.unreadable(path: path, reason: MappedFile.shrankMessage)) {
            try TestResultsReader.read(cut, path: path, utcOffset: 0)
        }
    }
}
