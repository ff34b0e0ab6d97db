import Testing

@testable import SwiftCovCore

@Suite("Short function names")
struct FunctionDisplayNameTests {
    @Test(
        "demangled names shortened as Xcode shows them",
        arguments: [
            (
                "TriviaCore.LaunchConfiguration.init(isUITesting: Swift.Bool, questionsURL: Foundation.URL?) -> TriviaCore.LaunchConfiguration",
                "init(isUITesting:questionsURL:)"
            ),
            ("TriviaCore.Letter.letter.getter : Swift.String", "letter.getter"),
            (
                "closure #1 (Swift.Int) -> Swift.Bool in TriviaCore.Game.award(Swift.Int, Swift.String) -> ()",
                "closure #1 in award(_:_:)"
            ),
            (
                "implicit closure #2 () throws -> Swift.Int in closure #1 @Swift.MainActor () -> () in static Q.Spec.spec() -> ()",
                "implicit closure #2 in closure #1 in spec()"
            ),
            (
                "walk #1 (N.Message) -> N.Message in N.Message.replaced((N.Message) -> N.Message) -> N.Message",
                "walk #1 in replaced(_:)"
            ),
            ("static Swift.Int.+ infix(Swift.Int, Swift.Int) -> Swift.Int", "+(_:_:)"),
            ("Nimble.< infix<A where A: Swift.Comparable>(Nimble.SyncExpectation<A>, A) -> ()", "<(_:_:)"),
            ("static Nimble.NimbleTimeInterval.... infix(Swift.Int, Swift.Int) -> ()", "...(_:_:)"),
            (
                "Nimble.(poll in _E5F1D8651E405FD38643651EFFC4B113)(_: Nimble.Interval, expression: () async throws -> N.Status) async -> N.Result<Swift.Bool>",
                "poll(_:expression:)"
            ),
            (
                "Quick.AsyncSpec.(example in _C38E023E2F41A28C711442631BF598FF).didset : Quick.AsyncExample?",
                "example.didset"
            ),
            (
                "S.FilePath.ComponentView.subscript.getter : (S.FilePath.ComponentView.Index) -> S.Component",
                "subscript.getter"
            ),
            (
                "(extension in Nimble):Nimble.Timer< where A == Nimble.DateClock>.init(interval: Nimble.Interval) -> Nimble.Timer<Nimble.DateClock>",
                "init(interval:)"
            ),
            (
                "S.IORing._consume<A where A: Swift.Error>(minimumCount: Swift.UInt32, consumer: (__owned S.Completion?, Swift.Bool) throws(A) -> ()) throws(A) -> ()",
                "_consume(minimumCount:consumer:)"
            ),
            (
                "default argument 1 of T.Game.init(rounds: Swift.Int, seed: Swift.Int) -> T.Game",
                "default argument 1 of init(rounds:seed:)"
            ),
            (
                "variable initialization expression of Q.QCKConfiguration.runAll : Swift.Bool",
                "variable initialization expression of runAll"
            ),
            (
                "protocol witness for Swift.Equatable.== infix(A, A) -> Swift.Bool in conformance T.Letter : Swift.Equatable in T",
                "protocol witness for ==(_:_:)"
            ),
            ("Sources/T/Game.swift:T.(helper in _0123456789ABCDEF)() -> ()", "helper()"),
            ("T.Game.play() async throws -> ()", "play()"),
            ("main", "main"),
            ("_c_function", "_c_function"),
        ])
    func shortNames(full: String, short: String) {
        #expect(SwiftDemangler.displayName(full) == short)
    }

    @Test(
        "text that is no Swift name comes back as it is, and nothing traps",
        arguments: [
            "", " ", "(((", ")))>>><<<", "closure #1 in", "closure #", "a.b.", ".", "->->", "x infix(", "#1 in in in",
        ])
    func hostileText(text: String) {
        let name = SwiftDemangler.displayName(text)
        #expect(!name.isEmpty || text.isEmpty || text == " ")
    }

    @Test("every function of the fixtures gets a short name no longer than its full name")
    func fixtures() throws {
        var checked = 0
        for fixture in Fixture.all {
            for file in try fixture.report().files {
                for name in file.functionNames {
                    let full = name.demangled
                    let short = name.display
                    #expect(short == SwiftDemangler.displayName(full))
                    #expect(!short.isEmpty && short.utf8.count <= full.utf8.count, "\(full) → \(short)")
                    #expect(!short.contains(" -> "), "\(full) → \(short)")
                    checked += 1
                }
            }
        }
        #expect(checked > 500)
    }
}
