import Foundation
import SwiftCovTestSupport
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// Inputs from pipes and devices are copied into memory, up to a bound; regular files are mapped.
@Suite("mapped files and streamed inputs", .removingTemporaryFolders)
struct MappedFileTests {
    /// What `readAll` gives for `count` bytes written into a pipe, with `limit`.
    func readPipe(count: Int, limit: Int) throws -> Result<[UInt8], MappedFile.ReadError> {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let writeEnd = ends[1]
        // Written from another thread: a pipe holds 64 KiB.
        let writer = Thread {
            bytes.withUnsafeBytes { raw in
                var written = 0
                while written < raw.count {
                    let result = write(writeEnd, raw.baseAddress! + written, raw.count - written)
                    if result <= 0 { break }
                    written += result
                }
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(ends[0]) }
        do {
            let (memory, used) = try MappedFile.readAll(descriptor: ends[0], limit: limit)
            defer { memory?.deallocate() }
            let read = Array(UnsafeRawBufferPointer(start: memory, count: used))
            #expect(read == bytes)
            return .success(read)
        } catch {
            // Let the writer finish: nothing reads the rest.
            var sink = [UInt8](repeating: 0, count: 1 << 16)
            while read(ends[0], &sink, sink.count) > 0 {}
            return .failure(error)
        }
    }

    @Test("pages dropped from memory read the same again; a range past the end or inside one page is nothing")
    func dropPages() throws {
        let path = try temporaryDirectory() + "/bytes"
        let bytes = (0..<(3 << 20) + 123).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try MappedFile(path: path, reading: .inOrder)
        #expect(file.withUnsafeBytes { Array($0) } == bytes)
        file.drop(0..<file.count)
        file.drop(5..<17)
        file.drop(-4096..<(file.count + 4096))
        file.drop(file.count..<file.count)
        #expect(file.withUnsafeBytes { Array($0) } == bytes)
        file.drop(1000..<(2 << 20) + 1)
        #expect(
            file.withUnsafeBytes { Array($0[(1 << 20)..<(2 << 20) + 7]) } == Array(bytes[(1 << 20)..<(2 << 20) + 7]))
        // A copy (standard input's, a test's bytes) has nothing to drop.
        let copy = MappedFile(bytes: [1, 2, 3])
        copy.drop(0..<3)
        #expect(copy.withUnsafeBytes { Array($0) } == [1, 2, 3])
    }

    @Test("a stream of exactly the limit is read; one byte more is an error naming the limit")
    func streamLimit() throws {
        #expect(try readPipe(count: 300_000, limit: 300_000).get().count == 300_000)
        #expect(try readPipe(count: 0, limit: 300_000).get().isEmpty)
        #expect(try readPipe(count: 1 << 21, limit: 3 << 20).get().count == 1 << 21)
        guard case .failure(let error) = try readPipe(count: 3 << 20, limit: 2 << 20) else {
            Issue.record("3 MiB read with a limit of 2 MiB")
            return
        }
        #expect(
            error.message
                == "more than 2 MiB from a pipe or device; give it as a file, which is mapped rather than copied")
        #expect(MappedFile.streamLimit == 1 << 30)
    }
}
