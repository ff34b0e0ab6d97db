import SwiftCovFormats
import SwiftCovPlatform

/// A command's options and arguments as the user may give them; the one argument parser of
/// swiftcov (no package dependencies), with the help text generated from the same spec.
package struct CommandSpec: Sendable {
    /// One option.
    package struct Option: Sendable {
        /// e.g. "--format"; the first name is the key in `ParsedArguments`.
        package var names: [String]
        /// The value placeholder ("PATH"), or nil for a flag.
        package var valueName: String?
        /// Allowed values, checked by the parser.
        package var choices: [String]?
        /// Other names the parser accepts for some choices (`md` for `markdown`), not listed in help.
        package var aliases: [String] = []
        /// May be given more than once.
        package var repeatable: Bool
        package var help: String

        package init(
            _ names: [String], value: String? = nil, choices: [String]? = nil, repeatable: Bool = false, help: String
        ) {
            self.names = names
            self.valueName = value
            self.choices = choices
            self.repeatable = repeatable
            self.help = help
        }

        package var key: String { names[0] }
    }

    package var name: String
    package var abstract: String
    /// Placeholder for positional arguments ("PATH…"), nil when none are accepted.
    package var positional: String?
    package var positionalHelp: String?
    package var options: [Option]
    /// Lines shown under "Examples:".
    package var examples: [String]

    package init(
        name: String, abstract: String, positional: String? = nil, positionalHelp: String? = nil, options: [Option],
        examples: [String] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.positional = positional
        self.positionalHelp = positionalHelp
        self.options = options
        self.examples = examples
    }
}

/// An option a command declares once, with the type its value converts to: the command reads
/// it back through `ParsedArguments.value(_:)`, so a misspelt option cannot compile, and the
/// conversion (a choice, a percentage) and its error message live here, not at each use.
package struct ValueOption<Value: Sendable>: Sendable {
    package var spec: CommandSpec.Option
    private let parse: @Sendable (String) throws(UsageError) -> Value

    /// An option whose value is `convert`'s result; nil from `convert` is a usage error saying
    /// `expected`.
    package init(
        _ names: [String], value: String, repeatable: Bool = false, help: String, expected: String? = nil,
        choices: [String]? = nil, convert: @escaping @Sendable (String) -> Value?
    ) {
        let key = names[0]
        self.init(names, value: value, repeatable: repeatable, help: help, choices: choices) {
            (text: String) throws(UsageError) -> Value in
            guard let value = convert(text) else {
                throw UsageError("invalid value '\(text)' for '\(key)'" + (expected.map { "; expected \($0)" } ?? ""))
            }
            return value
        }
    }

    /// An option whose value `parse` reads, throwing the usage error that says what is wrong.
    package init(
        _ names: [String], value: String, repeatable: Bool = false, help: String, choices: [String]? = nil,
        parse: @escaping @Sendable (String) throws(UsageError) -> Value
    ) {
        spec = CommandSpec.Option(names, value: value, choices: choices, repeatable: repeatable, help: help)
        self.parse = parse
    }

    /// The typed value of `text`, given for this option.
    package func value(of text: String) throws(UsageError) -> Value {
        try parse(text)
    }
}

extension ValueOption where Value == String {
    /// An option that takes any text (a path, a glob, a git ref).
    package init(_ names: [String], value: String, repeatable: Bool = false, help: String) {
        self.init(names, value: value, repeatable: repeatable, help: help) { $0 }
    }
}

extension ValueOption where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// An option whose value is one of `Value`'s cases, listed in the help and checked by the parser.
    package init(_ names: [String], value: String, repeatable: Bool = false, help: String) {
        self.init(
            names, value: value, repeatable: repeatable, help: help,
            choices: Value.allCases.map(\.rawValue), convert: Value.init(rawValue:))
    }
}

/// A choice that also answers to other names: `md` for `markdown`.
package protocol AliasedChoice: CaseIterable, RawRepresentable where RawValue == String {
    /// The other names, each for its case.
    static var aliases: [String: Self] { get }
}

extension ValueOption where Value: AliasedChoice {
    /// An option whose value is one of `Value`'s cases or one of their aliases; help lists the cases.
    package init(_ names: [String], value: String, repeatable: Bool = false, help: String) {
        self.init(
            names, value: value, repeatable: repeatable, help: help, choices: Value.allCases.map(\.rawValue),
            convert: { Value(rawValue: $0) ?? Value.aliases[$0] })
        spec.aliases = Value.aliases.keys.sorted()
    }
}

extension ValueOption where Value == Double {
    /// An option whose value is a percentage from 0 to 100.
    package static func percentage(_ names: [String], help: String) -> ValueOption<Double> {
        ValueOption(names, value: "PERCENT", help: help, expected: "a percentage from 0 to 100") { text in
            guard let percent = Double(text), percent >= 0, percent <= 100 else { return nil }
            return percent
        }
    }
}

