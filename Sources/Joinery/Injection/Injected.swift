public import JoineryEngine

/// A property resolved from a container the first time it is read.
///
/// The container is named explicitly, or is the task's ``Container/current`` container at the
/// first read — never an implicit global. The first read from several threads at once resolves
/// once; the instance is kept by the wrapper afterwards. Reading never mutates the enclosing
/// value, so it works in structs without `mutating get`.
///
/// ```swift
/// struct FeedScreen {
///   @Injected var feed: FeedService                 // from Container.current
///   @Injected(tag: "audit") var log: EventLog
///   @Injected(from: App.container) var clock: Clock  // explicit
/// }
///
/// try container.withCurrent { try FeedScreen().feed.headlines() }
/// ```
///
/// Reading `wrappedValue` when nothing can be resolved stops the program with the property's
/// file and line; read `$feed.get()` to get the ``ResolutionError`` instead.
///
/// > Note: Swift 6 forbids property wrappers in a `Sendable` class (their storage is a `var`).
/// > There, keep the wrapper as a constant instead: `let feed = Injected<FeedService>()`, and
/// > read `feed.wrappedValue` or `try feed.get()`. Actors, main-actor classes and structs can use
/// > `@Injected` directly.
@propertyWrapper
public final class Injected<Value> {
  /// Word 0 is set, releasing, once `value` is stored; `value` never changes afterwards.
  ///
  /// Read and written only atomically, and first, as ``_AtomicWordsHolder`` requires.
  private var atomicWords: UInt = 0
  private weak var explicitContainer: Container?
  private let hasExplicitContainer: Bool
  private let tag: BindingTag?
  private let location: BindingLocation
  private let lock = _Lock.make()
  // Written once under `lock` before `isResolved` is published; read freely after.
  @usableFromInline @safe @exclusivity(unchecked) nonisolated(unsafe) var value: Value?

  /// A property resolved on first read: from `container` when one is named, else from the
  /// task's ``Container/current`` container.
  ///
  /// A named container is held weakly.
  ///
  /// ```swift
  /// @Injected var feed: FeedService                  // the current container
  /// @Injected(tag: "audit") var log: EventLog         // tagged (falls back to untagged)
  /// @Injected(from: App.container) var clock: Clock   // a named container
  /// ```
  ///
  /// - Parameters:
  ///   - container: The container to resolve from; `nil` (the default) for the current one.
  ///   - tag: The binding's tag, if any (falls back to untagged).
  ///   - fileID: Captured for the error when nothing can be resolved.
  ///   - line: Captured for the error when nothing can be resolved.
  public init(
    from container: Container? = nil, tag: (any Hashable & Sendable)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    explicitContainer = container
    hasExplicitContainer = container != nil
    self.tag = BindingTag(optional: tag)
    location = BindingLocation(file: fileID, line: line)
    _checkAtomicWordsLayout(&atomicWords)
  }

  /// The instance, resolved on the first read.
  @inlinable
  public var wrappedValue: Value {
    do {
      return try get(isolation: nil)
    } catch {
      stop(error)
    }
  }

  @usableFromInline
  func stop(_ error: ResolutionError) -> Never {
    preconditionFailure("@Injected property at \(location): \(error.debugDescription)")
  }

  /// The wrapper itself, for `$property.get()`.
  public var projectedValue: Injected<Value> { self }

  /// The instance, resolved on the first call and kept afterwards.
  ///
  /// ```swift
  /// let feed = try screen.$feed.get()
  /// ```
  ///
  /// Reading `wrappedValue` cannot know its caller's isolation; `get()` can. Where main-actor
  /// code may run off the main thread (a `@MainActor` test on Linux), read a main-actor
  /// binding's property with `try $property.get()`.
  ///
  /// - Parameter isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor
  ///   binding may be made when it is the main actor.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``; ``ResolutionError/Code/noCurrentContainer`` when no
  ///   container is named or current, ``ResolutionError/Code/shutDown`` when the named
  ///   one is gone.
  @inlinable
  public func get(isolation: isolated (any Actor)? = #isolation) throws(ResolutionError) -> Value {
    if _loadAcquiring(0) != 0, let value { return value }
    return try resolveOnce(isolation)
  }

  /// Resolves under the wrapper's lock, so threads reading first at once resolve once.
  ///
  /// A read from inside a factory never waits for that lock: the thread may hold creation gates the
  /// resolving thread needs (a wait that could deadlock), or be that thread, reading the
  /// property from the factory it is running (a cycle). It resolves without the lock instead,
  /// which reports the cycle, if there is one, with its path.
  @usableFromInline @inline(never)
  func resolveOnce(_ isolation: isolated (any Actor)?) throws(ResolutionError) -> Value {
    if _ThreadState.isResolving {
      guard lock.tryLock() else { return try resolve(isolation) }
    } else {
      lock.lock()
    }
    defer { lock.unlock() }
    if let value { return value }
    let made = try resolve(isolation)
    value = made
    _storeReleasing(0, 1)
    return made
  }

  private func resolve(_ isolation: isolated (any Actor)?) throws(ResolutionError) -> Value {
    let key = BindingKey(Value.self, boxed: tag)
    let container: Container
    if hasExplicitContainer {
      guard let explicitContainer else { throw .containerReleased(key) }
      container = explicitContainer
    } else {
      guard let current = Container.current else {
        throw .noCurrentContainer(key, location: location)
      }
      container = current
    }
    return try container.resolve(Value.self, tag: tag, isolation: isolation)
  }
}

// The instance is created under `lock` and published once through atomic word 0.
extension Injected: @unchecked Sendable where Value: Sendable {}

extension Injected: _AtomicWordsHolder {}
