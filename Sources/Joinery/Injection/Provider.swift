/// Resolves a binding on each call, from a container it holds weakly.
///
/// Any bound type can be asked for as a `Provider` without registering anything more: resolve
/// `Provider<FeedService>`, or take one as an autowired parameter. A provider parameter does not
/// create its dependency when the consumer is built, so it breaks a dependency cycle, and
/// `build()` checks the provided binding exists without counting the edge in cycles.
///
/// ```swift
/// final class Inbox {
///   let messages: Provider<MessageStore>
///   init(messages: Provider<MessageStore>) { self.messages = messages }
///   func refresh() throws { try messages.get().reload() }
/// }
/// registrar.bind(Inbox.self, lifetime: .persistent, to: Inbox.init(messages:))
/// ```
///
/// A provider keeps its container weakly, so an instance holding one never keeps the container
/// alive; calling it after the container is gone throws ``ResolutionError/Code/containerReleased``.
public struct Provider<Value>: Sendable {
  weak var container: Container?
  let tag: BindingTag?

  init(container: Container, tag: BindingTag?) {
    self.container = container
    self.tag = tag
  }

  /// Resolves the binding now, with its lifetime: a new instance for an ephemeral binding, the
  /// shared one for a persistent binding.
  ///
  /// ```swift
  /// let store = try messages.get()
  /// ```
  ///
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``, including ``ResolutionError/Code/containerReleased``.
  public func get() throws(ResolutionError) -> Value {
    guard let container else { throw .containerReleased(BindingKey(Value.self, boxed: tag)) }
    if let tag { return try container.resolve(Value.self, tag: tag) }
    return try container.resolve(Value.self)
  }
}

extension Provider {
  /// Resolves the binding in a new resolution that starts with `graph`'s remembered instances,
  /// or as ``get()`` does without one, or inside a factory (where it joins the running chain);
  /// also says whether the instance is one of the remembered ones (a back-reference).
  func get(
    inGraph graph: _GraphMemory?
  ) throws(ResolutionError) -> (value: Value, isBackReference: Bool) {
    guard let graph, !_ThreadState.isResolving else { return (try get(), false) }
    guard let container else { throw .containerReleased(BindingKey(Value.self, boxed: tag)) }
    return try _GraphMemory.resolve(Value.self, tag: tag, in: container, memory: graph)
  }
}

extension Provider: DerivedFromContainer {
  static var wrappedType: Any.Type { Value.self }
  static var remembersGraph: Bool { false }
  static func derive(
    from container: Container, tag: BindingTag?, graph: _GraphMemory?
  ) -> Provider<Value> {
    Provider(container: container, tag: tag)
  }
}
