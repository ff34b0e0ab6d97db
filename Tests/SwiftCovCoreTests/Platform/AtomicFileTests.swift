import Foundation
import Testing

@testable import SwiftCovCore

@Suite(
    "AtomicFile: atomic replacement of regular files, straight through to everything else", .removingTemporaryFolders)
struct AtomicFileTests {
    private func folder() throws -> String {
        try temporaryDirectory()
    }

    private func entries(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    private func type(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & S_IFMT
    }

    private func permissions(_ path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o7777
    }

    @Test("a new file is created with the umask's permissions, as `>` creates it, and nothing else")
    func newFile() throws {
        let directory = try folder()
        try AtomicFile.write("one\n", to: directory + "/new.txt")
        #expect(try String(contentsOfFile: directory + "/new.txt", encoding: .utf8) == "one\n")
        let mask = umask(0o022)
        umask(mask)
        #expect(permissions(directory + "/new.txt") == 0o666 & ~mask)
        #expect(try entries(directory) == ["new.txt"])
    }

    @Test("an existing file is replaced whole and keeps its permissions")
    func replacesFile() throws {
        let directory = try folder()
        let path = directory + "/report.txt"
        try String(repeating: "old ", count: 1000).write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o640)
        try AtomicFile.write("new\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        #expect(permissions(path) == 0o640)
        #expect(try entries(directory) == ["report.txt"])
    }

    @Test("a symbolic link (a chain of them, relative or absolute) is followed: the file it names is replaced")
    func followsLinks() throws {
        let directory = try folder()
        try FileManager.default.createDirectory(atPath: directory + "/out", withIntermediateDirectories: false)
        try "old".write(toFile: directory + "/out/real.txt", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/first", withDestinationPath: "second")
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/second", withDestinationPath: directory + "/out/real.txt")
        try AtomicFile.write("new", to: directory + "/first")
        #expect(type(directory + "/first") == S_IFLNK)
        #expect(type(directory + "/second") == S_IFLNK)
        #expect(try String(contentsOfFile: directory + "/out/real.txt", encoding: .utf8) == "new")
        #expect(try entries(directory + "/out") == ["real.txt"])
    }

    @Test("a dangling symbolic link gets the file it names created")
    func danglingLink() throws {
        let directory = try folder()
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "target.txt")
        try AtomicFile.write("made", to: directory + "/link")
        #expect(type(directory + "/link") == S_IFLNK)
        #expect(try String(contentsOfFile: directory + "/target.txt", encoding: .utf8) == "made")
    }

    @Test("a symbolic link loop, a folder and a missing folder are errors naming the path given")
    func rejectedPaths() throws {
        let directory = try folder()
        try FileManager.default.createSymbolicLink(atPath: directory + "/a", withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: directory + "/b", withDestinationPath: "a")
        #expect(throws: SystemCallError(.write, path: directory + "/a", errno: ELOOP)) {
            try AtomicFile.write("x", to: directory + "/a")
        }
        #expect(throws: SystemCallError(.write, path: directory, errno: EISDIR)) {
            try AtomicFile.write("x", to: directory)
        }
        #expect(throws: SystemCallError(.write, path: directory + "/no/file", errno: ENOENT)) {
            try AtomicFile.write("x", to: directory + "/no/file")
        }
        #expect(try entries(directory) == ["a", "b"])
    }

    @Test("a FIFO is written straight through and stays a FIFO")
    func fifo() throws {
        let directory = try folder()
        let path = directory + "/fifo"
        try #require(mkfifo(path, 0o600) == 0)
        nonisolated(unsafe) var received = Data()
        let reader = Thread { received = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data() }
        reader.start()
        try AtomicFile.write("through the pipe", to: path)
        while !reader.isFinished { usleep(1000) }
        #expect(String(decoding: received, as: UTF8.self) == "through the pipe")
        #expect(type(path) == S_IFIFO)
        #expect(try entries(directory) == ["fifo"])
    }

    @Test("/dev/null is written straight through and stays a device")
    func devNull() throws {
        try AtomicFile.write("discarded", to: "/dev/null")
        #expect(type("/dev/null") == S_IFCHR)
    }

    @Test("/dev/full: the write fails with ENOSPC", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func devFull() throws {
        #expect(throws: SystemCallError(.write, path: "/dev/full", errno: ENOSPC)) {
            try AtomicFile.write("lost", to: "/dev/full")
        }
        let destination = try AtomicFile.Destination("/dev/full")
        var buffer = destination.streamingBuffer()
        buffer.append("lost")
        do {
            try destination.finish(buffer)
            Issue.record("no error writing to /dev/full")
        } catch {
            #expect(error == SystemCallError(.write, path: "/dev/full", errno: ENOSPC))
        }
        #expect(type("/dev/full") == S_IFCHR)
    }

    @Test("a destination given up without finishing removes its temporary file and leaves the target alone")
    func givenUp() throws {
        let directory = try folder()
        try "keep".write(toFile: directory + "/out.txt", atomically: false, encoding: .utf8)
        do {
            let destination = try AtomicFile.Destination(directory + "/out.txt")
            var buffer = destination.streamingBuffer()
            buffer.append("half")
            buffer.flush()
            #expect(try entries(directory).count == 2)
        }
        #expect(try entries(directory) == ["out.txt"])
        #expect(try String(contentsOfFile: directory + "/out.txt", encoding: .utf8) == "keep")
    }

    @Test("a streaming buffer writes in chunks what an in-memory one holds, byte for byte")
    func streaming() throws {
        let directory = try folder()
        var expected = OutputBuffer()
        let destination = try AtomicFile.Destination(directory + "/big.txt")
        var streamed = OutputBuffer(flushingTo: destination.descriptor, chunkSize: 300)
        for index in 0..<5000 {
            for buffer in [0, 1] {
                func append(_ output: inout OutputBuffer) {
                    output.append(decimal: UInt64(index))
                    output.append(unescaped: String(repeating: "é", count: index % 700))
                    output.append(escapingHTML: "<\(index)>")
                    output.append(byte: 0x0A)
                }
                if buffer == 0 { append(&expected) } else { append(&streamed) }
            }
        }
        try destination.finish(streamed)
        let written = try String(contentsOfFile: directory + "/big.txt", encoding: .utf8)
        #expect(written.utf8.count == expected.text.utf8.count)
        #expect(written == expected.text)
        #expect(try entries(directory) == ["big.txt"])
    }

    @Test("a destination that is a descriptor already open (/dev/fd/N) is written where it stands")
    func inheritedDescriptor() throws {
        let directory = try folder()
        let descriptor = open(directory + "/log", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(write(descriptor, "first\n", 6) == 6)
        try AtomicFile.write("second\n", to: "/dev/fd/\(descriptor)")
        #expect(try String(contentsOfFile: directory + "/log", encoding: .utf8) == "first\nsecond\n")
        #expect(fcntl(descriptor, F_GETFD) >= 0)
        #expect(throws: SystemCallError(.write, path: "/dev/fd/987", errno: EBADF)) {
            try AtomicFile.write("x", to: "/dev/fd/987")
        }
    }
}
