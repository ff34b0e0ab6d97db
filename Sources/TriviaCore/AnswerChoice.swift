/// One of the three answer slots of a question, labelled A, B and C.
public enum AnswerChoice: String, CaseIterable, Hashable, Sendable {
    /// The first answer, `answer_a` in the JSON.
    case a = "A"
    /// The second answer, `answer_b` in the JSON.
    case b = "B"
    /// The third answer, `answer_c` in the JSON.
    case c = "C"

    /// The upper-case letter the player sees and types.
    public var letter: String { rawValue }

    /// The zero-based position of this choice in ``Question/answers``.
    public var index: Int {
        switch self {
        case .a: 0
        case .b: 1
        case .c: 2
        }
    }

    /// Creates a choice from a letter in either case, or returns `nil` for anything but A, B or C.
    public init?(letter: String) {
        self.init(rawValue: letter.uppercased())
    }
}
