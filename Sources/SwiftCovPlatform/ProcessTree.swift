#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processes of the system as Linux's `/proc` shows them: who started whom, in which process
/// group, and which pipes they hold. `Subprocess` uses it to end everything a program it started
/// left behind, even what moved to another process group or was re-parented. Elsewhere (no
/// `/proc`) it sees no process, and only process groups are ended.
package enum ProcessTree {
    /// One process.
    package struct Entry: Equatable, Sendable {
        package var pid: pid_t
        package var parent: pid_t
        package var group: pid_t
        /// Ended but not yet reaped by its parent.
        package var zombie: Bool
    }

    /// Every process swiftcov can see.
    package static func all() -> [Entry] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let pid = withUnsafeBytes(of: entry.pointee.d_name) { raw -> pid_t? in
                var value: pid_t = 0
                for byte in raw {
                    if byte == 0 { break }
                    guard (0x30...0x39).contains(byte), value < 100_000_000 else { return nil }
                    value = value * 10 + pid_t(byte - 0x30)
                }
                return value > 0 ? value : nil
            }
            if let pid, let stat = contents(of: "/proc/\(pid)/stat", limit: 4096), let parsed = parseStat(stat) {
                entries.append(parsed)
            }
        }
        return entries
    }

    /// One line of `/proc/PID/stat`: `PID (NAME) STATE PPID PGRP …`, where NAME may hold spaces
    /// and parentheses (so the fields after it are found from its last `)`).
    package static func parseStat(_ bytes: [UInt8]) -> Entry? {
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")),
            let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close
        else { return nil }
        let head = bytes[..<open].split(separator: UInt8(ascii: " "))
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard head.count == 1, fields.count >= 3, fields[0].count == 1, let pid = number(head[0]),
            let parent = number(fields[1]), let group = number(fields[2])
        else { return nil }
        return Entry(pid: pid, parent: parent, group: group, zombie: fields[0].first == UInt8(ascii: "Z"))
    }

    /// Whether `pid` holds one of the pipes whose inodes are `inodes` open (false when its
    /// descriptors cannot be read: another user's process).
    package static func holdsPipe(_ pid: pid_t, inodes: Set<UInt64>) -> Bool {
        guard !inodes.isEmpty, let names = FileSystem.entries(of: "/proc/\(pid)/fd") else { return false }
        var target = [CChar](repeating: 0, count: 64)
        for name in names {
            guard name.first?.isNumber == true else { continue }
            let count = readlink("/proc/\(pid)/fd/" + name, &target, target.count - 1)
            guard count > 6 else { continue }
            let link = target[..<count].map { UInt8(bitPattern: $0) }
            // "pipe:[INODE]"
            if link.starts(with: Array("pipe:[".utf8)), link.last == UInt8(ascii: "]"),
                let inode = UInt64(String(decoding: link.dropFirst(6).dropLast(), as: UTF8.self)),
                inodes.contains(inode)
            {
                return true
            }
        }
        return false
    }

    /// The inode of the pipe (or file) `descriptor` is open on.
    package static func inode(of descriptor: Int32) -> UInt64? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }

    /// Every process below `root`, with the processes they started, by `entries`.
    package static func descendants(of roots: Set<pid_t>, in entries: [Entry]) -> Set<pid_t> {
        var children: [pid_t: [pid_t]] = [:]
        for entry in entries { children[entry.parent, default: []].append(entry.pid) }
        var found = Set<pid_t>()
        var stack = Array(roots)
        while let pid = stack.popLast() {
            for child in children[pid] ?? [] where found.insert(child).inserted { stack.append(child) }
        }
        return found
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> pid_t? {
        guard !bytes.isEmpty, bytes.count < 10, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + pid_t($1 - 0x30) }
    }

    /// The first `limit` bytes of a (small, virtual) file.
    private static func contents(of path: String, limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, limit) }
        guard count > 0 else { return nil }
        return Array(buffer[..<count].prefix { $0 != 0x0A })
    }
}
