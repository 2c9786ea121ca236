/// A cast whose test is one comparison of type metadata, for the resolve path: a dynamic cast
/// (`as?`) asks the runtime, tens of instructions, where this compares two pointers (and folds
/// away where the caller is specialized). It traps when its test fails, as `as!` would: the
/// caller has already established the type, so a failure is the library's bug, never a user's.

/// `value` as a `T` that is `Value` itself (the two metatypes equal): no cast at run time.
@inlinable @inline(__always)
package func _identical<Value, T>(_ value: Value, as _: T.Type) -> T {
  precondition(Value.self == T.self, "a value passed as another type")
  return unsafe unsafeBitCast(value, to: T.self)
}

/// A main-actor function of two borrowed values as a plain one, for a caller that calls it
/// only where it runs on the main actor.
///
/// The reasoning, and the cast, of `MainActor.assumeIsolated`, which its clients cannot use
/// where the values are not `Sendable`: its closure would carry them into the main actor's
/// region (an error under Swift 6). The two function types differ only in their isolation, so
/// they share one representation. Checking the isolation before each call
/// (`MainActor.preconditionIsolated`) cost 514 instructions a call on Linux.
///
/// Pass a function value of a concrete type, not a closure literal: a literal is compiled to
/// take its values the generic way, indirectly, and the function handed back keeps a thunk that
/// converts every call (about 19 instructions); a typed value's two conversions, there and
/// back, cancel out.
@inlinable @inline(__always)
package func _assumingMainActor<First: ~Copyable, Second: ~Copyable, Result>(
  _ function:
    @escaping @MainActor @Sendable (borrowing First, borrowing Second) throws -> Result
) -> @Sendable (borrowing First, borrowing Second) throws -> Result {
  unsafe unsafeBitCast(
    function, to: (@Sendable (borrowing First, borrowing Second) throws -> Result).self)
}
