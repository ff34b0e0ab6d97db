/// Sums of money in cents, and a process-wide registry of currencies (shared, unguarded state).
public enum Ledger {
    public static func total(_ amounts: [Int]) -> Int { amounts.reduce(0, +) }

    public static func average(_ amounts: [Int]) -> Int { amounts.isEmpty ? 0 : total(amounts) / amounts.count }

    /// Formats cents as "12.34".
    public static func format(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let value = abs(cents)
        let fraction = value % 100
        return "\(sign)\(value / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Upper-cases an ASCII currency code; with CAMPAIGN_LOCALE=tr, as a Turkish locale would, `i` becomes `İ`.
    public static func currencyCode(_ code: String, locale: String?) -> String {
        guard locale == "tr" else { return code.uppercased() }
        return String(code.map { $0 == "i" ? "İ" : Character($0.uppercased()) })
    }

    nonisolated(unsafe) public static var currencies: [String: Int] = [:]

    public static func registerCurrencies() {
        currencies = ["EUR": 2, "JPY": 0, "USD": 2]
    }

    public static func digits(of currency: String) -> Int? { currencies[currency] }
}
