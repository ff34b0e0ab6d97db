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
}
