public import JoineryEngine

/// A property resolved from a container the first time it is read.
///
/// The container is the one named, else the one the enclosing object was made in: the
/// container whose factory (sync or async) ran its initializer, with that resolution's scope,
/// even when another container's factory asked for the object; or the task's
/// ``Container/current`` container there. The wrapper remembers it (weakly), so a property
/// first read later — in a tap handler, a callback — resolves from the same container. Only a
/// wrapper made outside all of them reads ``Container/current`` at its first read. Never an
/// implicit global.
///
/// The first read from several threads at once resolves once; the instance is kept by the
/// wrapper afterwards. Reading never mutates the enclosing value, so it works in structs
/// without `mutating get`.
///
/// ```swift
/// final class FeedScreen {
///   @Injected var feed: FeedService                 // the container FeedScreen is made in
///   @Injected(tag: "audit") var log: EventLog
///   @Injected(from: App.container) var clock: Clock  // explicit
///
///   func refreshTapped() throws { try feed.reload() }  // read later: same container
/// }
///
/// let screen = try container.withCurrent { FeedScreen() }  // or bound and resolved
/// try screen.refreshTapped()
/// ```
///
/// Assigning the property replaces the instance (a test's mock), as Factory's `@Injected`
/// allows: `screen.feed = MockFeed()`.
///
/// A getter cannot throw: reading `wrappedValue` when nothing can be resolved stops the program
/// with the property's file and line and what to change. Read `try $feed.get()` to get the
/// ``ResolutionError`` instead, and avoid first reads inside an initializer (take the dependency
/// as an initializer parameter there): a failure there cannot be reported as an error, not even
/// by ``Container/verify(arguments:isolation:)``.
///
/// > Note: Swift 6 forbids property wrappers in a `Sendable` class (their storage is a `var`).
/// > There, keep the wrapper as a constant instead: `let feed = Injected<FeedService>()`, and
/// > read `feed.wrappedValue` or `try feed.get()`. Actors, main-actor classes and structs can use
/// > `@Injected` directly.
@propertyWrapper
public final class Injected<Value> {
  /// Word 0 is 1, releasing, once `value` is stored (`value` never changes afterwards), and 2
  /// once an instance was assigned (`assigned`, read under its own lock from then on).
  ///
  /// Read and written only atomically, and first, as ``_AtomicWordsHolder`` requires.
  private var atomicWords: UInt = 0
  /// Word 1: the assigned instance's box (`Protected<Value?>`), made by the first assignment.
  ///
  /// A wrapper never assigned costs no allocation for it. Its lock is never held across a
  /// resolve: a read inside a factory may wait for it.
  private var assignmentWord: UInt = 0
  /// The container named or remembered at `init`; `nil` once it is gone, or if there was none.
  private weak var container: Container?
  /// The scope of the resolution that made the enclosing object, if any.
  private weak var scope: Scope?
  private let source: Source
  private let tag: BindingTag?
  private let location: BindingLocation
  private let lock = _Lock.make()
  // Written once under `lock` before word 0 is published; read freely after.
  @usableFromInline @safe @exclusivity(unchecked) nonisolated(unsafe) var value: Value?

  /// Where the wrapper resolves from.
  private enum Source {
    /// The container named at `init`.
    case named
    /// The container (and, with `inScope`, the scope) the enclosing object was made in.
    case remembered(inScope: Bool)
    /// None was known at `init`: ``Container/current`` at the first read.
    case current
  }

