import Foundation
import Testing

/// Where `-o` and standard output lead: regular files are replaced atomically, everything else
/// is written straight through; write errors and signals never pass for success or leave debris.
@Suite("swiftcov output destinations, write errors and signals, end to end", .removingTemporaryFolders)
struct OutputDestinationTests {
    static let sample = "SampleReports/coverage.json"

    /// The report as standard output carries it: what every destination must receive.
    static func expectedReport() throws -> String {
        let result = try swiftcov(["report", sample])
        try #require(result.status == 0)
        return result.stdout
    }

    @Test("-o a symbolic link replaces the file it names; the link stays a link")
    func symbolicLink() throws {
        let directory = try temporaryDirectory()
        try "old".write(toFile: directory + "/real.txt", atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory + "/real.txt")
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.txt", withDestinationPath: "real.txt")

        let result = try swiftcov(["report", Self.sample, "-o", directory + "/link.txt"])
        #expect(result.status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link.txt") == "real.txt")
        #expect(try String(contentsOfFile: directory + "/real.txt", encoding: .utf8) == Self.expectedReport())
        let permissions = try FileManager.default.attributesOfItem(atPath: directory + "/real.txt")[.posixPermissions]
        #expect(permissions as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["link.txt", "real.txt"])
    }

    @Test("-o a FIFO writes into it (a reader gets the report) and leaves it a FIFO")
    func fifo() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/pipe"
        try #require(mkfifo(path, 0o600) == 0)
        nonisolated(unsafe) var received = Data()
        let reader = Thread { received = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data() }
        reader.start()
        let result = try swiftcov(["report", Self.sample, "-o", path])
        while !reader.isFinished { usleep(1000) }
        #expect(result.status == 0)
        #expect(String(decoding: received, as: UTF8.self) == (try Self.expectedReport()))
        #expect(fileType(path) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["pipe"])
    }

    @Test("-o /dev/null succeeds and leaves /dev/null a device")
    func devNull() throws {
        let result = try swiftcov(["export", Self.sample, "--format", "cobertura", "-o", "/dev/null"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(fileType("/dev/null") == S_IFCHR)
    }

    @Test(
        "-o /dev/full: exit 2 and one line naming it; /dev/full stays a device",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func devFull() throws {
        for arguments in [
            ["report", Self.sample, "-f", "json", "--show", "functions", "--show", "lines", "-o", "/dev/full"],
            ["export", Self.sample, "--format", "lcov", "-o", "/dev/full"],
        ] {
            let result = try swiftcov(arguments)
            #expect(result.status == 2)
            #expect(result.stderr == "/dev/full: error: cannot write: No space left on device\n")
        }
        #expect(fileType("/dev/full") == S_IFCHR)
    }

    @Test(
        "Standard output that cannot be written (/dev/full): exit 2 and one line, for every command that prints",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func stdoutFull() throws {
        // Outside the repository, whose .swiftcov.json would add warnings to `check`.
        let elsewhere = try temporaryDirectory()
        let sample = packageRoot + "/" + Self.sample
        for arguments in [
            ["report", sample],
            ["report", sample, "-f", "json", "--show", "functions"],
            ["export", sample, "--format", "cobertura"],
            ["check", sample, "--min-lines", "1"],
            ["junit", packageRoot + "/SampleReports/swift-test-failing.log", "--no-fail"],
            ["--help"],
        ] {
            let result = try run(swiftcovExecutable().path, arguments, stdout: .path("/dev/full"), in: elsewhere)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == "standard output: error: cannot write: No space left on device\n", "\(arguments)")
        }
    }

    @Test("A closed pipe on stdout with SIGPIPE ignored (EPIPE): exit 2 and one line")
    func brokenPipe() throws {
        let script = "trap '' PIPE; exec \"$0\" \"$@\""
        let result = try run(
            "/bin/sh", ["-c", script, swiftcovExecutable().path, "report", Self.sample, "-f", "json"],
            stdout: .closedPipe)
        #expect(result.status == 2)
        #expect(result.stderr == "standard output: error: cannot write: Broken pipe\n")
    }

    @Test("-o /dev/stdout writes to standard output where it stands (a >> log keeps what it had)")
    func devStdout() throws {
        let log = try temporaryDirectory() + "/log.txt"
        try "before\n".write(toFile: log, atomically: false, encoding: .utf8)
        let result = try run(
            swiftcovExecutable().path, ["report", Self.sample, "-o", "/dev/stdout"], stdout: .appending(log))
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "before\n" + Self.expectedReport())
        #expect(fileType(log) == S_IFREG)
    }

    @Test("SIGTERM while -o is open removes the temporary file, and the process ends by the signal")
    func sigtermDuringWrite() throws {
        let directory = try temporaryDirectory()
        try "previous".write(toFile: directory + "/report.json", atomically: false, encoding: .utf8)
        // The output is opened before the input is read, so a run reading a stdin that never
        // ends holds its temporary file open until the signal.
        let process = try Interruptible(["report", "-", "-f", "json", "-o", directory + "/report.json"])
        let temporary = try #require(process.waitForEntry(in: directory, prefix: ".report.json."))
        #expect(FileManager.default.fileExists(atPath: directory + "/" + temporary))
        let ending = process.terminate()
        #expect(ending.reason == .uncaughtSignal)
        #expect(ending.status == SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.json"])
        #expect(try String(contentsOfFile: directory + "/report.json", encoding: .utf8) == "previous")
    }

    @Test("SIGTERM during html removes the half-built site, and the earlier site stays")
    func sigtermDuringHTML() throws {
        let directory = try temporaryDirectory()
        let site = directory + "/site"
        #expect(try swiftcov(["html", Self.sample, "-o", site]).status == 0)
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        let process = try Interruptible(["html", "-", "-o", site])
        try #require(process.waitForEntry(in: directory, prefix: ".site.") != nil)
        let ending = process.terminate()
        #expect(ending.reason == .uncaughtSignal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["site"])
        #expect(try String(contentsOfFile: site + "/index.html", encoding: .utf8) == index)
    }

    @Test("html into an earlier site replaces it whole: no orphaned page stays, nothing is left beside it")
    func htmlReplacesSite() throws {
        let directory = try temporaryDirectory()
        let site = directory + "/site"
        #expect(try swiftcov(["html", Self.sample, "-o", site]).status == 0)
        try "orphan".write(toFile: site + "/files/Gone.swift.html", atomically: false, encoding: .utf8)
        #expect(try swiftcov(["html", Self.sample, "-o", site]).status == 0)
        let pages = try FileManager.default.contentsOfDirectory(atPath: site + "/files")
        #expect(pages.count == 14)
        #expect(!pages.contains("Gone.swift.html"))
        #expect(FileManager.default.fileExists(atPath: site + "/.swiftcov-site"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["site"])
    }

    @Test("A bad input leaves the earlier output as it was and nothing beside it")
    func badInputKeepsOutput() throws {
        let directory = try temporaryDirectory()
        try "previous".write(toFile: directory + "/report.json", atomically: false, encoding: .utf8)
        #expect(try swiftcov(["html", Self.sample, "-o", directory + "/site"]).status == 0)
        let index = try String(contentsOfFile: directory + "/site/index.html", encoding: .utf8)
        for arguments in [
            ["report", "missing.json", "-f", "json", "-o", directory + "/report.json"],
            ["export", "missing.json", "-f", "cobertura", "-o", directory + "/report.json"],
            ["html", "missing.json", "-o", directory + "/site"],
        ] {
            let result = try swiftcov(arguments)
            #expect(result.status == 2)
            #expect(result.stderr == "missing.json: error: no such file or directory\n")
        }
        #expect(try String(contentsOfFile: directory + "/report.json", encoding: .utf8) == "previous")
        #expect(try String(contentsOfFile: directory + "/site/index.html", encoding: .utf8) == index)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["report.json", "site"])
    }

    @Test("html into an empty folder or a symbolic link to one writes the site there")
    func htmlIntoEmptyFolder() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "real")
        #expect(try swiftcov(["html", Self.sample, "-o", directory + "/link"]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link") == "real")
        #expect(FileManager.default.fileExists(atPath: directory + "/real/index.html"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["link", "real"])
    }

    @Test("a site an earlier swiftcov wrote, without the mark, is replaced; one with anything else in it is not")
    func htmlReplacesUnmarkedEarlierSite() throws {
        let directory = try temporaryDirectory()
        let site = directory + "/site"
        try FileManager.default.createDirectory(atPath: site + "/files", withIntermediateDirectories: true)
        for name in ["index.html", "swiftcov.css", "swiftcov.js", "files/old-page.html"] {
            try "earlier".write(toFile: site + "/" + name, atomically: false, encoding: .utf8)
        }
        #expect(try swiftcov(["html", Self.sample, "-o", site]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: site + "/files/old-page.html"))
        #expect(FileManager.default.fileExists(atPath: site + "/.swiftcov-site"))
        try FileManager.default.removeItem(atPath: site + "/.swiftcov-site")
        try "mine".write(toFile: site + "/notes.txt", atomically: false, encoding: .utf8)
        #expect(try swiftcov(["html", Self.sample, "-o", site]).status == 2)
        #expect(FileManager.default.fileExists(atPath: site + "/notes.txt"))
    }

    @Test("html refuses a folder that is not empty and is not a swiftcov site: exit 2, one line, nothing touched")
    func htmlRefusesForeignFolder() throws {
        let directory = try temporaryDirectory()
        try "keep".write(toFile: directory + "/notes.txt", atomically: false, encoding: .utf8)
        for output in [directory, directory + "/"] {
            let result = try swiftcov(["html", Self.sample, "-o", output])
            #expect(result.status == 2)
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stderr.contains("not replacing a folder"))
        }
        let inside = try swiftcov(["html", packageRoot + "/" + Self.sample, "-o", "."], in: directory)
        #expect(inside.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["notes.txt"])
        let folder = URL(fileURLWithPath: directory)
        let staging = "." + folder.lastPathComponent + "."
        let parent = try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
        #expect(!parent.contains { $0.hasPrefix(staging) })
    }
}

