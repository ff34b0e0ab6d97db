extension TestTimings {
    /// The tests' times from an earlier run: its JUnit XML (or any test output swiftcov reads), or
    /// the `coverage.json` that `run` and `report --format json` write (times per suite).
    package static func read(path: String) throws -> TestTimings {
        let bytes: [UInt8]
        do {
            bytes = try MappedFile(path: path).withUnsafeBytes { Array($0) }
        } catch {
            throw CoverageInputError.unreadable(path: path, reason: error.message)
        }
        guard bytes.first == UInt8(ascii: "{") else {
            return TestTimings(try TestResultsReader.read(paths: [path], utcOffset: 0))
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            let keyPath = bytes.withUnsafeBytes { JSONKeyPath.path(at: error.offset, in: $0) }
            throw CoverageInputError.malformed(
                path: path, offset: error.offset, keyPath: keyPath, message: error.message)
        }
        guard case .array(let suites)? = document["tests"]?["suites"] else {
            throw Diagnostic(
                file: path, "no \"tests\" with \"suites\" (give a junit.xml or the coverage.json of run)")
        }
        return TestTimings(
            suites: suites.compactMap { suite in
                guard case .string(let name)? = suite["name"], case .number(let tests)? = suite["tests"],
                    case .number(let seconds)? = suite["time"]
                else { return nil }
                return (name, Int(tests), seconds)
            })
    }
}
