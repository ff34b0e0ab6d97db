extension Array {
    /// Removes every element and keeps the storage, for scratch buffers emptied once per record
    /// of a large export. `removeAll(keepingCapacity: true)` goes through `replaceSubrange`, a
    /// call that costs more than the few elements such a buffer mostly holds; those are removed
    /// one by one instead.
    @inlinable @inline(__always)
    package mutating func removeAllKeepingStorage() {
        if count > 8 {
            removeAll(keepingCapacity: true)
        } else {
            while !isEmpty { removeLast() }
        }
    }
}
