import Foundation
import Testing

@testable import SwiftCovCore

@Suite("JSON scanning")
struct JSONScannerTests {
    func parse(_ text: String) throws(JSONError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    func error(_ text: String) -> JSONError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("values of every kind")
    func values() throws {
        let value = try parse(#" {"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}} "#)
        #expect(value["a"] == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]))
        #expect(value["b"]?["c"] == .string("d"))
    }

    @Test("string escapes, including surrogate pairs and lone surrogates")
    func escapes() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try parse(#""\ud83d""#) == .string("\u{FFFD}"))
        #expect(try parse(#""x\u0000y""#) == .string("x\u{0}y"))
    }

    @Test("integers beyond Int64 are clamped, as llvm-cov clamps counts")
    func clampedIntegers() throws {
        let bytes = Array("[18446744073709551615, -99999999999999999999, 42]".utf8)
        let values = bytes.withUnsafeBytes { buffer -> [Int64]? in
            var scanner = JSONScanner(buffer)
            var values: [Int64] = []
            var started = false
            do {
                try scanner.beginArray()
                while try scanner.nextElement(&started) { values.append(try scanner.readInt()) }
            } catch {
                return nil
            }
            return values
        }
        #expect(values == [Int64.max, Int64.min, 42])
    }

    @Test(
        "malformed documents fail at the right byte",
        arguments: [
            ("", 0, "expected a value"),
            ("[1, 2", 5, "unexpected end of input"),
            ("[1 2]", 3, "expected ',' or ']'"),
            (#"{"a" 1}"#, 5, "expected ':'"),
            (#"{"a": 1,}"#, 8, "expected a key string"),
            (#""abc"#, 4, "unterminated string"),
            ("[tru]", 1, "invalid literal"),
            ("[1.]", 3, "expected a digit"),
            ("{} x", 3, "unexpected data"),
            ("\"a\u{1}\"", 2, "control character"),
        ])
    func malformed(text: String, offset: Int, message: String) throws {
        let failure = try #require(error(text))
        #expect(failure.offset == offset)
        #expect(failure.message.contains(message), "\(failure.message)")
    }

    @Test("nesting deeper than the limit is an error, not a crash")
    func deepNesting() throws {
        let text = String(repeating: "[", count: 100_000)
        #expect(error(text)?.message.contains("nesting") == true)
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var scanner = JSONScanner(buffer)
            #expect(throws: JSONError.self) { try scanner.skipValue() }
        }
    }

    @Test("the key path of an offset")
    func keyPath() throws {
        let text = #"{"data": [{"files": [{"a": 1}, {"segments": [[1, 2], [3, x]]}]}]}"#
        let offset = Array(text.utf8).firstIndex(of: UInt8(ascii: "x"))!
        let path = Array(text.utf8).withUnsafeBytes { JSONKeyPath.path(at: offset, in: $0) }
        #expect(path == "data[0].files[1].segments[1][1]")
        let root = Array(text.utf8).withUnsafeBytes { JSONKeyPath.path(at: 0, in: $0) }
        #expect(root == "(root)")
    }

    @Test("JSON text written for reports reads back as the same values")
    func writerRoundTrip() throws {
        let hostile = "a\"b\\c\n\u{0}\u{1B}[31m</script>&'<"
        var writer = JSONWriter()
        writer.beginArray()
        writer.string(hostile)
        writer.number(88.30958876427201)
        writer.number(100.0)
        writer.endArray()
        #expect(try parse(writer.output) == .array([.string(hostile), .number(88.30958876427201), .number(100)]))
        #expect(writer.output == "[" + JSONWriter.quoted(hostile) + ", 88.30958876427201, 100]\n")
    }

    @Test("Integers of every width are written in full, at their extremes too")
    func writerIntegers() throws {
        var writer = JSONWriter()
        writer.beginArray()
        writer.number(0)
        writer.number(-1)
        writer.number(Int.min)
        writer.number(Int.max)
        writer.number(UInt64.max)
        writer.number(Int32.min)
        writer.number(UInt8(255))
        writer.endArray()
        #expect(
            writer.output
                == "[0, -1, -9223372036854775808, 9223372036854775807, 18446744073709551615, -2147483648, 255]\n")
        var members = JSONWriter()
        members.beginObject()
        members.member("a", Int.min)
        members.member("b", UInt64.max)
        members.member("c", Int16(-7))
        members.endObject()
        #expect(members.output == "{\"a\": -9223372036854775808, \"b\": 18446744073709551615, \"c\": -7}\n")
    }

    @Test("The JSON writer places commas, line breaks and indentation from the structure")
    func writerLayout() throws {
        var writer = JSONWriter()
        writer.beginObject(.block)
        writer.member("name", "x")
        writer.member("note", nil as String?, .sameLine)
        writer.key("empty")
        writer.beginArray(.block)
        writer.endArray()
        writer.key("rows")
        writer.beginArray(.block)
        for row in 1...2 {
            writer.beginObject()
            writer.member("row", row)
            writer.member("ok", row == 1)
            writer.key("cells", .newLine)
            writer.beginArray()
            writer.number(Double(row) / 4)
            writer.null()
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.key("nested")
        writer.beginObject(.block)
        writer.key("weird \"key\"")
        writer.beginObject()
        writer.endObject()
        writer.endObject()
        writer.endObject()
        let expected = """
            {
              "name": "x", "note": null,
              "empty": [],
              "rows": [
                {"row": 1, "ok": true,
                  "cells": [0.25, null]},
                {"row": 2, "ok": false,
                  "cells": [0.5, null]}
              ],
              "nested": {
                "weird \\"key\\"": {}
              }
            }

            """
        #expect(writer.output == expected)
        // And it is JSON Foundation reads.
        let object = try JSONSerialization.jsonObject(with: Data(writer.output.utf8)) as? [String: Any]
        #expect((object?["rows"] as? [Any])?.count == 2)
        #expect((object?["nested"] as? [String: Any])?["weird \"key\""] != nil)
    }

    /// The integers of a JSON array, or the error reading them.
    func integers(_ text: String) -> Result<[Int64], JSONError> {
        Array(text.utf8).withUnsafeBytes { buffer in
            var scanner = JSONScanner(buffer)
            var values: [Int64] = []
            var started = false
            do throws(JSONError) {
                try scanner.beginArray()
                while try scanner.nextElement(&started) { values.append(try scanner.readInt()) }
                return .success(values)
            } catch {
                return .failure(error)
            }
        }
    }

    @Test("integers of every length read the same with or without the short-number fast path")
    func integerLengths() throws {
        // 17 digits and less take the fast path; 18 and more, spaces and signs the full one.
        for digits in 1...18 {
            let text = String(repeating: "9", count: digits)
            let value = Int64(text)!
            #expect(try integers("[\(text),\(text), \(text) ,-\(text)]").get() == [value, value, value, -value])
        }
        #expect(try integers("[99999999999999999999]").get() == [Int64.max])
        #expect(try integers("[007,0]").get() == [7, 0])
        for fractional in ["[12.5]", "[12e3]", "[1E2]", "[123456789012345678.5]"] {
            guard case .failure(let error) = integers(fractional) else {
                Issue.record("\(fractional) read as integers")
                continue
            }
            #expect(error.offset == 1)
            #expect(error.message == "expected an integer, found a fractional number")
        }
        guard case .failure(let error) = integers("[1") else { Issue.record("no error"); return }
        #expect(error.message.contains("end of input"))
    }

    @Test("a string equal to known raw bytes is skipped whole, and nothing else is")
    func skipStringEqualTo() throws {
        func skip(_ raw: String, in text: String) -> (skipped: Bool, offset: Int) {
            Array(raw.utf8).withUnsafeBufferPointer { rawBytes in
                Array(text.utf8).withUnsafeBytes { buffer in
                    var scanner = JSONScanner(buffer)
                    let skipped = scanner.skipString(equalTo: rawBytes)
                    return (skipped, scanner.offset)
                }
            }
        }
        #expect(skip("a.swift", in: #""a.swift","#) == (true, 9))
        #expect(skip("a.swift", in: #" "a.swift"]"#) == (true, 10))
        #expect(skip(#"a\"b"#, in: #""a\"b"]"#) == (true, 6))
        #expect(skip(#"a\\"#, in: #""a\\","#) == (true, 5))
        #expect(skip("", in: #""","#) == (true, 2))
        // Longer, shorter or different strings, and no string at all, are left to be read.
        #expect(skip("a.swift", in: #""a.swift2","#).skipped == false)
        #expect(skip("a.swift", in: #""a.swif","#) == (false, 0))
        #expect(skip("a.swift", in: #""b.swift","#) == (false, 0))
        #expect(skip("a.swift", in: #"["a.swift"]"#) == (false, 0))
        #expect(skip("a.swift", in: #""a.swift"#) == (false, 0))
    }
}
