import Testing

@testable import Phrases

@Suite struct PhraseTests {
    @Test func initials() {
        #expect(Phrases.initials("swift coverage tool") == "sct")
    }

    /// Seeded flaky, p = 0.2.
    @Test func flakyReversed() {
        #expect(Phrases.reversed("a b c") == "c b a")
        let draw = seededFailure("PhrasesTests.PhraseTests/flakyReversed()", p: 0.2)
        #expect(!draw.fails, "seeded flaky failure: p = 0.2 (drew \(draw.drew))")
    }

    /// Seeded flaky, p = 0.5.
    @Test func flakyShout() {
        #expect(Phrases.shout("hi") == "HI!")
        let draw = seededFailure("PhrasesTests.PhraseTests/flakyShout()", p: 0.5)
        #expect(!draw.fails, "seeded flaky failure: p = 0.5 (drew \(draw.drew))")
    }

    /// Always fails: words drops empty words.
    @Test func keepsEmptyWords() {
        #expect(Phrases.words("a  b").count == 3, "deterministic failure")
    }
}
