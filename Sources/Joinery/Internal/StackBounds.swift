internal import JoineryPlatform

/// The calling thread's stack, so a deep resolution can stop with an error before it overflows.
///
/// Read once per top-level resolve, and only when the chain gets deep.
enum StackBounds {
  /// Space kept free below the deepest frame: enough for the factories still to run and for
  /// building the error report.
  static let reserve: UInt = 96 << 10

  /// The lowest address the stack may grow to, plus the reserve; `0` when unknown.
  static func currentLimit() -> UInt {
    var low: UInt = 0
    var high: UInt = 0
    guard joinery_current_stack_bounds(&low, &high) == 1, high > low + reserve else { return 0 }
    return low + reserve
  }

  /// An address in the caller's frame.
  @inline(never)
  static func currentPosition() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
  }
}
