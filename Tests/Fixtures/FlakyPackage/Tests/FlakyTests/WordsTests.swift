import Testing

@testable import Flaky

/// Words.swift, in Swift Testing: steady tests, two seeded flaky ones and a deterministic failure.
@Suite struct WordsTests {
    @Test func splitsWords() {
        #expect(words("a  b\tc\nd").count == 4)
    }

    @Test func titleCase() {
        #expect(titleCased("hello swift world") == "Hello Swift World")
    }

    @Test func slugDropsPunctuation() {
        #expect(slug("Hello, World! 2024") == "hello-world-2024")
    }

    @Test func reversesWords() {
        #expect(reversedWords("one two three") == "three two one")
    }

    /// Always fails: `slug` keeps ASCII only, this test wants the accents kept.
    @Test func slugKeepsAccents() {
        #expect(slug("Café Crème") == "café-crème", "deterministic failure: slug drops non-ASCII letters")
    }

    /// Seeded flaky: fails with probability 0.05.
    @Test func flakyTitleCase() {
        #expect(titleCased("a b") == "A B")
        let draw = flakyDraw("FlakyTests.WordsTests/flakyTitleCase()")
        #expect(draw >= 0.05, "seeded flaky failure: fails with probability 0.05 (drew \(draw))")
    }

    /// Seeded flaky: fails with probability 0.1.
    @Test func flakyReversedWords() {
        #expect(reversedWords("x y") == "y x")
        let draw = flakyDraw("FlakyTests.WordsTests/flakyReversedWords()")
        #expect(draw >= 0.1, "seeded flaky failure: fails with probability 0.1 (drew \(draw))")
    }
}

/// Statistics.swift from Swift Testing: steady.
@Test func meanOfNothing() {
    #expect(mean([]) == nil)
    #expect(median([]) == nil)
}
