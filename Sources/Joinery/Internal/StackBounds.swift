internal import JoineryPlatform

/// The calling thread's stack, so a deep resolution can stop with an error before it overflows.
///
/// Read once per top-level resolve, and only when the chain gets deep.
enum StackBounds {
  /// Space kept free below the deepest frame: enough for the factories still to run and for
  /// building the error report.
  static let reserve: UInt = 128 << 10

  /// The calling thread's stack: from its lowest address plus the reserve (`limit`) up to its
  /// highest address (`top`); `nil` when the platform does not tell.
  static func current() -> (limit: UInt, top: UInt)? {
    var low: UInt = 0
    var high: UInt = 0
    guard joinery_current_stack_bounds(&low, &high) == 1, high > low + reserve else { return nil }
    return (low + reserve, high)
  }

  /// The address of the caller's frame on the machine stack.
  @inline(__always)
  static func currentPosition() -> UInt {
    UInt(joinery_current_frame_address())
  }
}
