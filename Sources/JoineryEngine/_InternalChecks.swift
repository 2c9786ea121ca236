/// Checks of the engine's internal contracts, compiled in only when the package is built with
/// `-Xswiftc -DJOINERY_INTERNAL_CHECKS` (CI runs its AddressSanitizer job so); otherwise they
/// cost nothing.
///
/// A failed check stops the program with `message`: it is a bug in Joinery, never in its user.
///
/// Inlinable, so that the engine's inlinable code checks its typed contracts too (and, without
/// the flag, inlines to nothing in client code).
@inlinable @inline(__always)
package func _internalCheck(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  #if JOINERY_INTERNAL_CHECKS
    if !condition() {
      preconditionFailure("Joinery internal check failed: \(message())", file: file, line: line)
    }
  #endif
}

/// Whether this build compiled the internal checks in (``_internalCheck(_:_:file:line:)``).
package var _internalChecksEnabled: Bool {
  #if JOINERY_INTERNAL_CHECKS
    true
  #else
    false
  #endif
}
