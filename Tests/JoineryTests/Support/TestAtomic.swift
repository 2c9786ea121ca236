import Foundation

/// A value read and written under an `NSLock`, with the method shapes of
/// `Synchronization.Atomic` that the tests use. The tests avoid `Synchronization` so that they
/// build wherever the library deploys (it needs macOS 15 / iOS 18), and ThreadSanitizer
/// understands `NSLock` on every platform.
final class TestAtomic<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func load(ordering: TestOrdering) -> Value {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  func store(_ newValue: Value, ordering: TestOrdering) {
    lock.lock()
    defer { lock.unlock() }
    value = newValue
  }
}

extension TestAtomic where Value: Numeric {
  @discardableResult
  func add(_ delta: Value, ordering: TestOrdering) -> (oldValue: Value, newValue: Value) {
    lock.lock()
    defer { lock.unlock() }
    let old = value
    value += delta
    return (old, value)
  }

  @discardableResult
  func subtract(_ delta: Value, ordering: TestOrdering) -> (oldValue: Value, newValue: Value) {
    add(0 - delta, ordering: ordering)
  }
}

/// The orderings the tests name; a lock gives them all.
enum TestOrdering {
  case relaxed, acquiring, releasing, acquiringAndReleasing, sequentiallyConsistent
}
