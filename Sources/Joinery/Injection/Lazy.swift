internal import JoineryEngine

/// Resolves a binding once, on first access, from a container it holds weakly, and keeps the
/// instance.
///
/// Like ``Provider``, any bound type can be asked for as `Lazy` without registration, and a lazy
/// parameter breaks cycles.
///
/// ```swift
/// final class Settings {
///   let storage: Lazy<DiskStorage>
///   init(storage: Lazy<DiskStorage>) { self.storage = storage }
///   func save() throws { try storage.get().write() }  // built on first use
/// }
/// ```
///
/// The first `get()` from several threads at once resolves once. After it succeeds, the
/// instance is kept by the `Lazy` (not the container); before, the container is held weakly.
///
/// A `Lazy` made while a resolution runs (an initializer parameter) remembers the `graph`
/// instances of that resolution, weakly, and `get()` resolves into them: a back-reference under
/// the ``Lifetime/graph`` lifetime is the instance of the same graph, as with Swinject's `Lazy`.
///
/// ```swift
/// final class Parent { let child: Child; init(child: Child) { self.child = child } }
/// final class Child { let parent: Lazy<Parent>; init(parent: Lazy<Parent>) { self.parent = parent } }
/// registrar.bind(Parent.self, lifetime: .graph, to: Parent.init(child:))
/// registrar.bind(Child.self, lifetime: .graph, to: Child.init(parent:))
///
/// let parent = try container.resolve(Parent.self)
/// try parent.child.parent.get() === parent  // true
/// ```
///
/// The `Lazy` keeps nothing of the graph alive. A back-reference — an instance of the graph it
/// was made in, such as the parent above — is kept weakly after `get()`, so parent and child
/// never keep each other alive; once that instance is gone, `get()` resolves a new graph. An
/// instance the `Lazy` made itself is kept, as always.
public final class Lazy<Value> {
  private let provider: Provider<Value>
  private let value = Protected<Kept>(.nothing)
  /// The `graph` instances of the resolution this `Lazy` was made in, kept weakly.
  private let graph: _GraphMemory?

  init(provider: Provider<Value>, graph: _GraphMemory? = nil) {
    self.provider = provider
    self.graph = graph
  }

  /// The instance, resolved on the first call and kept afterwards.
  ///
  /// ```swift
  /// let storage = try settings.storage.get()
  /// ```
  ///
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError`` from the first resolve (a later call tries again).
  public func get() throws(ResolutionError) -> Value {
    let (provider, graph) = (self.provider, self.graph)
    return try resolveOnce { () throws(ResolutionError) in try provider.get(inGraph: graph) }
  }

  /// The kept instance, or the one `resolve` makes, kept: at most one resolve at a time.
  private func resolveOnce(
    _ resolve: () throws(ResolutionError) -> (value: Value, isBackReference: Bool)
  ) throws(ResolutionError) -> Value {
    let once = { (kept: inout Kept) throws(ResolutionError) -> Value in
      if let value = kept.value { return value }
      let (made, isBackReference) = try resolve()
      // An instance of the graph this Lazy was made in points back up that graph: keeping it
      // strongly would make the two keep each other alive.
      kept = isBackReference ? .weak(WeakObject(made as AnyObject)) : .strong(made)
      return made
    }
    // Inside a factory, never wait for another thread's first resolve (see `Injected`): it
    // could deadlock, or be this thread's own cycle, which resolving reports.
    if _ThreadState.isResolving {
      if let kept = try value.withLockIfAvailable(once) { return kept }
      return try resolve().value
    }
    return try value.withLock(once)
  }
}

extension Lazy {
  /// What a `Lazy` keeps of the instance it resolved.
  private enum Kept {
    case nothing
    case strong(Value)
    /// A back-reference into the graph it was made in, kept weakly.
    case weak(WeakObject)

    /// The kept instance, if there is one (still).
    var value: Value? {
      switch self {
      case .nothing: return nil
      case .strong(let value): return value
      case .weak(let reference): return reference.object as? Value
      }
    }
  }

  /// A weak reference to a back-reference's object.
  private final class WeakObject {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
  }
}

extension Lazy: Sendable where Value: Sendable {}

extension Lazy: DerivedFromContainer {
  static var wrappedType: Any.Type { Value.self }
  static var remembersGraph: Bool { true }
  static var canAwait: Bool { false }
  static func derive(
    from container: Container, tag: BindingTag?, graph: _GraphMemory?, scope: Scope?,
    privateTarget: AnyBinding?
  ) -> Self {
    Self(
      provider: Provider(
        container: container, tag: tag, scope: scope, privateTarget: privateTarget),
      graph: graph)
  }
}
