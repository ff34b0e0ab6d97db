import Foundation
import Testing

@testable import SwiftCovCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// swiftcov's own XML reader, which reads JUnit files back: the same events as libxml2
/// (FoundationXML's `XMLParser`) on every real and golden JUnit file, and one error with an
/// offset for what is not well-formed.
@Suite("XML reader")
struct XMLReaderTests {
    /// The events of `bytes`, adjacent texts joined (a reader may split text where it likes).
    static func events(_ bytes: [UInt8]) throws -> [XMLReader.Event] {
        var reader = XMLReader(bytes)
        var events: [XMLReader.Event] = []
        while let event = try reader.next() {
            if case .text(let more) = event, case .text(let text)? = events.last {
                events[events.count - 1] = .text(text + more)
            } else {
                events.append(event)
            }
        }
        return events
    }

    /// The same events from libxml2, the reference.
    static func libxml2Events(_ bytes: [UInt8]) -> [XMLReader.Event]? {
        final class Collector: NSObject, XMLParserDelegate {
            var events: [XMLReader.Event] = []
            func parser(
                _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                events.append(
                    .start(
                        name: element,
                        attributes: attributes.map { XMLReader.Attribute(name: $0.key, value: $0.value) }))
            }
            func parser(
                _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
            ) {
                events.append(.end(name: element))
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text(string) }
            func parser(_ parser: XMLParser, foundCDATA block: Data) { text(String(decoding: block, as: UTF8.self)) }
            func text(_ string: String) {
                if case .text(let text)? = events.last {
                    events[events.count - 1] = .text(text + string)
                } else {
                    events.append(.text(string))
                }
            }
        }
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        let collector = Collector()
        parser.delegate = collector
        return parser.parse() ? collector.events : nil
    }

    /// Attribute order is not an event's meaning: sorted by name for comparing.
    static func normalized(_ events: [XMLReader.Event]) -> [XMLReader.Event] {
        events.map {
            guard case .start(let name, let attributes) = $0 else { return $0 }
            return .start(name: name, attributes: attributes.sorted { $0.name < $1.name })
        }
    }

    static let junitFiles: [String] = {
        let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures").path
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden").path
        var files: [String] = []
        for folder in [fixtures + "/logs", fixtures + "/shards", golden] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            where name.hasSuffix(".xml") {
                files.append(folder + "/" + name)
            }
        }
        return files.sorted()
    }()

    @Test("every real and golden JUnit file: the events libxml2 gives")
    func sameAsLibxml2() throws {
        #expect(Self.junitFiles.count >= 15)
        for path in Self.junitFiles {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let expected = try #require(Self.libxml2Events(bytes), "\(path)")
            #expect(Self.normalized(try Self.events(bytes)) == Self.normalized(expected), "\(path)")
        }
    }

    @Test(
        "references, CDATA, comments, line ends and attribute white space as XML defines them",
        arguments: [
            #"<a x="1 &lt; 2 &amp;&amp; &quot;q&quot; &apos;s&apos;" y='&#65;&#x42;&#x1F600;'>&gt;&#10;</a>"#,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- c -->\n<a\tx=\"l1\nl2\r\nl3\tt\">\r\nx\ry<![CDATA[<&]]>\r\n<?pi data?><!-- in --></a>\n",
            "\u{FEFF}<a><b/><c d='e'/></a>",
            "<!DOCTYPE a SYSTEM \"a.dtd\"><a>é – 😀</a>",
            "<a:b xmlns:a=\"urn:x\"><a:c/></a:b>",
        ])
    func decoding(_ xml: String) throws {
        let bytes = Array(xml.utf8)
        let expected = try #require(Self.libxml2Events(bytes))
        #expect(Self.normalized(try Self.events(bytes)) == Self.normalized(expected))
    }

    @Test("a tag with 50,000 attributes, the last repeating the first: found, as with a few")
    func manyAttributes() {
        let attributes = (0..<50_000).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        let xml = "<t " + attributes + " a0=\"again\"/>"
        do {
            _ = try Self.events(Array(xml.utf8))
            Issue.record("read a repeated attribute without an error")
        } catch let error as XMLReader.Error {
            #expect(error.message == "the attribute a0 appears twice")
            #expect(error.offset == xml.utf8.count - #"a0="again"/>"#.utf8.count)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test(
        "not well-formed: one error, at the byte where it shows",
        arguments: [
            ("", 0, "the document is empty"),
            ("<?xml version=\"1.0\"?>\n", 22, "the document is empty"),
            ("<a><b></a>", 6, "an end tag does not match its start tag"),
            ("<a>", 3, "the document ends inside <a>"),
            ("<a x=\"1\" x=\"2\"/>", 9, "the attribute x appears twice"),
            ("<a x=1/>", 5, "expected a quoted attribute value"),
            ("<a>&nbsp;</a>", 3, "an undeclared entity"),
            ("<a>&#0;</a>", 3, "a character XML does not allow"),
            ("<a>\u{1B}[31m</a>", 3, "a character XML does not allow"),
            ("<a>x</a><b/>", 8, "content after the root element"),
            ("<a>x</a>y", 8, "content after the root element"),
            ("x<a/>", 0, "text outside the root element"),
            ("<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>", 12, "a document type with declarations"),
            ("<a><![CDATA[x</a>", 3, "a CDATA section is not closed"),
            ("<a><!-- x</a>", 3, "a comment is not closed"),
            ("<!-- a -- b --><a/>", 7, "'--' inside a comment"),
            ("<a x=\"<\"/>", 6, "'<' in an attribute value"),
            ("<1a/>", 1, "a name cannot start with '1'"),
            ("<a & b/>", 3, "expected a name"),
        ])
    func malformed(_ xml: String, offset: Int, message: String) {
        do {
            _ = try Self.events(Array(xml.utf8))
            Issue.record("read \(xml) without an error")
        } catch let error as XMLReader.Error {
            #expect(error.offset == offset, "\(xml)")
            #expect(error.message.hasPrefix(message), "\(xml): \(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
