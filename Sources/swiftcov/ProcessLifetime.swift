/// What lives as long as the process.
enum ProcessLifetime {
    /// Keeps `value` until the process exits instead of freeing it now: a command about to end
    /// need not free a run of a million test cases one by one (`clang -disable-free` does the
    /// same with its syntax trees). Only for values a command holds once, at its end.
    static func keepUntilExit<Value>(_ value: consuming Value) {
        _ = Unmanaged.passRetained(Kept(value))
    }

    private final class Kept<Value> {
        let value: Value
        init(_ value: consuming Value) { self.value = value }
    }
}