extension ValueOption where Value == Int {
    /// An option whose value is a whole number from 1 up.
    package static func positiveInteger(_ names: [String], value: String = "N", help: String) -> ValueOption<Int> {
        ValueOption(names, value: value, help: help, expected: "a positive whole number") { text in
            guard let number = Int(text), number >= 1 else { return nil }
            return number
        }
    }
}

/// A flag a command declares once (see `ValueOption`).
package struct FlagOption: Sendable {
    package var spec: CommandSpec.Option

    package init(_ names: [String], help: String) {
        spec = CommandSpec.Option(names, help: help)
    }
}

/// What the user asked for, after validation against a `CommandSpec`; read through the
/// options the command declared.
package struct ParsedArguments: Sendable {
    fileprivate var values: [String: [String]] = [:]
    fileprivate var flags: Set<String> = []
    /// The options of the spec parsed against, to catch a command reading one it did not declare.
    fileprivate var declared: Set<String> = []
    package var positionals: [String] = []
    /// `--help` or `-h` was given.
    package var wantsHelp = false

    package init() {}

    /// The value given for `option` (an option that may appear once), converted; nil when absent.
    package func value<Value>(_ option: ValueOption<Value>) throws(UsageError) -> Value? {
        assert(declared.contains(option.spec.key), "\(option.spec.key) is not an option of this command")
        guard let text = values[option.spec.key]?.last else { return nil }
        return try option.value(of: text)
    }

    /// Every value given for `option`, in order, converted.
    package func values<Value>(_ option: ValueOption<Value>) throws(UsageError) -> [Value] {
        assert(declared.contains(option.spec.key), "\(option.spec.key) is not an option of this command")
        var result: [Value] = []
        for text in values[option.spec.key] ?? [] { result.append(try option.value(of: text)) }
        return result
    }

    /// Whether the flag was given.
    package func has(_ flag: FlagOption) -> Bool {
        assert(declared.contains(flag.spec.key), "\(flag.spec.key) is not an option of this command")
        return flags.contains(flag.spec.key)
    }
}

/// Wrong usage: unknown option, missing or invalid value. Exit code 2.
package struct UsageError: DiagnosticConvertible, Equatable {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var diagnostic: Diagnostic { .usage(message) }
}

/// Parses arguments against a spec.
package enum CommandLineParser {
    /// Parses `arguments` (without the program and command names). `--name=value` and
    /// `--name value` both work; `--` ends options; `-` is a positional (standard input).
    package static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        parsed.declared = Set(spec.options.map(\.key))
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard spec.positional != nil else {
                    throw UsageError("unexpected argument '\(argument)' for '\(spec.name)'")
                }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                parsed.wantsHelp = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.options.first(where: { $0.names.contains(name) }) else {
                let suggestion = spec.options.flatMap(\.names).first { closeEnough($0, name) }
                throw UsageError(
                    "unknown option '\(name)' for '\(spec.name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                )
            }
            guard let valueName = option.valueName else {
                guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value") }
                parsed.flags.insert(option.key)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("option '\(name)' needs a value (\(valueName))") }
                value = arguments[index]
                index += 1
            }
            if let choices = option.choices, !choices.contains(value), !option.aliases.contains(value) {
                throw UsageError(
                    "invalid value '\(value)' for '\(name)'; expected one of: \(choices.joined(separator: ", "))")
            }
            if !option.repeatable, parsed.values[option.key] != nil {
                throw UsageError("option '\(name)' may be given only once")
            }
            parsed.values[option.key, default: []].append(value)
        }
        return parsed
    }

    /// Help text for `spec`, as printed by `swiftcov COMMAND --help`.
    package static func help(for spec: CommandSpec, tool: String) -> String {
        var text = "OVERVIEW: \(spec.abstract)\n\nUSAGE: \(tool) \(spec.name) [OPTIONS]"
        if let positional = spec.positional { text += " [\(positional)]" }
        text += "\n"
        if let positional = spec.positional, let help = spec.positionalHelp {
            text += "\nARGUMENTS:\n  \(positional.padding(24))\(help)\n"
        }
        text += "\nOPTIONS:\n"
        for option in spec.options {
            var left = option.names.joined(separator: ", ")
            if let value = option.valueName { left += " \(value)" }
            var help = option.help
            if let choices = option.choices { help += " (\(choices.joined(separator: "|")))" }
            if option.repeatable { help += " Repeatable." }
            text += "  \(left.padding(24))\(help)\n"
        }
        text += "  \("-h, --help".padding(24))Show this help.\n"
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES:\n" + spec.examples.map { "  \($0)\n" }.joined()
        }
        return text
    }

    private static func closeEnough(_ candidate: String, _ typed: String) -> Bool {
        candidate.hasPrefix(typed) || typed.hasPrefix(candidate) || candidate.editDistance(to: typed) <= 2
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width - 1
            ? self + "\n" + String(repeating: " ", count: width + 2)
            : self + String(repeating: " ", count: width - count)
    }
}
