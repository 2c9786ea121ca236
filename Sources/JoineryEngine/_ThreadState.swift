public import JoineryPlatform

/// What the engine keeps per thread: the innermost frame of the resolution running on it, so a
/// nested top-level resolve (through `@Injected`, `Provider`, `Lazy` or a captured container)
/// joins that chain; and the thread's stack bounds, read once per thread, for the stack guard.
///
/// Never touched by a resolve that only reads a built instance.
@usableFromInline package enum _ThreadState {
  /// The innermost frame of the resolution running on the calling thread, or `nil`: the
  /// engine keeps its address and nothing else; what a frame is belongs to the resolver.
  @inlinable @inline(__always)
  package static var runningFrameAddress: UnsafeRawPointer? {
    unsafe joinery_thread().pointee.resolution
  }

  /// Whether a factory is running on the calling thread: it may hold creation gates, so it must
  /// never wait for another thread that may need them.
  @inlinable
  package static var isResolving: Bool { unsafe joinery_thread().pointee.resolution != nil }

  /// Whether this thread is creating a container-wide instance (see ``creatingShared(_:)``).
  @inlinable
  package static var isCreatingShared: Bool {
    unsafe joinery_thread().pointee.shared_creations != 0
  }

  /// Runs `body`, the creation of a container-wide instance, counted on this thread, so that
  /// the captive check walks a chain only while such a creation is under way.
  @inlinable
  package static func creatingShared<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    let state = unsafe joinery_thread().unsafelyUnwrapped
    unsafe state.pointee.shared_creations += 1
    defer { unsafe state.pointee.shared_creations -= 1 }
    return try body()
  }

  /// Whether the caller runs on the process's main thread: synchronous code there runs on the
  /// main actor, whether or not its caller said so.
  ///
  /// The caller's static isolation
  /// (``ResolutionContext/callerIsolation``) decides first; this covers callers that cannot
  /// pass it, such as an `@Injected` property's getter.
  @inlinable
  package static var isOnMainActor: Bool { joinery_is_main_thread() != 0 }

  /// Runs `body` with the frame at `frame` as the calling thread's running frame.
  @inlinable @inline(__always)
  package static func running<R, E: Error>(
    frameAt frame: UnsafeRawPointer, _ body: () throws(E) -> R
  ) throws(E) -> R {
    let state = unsafe joinery_thread().unsafelyUnwrapped
    let saved = unsafe state.pointee.resolution
    unsafe state.pointee.resolution = unsafe frame
    defer {
      unsafe _internalCheck(
        state.pointee.resolution == frame,
        "a nested resolution left its frame running")
      unsafe state.pointee.resolution = unsafe saved
    }
    return try body()
  }

  /// Runs `body` with no running frame: for work that must start a resolution of its own
  /// (a main-actor hop that returns to this thread's chain is not one).
  @inlinable @inline(__always)
  package static func detached<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    let state = unsafe joinery_thread().unsafelyUnwrapped
    let saved = unsafe state.pointee.resolution
    unsafe state.pointee.resolution = nil
    defer { unsafe state.pointee.resolution = unsafe saved }
    return try body()
  }

  /// The address of the caller's frame on the machine stack.
  @inlinable @inline(__always)
  package static var stackPosition: UInt { UInt(joinery_current_frame_address()) }

  /// The lowest stack address a resolution on this thread may reach before it stops with an
  /// error: the bottom of the stack plus a reserve for the factories still running and for
  /// building the report.
  ///
  /// The reserve scales with the stack — a quarter, between 32 KiB and 256 KiB; under
  /// ThreadSanitizer or AddressSanitizer half, from 96 KiB to 1 MiB, never more than three
  /// quarters — so the guard works on 128 KiB threads and leaves room for large frames on big
  /// ones. When the platform does not tell the bounds, or `position` is not on the thread's
  /// stack, a resolution may use 256 KiB below `position`.
  @inlinable @inline(__always)
  package static func stackLimit(from position: UInt) -> UInt {
    let state = unsafe joinery_thread().unsafelyUnwrapped
    let limit = unsafe state.pointee.stack_limit
    if limit != 0, position > limit, unsafe position <= state.pointee.stack_high { return limit }
    return unsafe computeStackLimit(from: position, state)
  }

  /// ``stackLimit(from:)`` the first time on a thread, or where the bounds are unknown or
  /// `position` is outside them.
  @inline(never)
  @usableFromInline package static func computeStackLimit(
    from position: UInt, _ state: UnsafeMutablePointer<joinery_thread_state>
  ) -> UInt {
    if unsafe state.pointee.stack_low == 0 { unsafe joinery_thread_read_stack(state) }
    let (low, high) = unsafe (state.pointee.stack_low, state.pointee.stack_high)
    guard high > low, position > low, position <= high else {
      return position > fallbackBudget ? position - fallbackBudget : 0
    }
    let size = high - low
    // Sanitizer builds (whose frames and runtime take several times the stack) keep half the
    // stack, at least 96 KiB.
    let reserve =
      joinery_is_sanitized() != 0
      ? Swift.min(Swift.max(size / 2, 96 << 10), 1 << 20)
      : Swift.min(Swift.max(size / 4, 32 << 10), 256 << 10)
    let limit = low + Swift.min(reserve, size / 4 * 3)
    unsafe state.pointee.stack_limit = limit
    return limit
  }

  /// The deepest a resolution may go, whatever the container allows.
  ///
  /// ThreadSanitizer's shadow call stack holds a fixed number of frames (each level of a
  /// resolution takes several), and overflowing it crashes the process whatever the thread's
  /// stack: 1,500 levels under it, `Int.max` elsewhere.
  @usableFromInline package static let sanitizerDepthLimit =
    joinery_is_thread_sanitized() != 0 ? 1_500 : Int.max

  /// How much stack a resolution may use below its start when the bounds are unknown.
  @usableFromInline package static let fallbackBudget: UInt = 256 << 10
}
