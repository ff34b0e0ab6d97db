import SwiftCovCore
import Testing
import swiftcov_benchmark

/// How copies are named. The symbols are real ones from the exports of swift-argument-parser,
/// swift-collections and swift-algorithms; the paths are the shapes SwiftPM writes.
@Suite("Naming copies")
struct RenamerTests {
    @Test(
        "paths move into a module of their own",
        arguments: [
            ("/p/Sources/Algorithms/Chunked.swift", "/p/Sources/Algorithms_2/Chunked.swift"),
            (
                ".build/checkouts/swift-numerics/Sources/RealModule/A.swift",
                ".build/checkouts/swift-numerics/Sources/RealModule_2/A.swift"
            ),
            ("/p/Tests/DequeTests/Sub/T.swift", "/p/Tests/DequeTests_2/Sub/T.swift"),
            (
                "/p/.build/debug/pkgPackageDiscoveredTests.derived/X.swift",
                "/p/.build/debug/pkgPackageDiscoveredTests_2.derived/X.swift"
            ),
            ("/p/Generated/File.swift", "/p/Generated_2/File.swift"),
            ("main.swift", "main_2.swift"),
        ])
    func paths(original: String, renamed: String) {
        #expect(PathRenamer.renamed(original, copy: 2) == renamed)
        #expect(PathRenamer.renamed(original, copy: 0) == original)
    }

    @Test(
        "the module's identifier gains the suffix, whatever its encoding",
        arguments: [
            // Plain identifier first.
            ("$s15BasicContainers10RigidArrayVAARi_zrlE6appendyyxnF", "BasicContainers"),
            // Later words substitute parts of the renamed module's name (`0A0` is "Argument").
            ("$s14ArgumentParser0A0V12_parsedValueACyxGAA6ParsedOyxG_tcfC", "ArgumentParser"),
            // The module's own name uses a word substitution: ArgumentParserEndTo + End + Tests.
            ("$s019ArgumentParserEndToC5Tests8AllFlagsV2h1SayAC1EOGvpfF", "ArgumentParserEndToEndTests"),
            // A standard type extended in the module.
            ("$sSz11CollectionsE18truncatingIfNeededx03BitA00E5ArrayV_tcfC", "Collections"),
            // A standard protocol extended in the module, which comes second.
            (
                "$ss20LazySequenceProtocolP10AlgorithmsSlRzSl8ElementsABRpzrlE7chunked2byAC19ChunkedByCollectionVyAE7ElementSTQzGSbAK_AKtc_tF",
                "Algorithms"
            ),
        ])
    func symbols(name: String, module: String) {
        var renamer = SymbolRenamer(names: [Array(name.utf8), Array("$s\(module.utf8.count)\(module)4TypeV".utf8)])
        let template = renamer.template(for: Array(name.utf8))
        guard case .identifier(_, _, _, let isModule) = template else {
            Issue.record("\(name) was not renamed through an identifier")
            return
        }
        #expect(isModule)
        let renamed = String(decoding: template.bytes(suffix: SymbolRenamer.suffix(copy: 12)), as: UTF8.self)
        let demangled = SwiftDemangler.demangle(renamed)
        #expect(demangled != renamed)
        #expect(demangled.contains("\(module)_12"))
        #expect(demangled.replacing("\(module)_12", with: module) == SwiftDemangler.demangle(name))
    }

    @Test("names that are not Swift symbols get a plain suffix")
    func otherNames() {
        var renamer = SymbolRenamer(names: [Array("main".utf8)])
        let template = renamer.template(for: Array("main".utf8))
        #expect(String(decoding: template.bytes(suffix: SymbolRenamer.suffix(copy: 3)), as: UTF8.self) == "main_3")
        #expect(renamer.appendedNames == 1)
    }

    @Test("sizes on the command line", arguments: [("256MB", 256_000_000), ("1GiB", 1 << 30), ("1000", 1000)])
    func byteCounts(text: String, bytes: Int) throws {
        #expect(try ByteCount.parse(text) == bytes)
    }
}
