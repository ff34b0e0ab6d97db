import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// An lcov tracefile, as genhtml, Codecov and Coveralls read it: per file `SF`, `FN`/`FNDA`
/// (demangled names), `FNF`/`FNH`, `DA`, `LF`/`LH`, `end_of_record`.
///
/// `DA` lines are the line view and equal those of `llvm-cov export -format=lcov`; `FNF`/`FNH`
/// are llvm-cov's function numbers. `LF`/`LH` are the number of `DA` lines and of those that
/// ran — the line view — where llvm-cov writes its summary numbers: genhtml, Codecov and
/// Coveralls count the `DA` lines themselves, so any other `LF` would contradict what they show.
package enum LcovReport {
    /// Writes `report` as an lcov tracefile.
    package static func write(_ report: CoverageReport, to text: inout OutputBuffer) throws(CoverageInputError) {
        let functions = report.exportedFunctions()
        for (index, file) in report.files.enumerated() {
            let lines = try file.lineCounts()
            text += "SF:" + field(file.displayPath) + "\n"
            for function in functions[index] {
                text += "FN:\(function.line),\(name(function.name))\n"
            }
            for function in functions[index] {
                text += "FNDA:\(function.executionCount),\(name(function.name))\n"
            }
            text += "FNF:\(functions[index].count)\n"
            text += "FNH:\(functions[index].lazy.filter { $0.executionCount > 0 }.count)\n"
            for line in lines {
                text += "DA:\(line.line),\(line.count)\n"
            }
            let metric = lines.metric
            text += "LF:\(metric.count)\nLH:\(metric.covered)\nend_of_record\n"
        }
    }

    /// A value that ends its line: control characters (a newline would start a record of its
    /// own) become U+FFFD, as on a terminal. The format has no escapes.
    static func field(_ text: String) -> String {
        text.terminalSafe
    }

    /// A function name for `FN`/`FNDA`. genhtml 1.x takes a name up to its first comma, so that
    /// `f(Swift.Int, Swift.Int)` and `f(Swift.Int, Swift.String)` would become one function:
    /// commas are written as U+201A (‚), which reads the same.
    static func name(_ text: String) -> String {
        field(text).replacing(",", with: "\u{201A}")
    }
}
