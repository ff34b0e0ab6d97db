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

/// What the user asked for, after validation against a `CommandSpec`.
package struct ParsedArguments: Sendable {
    package var values: [String: [String]] = [:]
    package var flags: Set<String> = []
    package var positionals: [String] = []
    /// `--help` or `-h` was given.
    package var wantsHelp = false

    /// The last value given for `key` (options that may appear once).
    package func value(_ key: String) -> String? { values[key]?.last }
    /// Every value given for `key`, in order.
    package func all(_ key: String) -> [String] { values[key] ?? [] }
    /// Whether the flag `key` was given.
    package func has(_ key: String) -> Bool { flags.contains(key) }
}

/// Wrong usage: unknown option, missing or invalid value. Exit code 2.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}

/// Parses arguments against a spec.
package enum CommandLineParser {
    /// Parses `arguments` (without the program and command names). `--name=value` and
    /// `--name value` both work; `--` ends options; `-` is a positional (standard input).
    package static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
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
            if let choices = option.choices, !choices.contains(value) {
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
    /// The Levenshtein distance to `other`, for "did you mean" suggestions.
    package func editDistance(to other: String) -> Int {
        let a = Array(utf8)
        let b = Array(other.utf8)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = Swift.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width - 1
            ? self + "\n" + String(repeating: " ", count: width + 2)
            : self + String(repeating: " ", count: width - count)
    }
}