/// The type bits of what is at `path` (not following a final symbolic link), or 0.
private func fileType(_ path: String) -> mode_t {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    return info.st_mode & S_IFMT
}

/// Where a launched process's standard output goes.
enum StandardOutput {
    /// A file opened for writing (`/dev/full`).
    case path(String)
    /// A file opened for appending, as `>>` does.
    case appending(String)
    /// A pipe whose read end is already closed.
    case closedPipe
}

/// Runs `executable` in `directory` with standard output as `stdout` says; stdin is empty.
func run(
    _ executable: String, _ arguments: [String], stdout: StandardOutput, in directory: String = packageRoot
) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment = ProcessInfo.processInfo.environment
    environment["GITHUB_STEP_SUMMARY"] = nil
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    switch stdout {
    case .path(let path):
        process.standardOutput = FileHandle(forWritingAtPath: path)
    case .appending(let path):
        let descriptor = open(path, O_WRONLY | O_APPEND)
        try #require(descriptor >= 0)
        process.standardOutput = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    case .closedPipe:
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        process.standardOutput = pipe
    }
    let error = Pipe()
    process.standardError = error
    try process.run()
    let stderr = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus, stdout: "", stderr: String(decoding: stderr, as: UTF8.self))
}

/// A `swiftcov` run reading a standard input that stays open until it is terminated.
final class Interruptible {
    private let process = Process()
    private let input = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = swiftcovExecutable()
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The name of the first entry of `directory` that starts with `prefix`, once there; nil if
    /// none appears within a minute or the process ends first.
    func waitForEntry(in directory: String, prefix: String) -> String? {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            if let name = names.first(where: { $0.hasPrefix(prefix) }) { return name }
            usleep(2000)
        }
        return nil
    }

    /// Sends SIGTERM and waits for the process to end (killing it if it has not within a minute).
    func terminate() -> (reason: Process.TerminationReason, status: Int32) {
        process.terminate()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(2000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (process.terminationReason, process.terminationStatus)
    }

    deinit {
        // Standard input ends: a run the test gave up on finishes by itself.
        try? input.fileHandleForWriting.close()
    }
}