  /// A property resolved on first read: from `container` when one is named, else from the
  /// container the enclosing object is made in.
  ///
  /// That is the container (and scope) of the resolution running this initializer, else the
  /// task's ``Container/current`` container; the wrapper keeps it, weakly, for later reads.
  ///
  /// ```swift
  /// @Injected var feed: FeedService                  // where the object is made
  /// @Injected(tag: "audit") var log: EventLog         // tagged (falls back to untagged)
  /// @Injected(from: App.container) var clock: Clock   // a named container
  /// ```
  ///
  /// - Parameters:
  ///   - container: The container to resolve from; `nil` (the default) for the one the
  ///     enclosing object is made in.
  ///   - tag: The binding's tag, if any (falls back to untagged).
  ///   - fileID: Captured for the error when nothing can be resolved.
  ///   - line: Captured for the error when nothing can be resolved.
  public init(
    from container: Container? = nil, tag: (any Hashable & Sendable)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    if let container {
      self.container = container
      source = .named
    } else if let running = ResolutionContext.running {
      self.container = running.container
      scope = running.scope
      source = .remembered(inScope: running.scope != nil)
    } else if let node = AsyncPath.joining(nil), let made = node.container {
      // Made by an async factory.
      self.container = made
      scope = node.requestScope
      source = .remembered(inScope: node.requestScope != nil)
    } else if let current = Container.current {
      self.container = current
      source = .remembered(inScope: false)
    } else {
      source = .current
    }
    self.tag = BindingTag(optional: tag)
    location = BindingLocation(file: fileID, line: line)
    _checkAtomicWordsLayout(&atomicWords)
  }

  /// The instance, resolved on the first read; assigning replaces it.
  @inlinable
  public var wrappedValue: Value {
    get {
      do {
        return try get(isolation: nil)
      } catch {
        stop(error)
      }
    }
    set { assign(newValue) }
  }

  @usableFromInline
  func stop(_ error: ResolutionError) -> Never {
    let change =
      switch error.code {
      case .noCurrentContainer:
        "Make the object that declares it in a resolution or inside container.withCurrent "
          + "{ … }, or name the container: @Injected(from: container)."
      case .shutDown:
        "Keep the container the object was made with alive (and not shut down) while the "
          + "object is used."
      default:
        "Bind what the report above asks for, or read the property with try $property.get() "
          + "to handle the error."
      }
    preconditionFailure(
      """
      @Injected property at \(location) could not be resolved, and a property getter cannot \
      throw, so the program stops.
      \(error.debugDescription)
      To fix the property: \(change)
      """)
  }

  @usableFromInline
  func assign(_ newValue: Value) {
    lock.lock()
    defer { lock.unlock() }
    _lazyObject(1) { Protected<Value?>(nil) }.withLock { $0 = newValue }
    _storeReleasing(0, 2)
  }

  /// The instance assigned last, if any.
  private var assigned: Value? {
    guard _loadAcquiring(0) == 2 else { return nil }
    return _existingLazyObject(1, as: Protected<Value?>.self)?.withLock { $0 }
  }

  deinit { _releaseLazyObject(1, as: Protected<Value?>.self) }

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
  ///   container is named, remembered or current, ``ResolutionError/Code/shutDown`` when the
  ///   one it resolves from is gone.
  @inlinable
  public func get(isolation: isolated (any Actor)? = #isolation) throws(ResolutionError) -> Value {
    if _loadAcquiring(0) == 1, let value { return value }
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
      guard lock.tryLock() else {
        // Another thread holds the lock, resolving or reading an assigned instance: that
        // instance is still the property's.
        if let assigned { return assigned }
        return try resolve(isolation)
      }
    } else {
      lock.lock()
    }
    defer { lock.unlock() }
    if let assigned { return assigned }
    if let value { return value }
    let made = try resolve(isolation)
    value = made
    _storeReleasing(0, 1)
    return made
  }

  private func resolve(_ isolation: isolated (any Actor)?) throws(ResolutionError) -> Value {
    let key = BindingKey(Value.self, boxed: tag)
    switch source {
    case .named, .remembered(inScope: false):
      guard let container else { throw .containerReleased(key) }
      return try container.resolve(Value.self, tag: tag, isolation: isolation)
    case .remembered(inScope: true):
      guard let scope else { throw .containerReleased(key) }
      return try scope.resolve(Value.self, tag: tag, isolation: isolation)
    case .current:
      guard let current = Container.current else {
        throw .noCurrentContainer(key, location: location)
      }
      return try current.resolve(Value.self, tag: tag, isolation: isolation)
    }
  }
}

// The instance is created under `lock` and published once through atomic word 0.
extension Injected: @unchecked Sendable where Value: Sendable {}

extension Injected: _AtomicWordsHolder {}
