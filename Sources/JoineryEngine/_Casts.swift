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
