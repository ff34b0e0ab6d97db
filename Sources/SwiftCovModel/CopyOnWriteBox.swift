/// Copy-on-write storage for what most values leave empty (a test case's issues and output):
/// the holder keeps an optional box, nil while there is nothing; copies of the holder share the
/// box, and a change first makes it the holder's own (`unique`). A run of a million tests holds
/// a pointer per test, not the empty fields.
package final class CopyOnWriteBox<Value>: @unchecked Sendable {
    // Changed only while uniquely referenced, never while being read: no access can overlap, so
    // the run-time exclusivity check (two runtime calls an access) is left out. (Shared boxes are
    // never changed, which is also what makes them safe to send.)
    @exclusivity(unchecked) package var value: Value

    @inlinable package init(_ value: Value) { self.value = value }

    /// `box` made ready for a change: itself when its holder is the only one, else a copy (or a
    /// new box of `empty()` when there was none).
    @inlinable package static func unique(_ box: inout CopyOnWriteBox?, empty: () -> Value) -> CopyOnWriteBox {
        if isKnownUniquelyReferenced(&box), let box { return box }
        let fresh = CopyOnWriteBox(box?.value ?? empty())
        box = fresh
        return fresh
    }
}
