internal import JoineryEngine

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
/// alive; calling it after the container is gone throws ``ResolutionError/Code/shutDown``.
///
/// ### Scopes
///
/// A provider made inside a ``Scope`` — taken by a request handler resolved in the request's
/// scope, say — resolves in that scope: `get()` returns the scope's instance of a scoped binding,
/// and throws ``ResolutionError/Code/shutDown`` once the scope is closed, never handing out a
/// disposed instance. It keeps the scope weakly.
///
/// A provider held by a container-wide instance (persistent, cached or transient) belongs to no
/// scope, even when that instance happened to be made during a request: it would otherwise
/// keep that first request. Such a consumer passes the scope it serves:
///
/// ```swift
/// final class Permissions {  // persistent
///   let user: Provider<SignedInUser>  // scoped
///   init(user: Provider<SignedInUser>) { self.user = user }
///   func canEdit(in request: Scope) throws -> Bool { try user.get(in: request).isEditor }
/// }
/// ```
public struct Provider<Value>: Sendable {
  weak var container: Container?
  /// The scope this provider was made in, kept weakly.
  weak var scope: Scope?
  /// Whether it was made in a scope (which may since have been released).
  let isScoped: Bool
  let tag: BindingTag?
  /// The binding it makes when the module that asked for it keeps that binding private: not in
  /// the container's table, so not found by key from outside the module's factories.
  let privateTarget: AnyBinding?

  // Borrowed: a weak reference is formed from them, so a retain for the call would only be
  // undone (and a container held weakly pays the runtime's slow path for each).
  init(
    container: borrowing Container, tag: BindingTag?, scope: borrowing Scope? = nil,
    privateTarget: AnyBinding? = nil
  ) {
    self.container = copy container
    self.tag = tag
    self.scope = copy scope
    isScoped = scope != nil
    self.privateTarget = privateTarget
  }

  /// Resolves the binding now, with its lifetime: a new instance for an ephemeral binding, the
  /// shared one for a persistent binding; with `arguments`, a new instance from the binding
  /// that takes them.
  ///
  /// ```swift
  /// let store = try messages.get()
  ///
  /// struct Downloads {
  ///   let make: Provider<Download>
  ///   func start(_ url: URL) throws -> Download { try make.get(arguments: url) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - arguments: The runtime arguments of a binding that takes them, of the bound types, in
  ///     order; none for any other.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``, including ``ResolutionError/Code/shutDown`` when the
  ///   container (or the scope the provider was made in) no longer exists.
  public func get<each Argument>(
    arguments: repeat each Argument, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> Value {
    if let privateTarget, _isEmpty(repeat (each Argument).self) {
      return try point(isolation: isolation).run(Value.self, tag: tag) {
        container, context throws(ResolutionError) in
        try container.instance(of: privateTarget, as: Value.self, parent: context, fallbackTag: nil)
      }
    }
    if isScoped {
      return try madeInScope().resolve(
        Value.self, tag: tag, arguments: repeat each arguments, isolation: isolation)
    }
    guard let container else { throw .containerReleased(BindingKey(Value.self, boxed: tag)) }
    return try container.resolve(
      Value.self, tag: tag, arguments: repeat each arguments, isolation: isolation)
  }

  /// Where a request of this provider enters: its scope, else its container, both open.
  func point(isolation: (any Actor)?) throws(ResolutionError) -> _RequestPoint {
    if isScoped {
      return try madeInScope()._requestPoint(
        for: Value.self, isolation: isolation, checkingOpen: true)
    }
    guard let container else { throw .containerReleased(BindingKey(Value.self, boxed: tag)) }
    return try container._requestPoint(for: Value.self, isolation: isolation, checkingOpen: true)
  }

  /// Resolves the binding now in `scope`: the scope's instance of a scoped binding.
  ///
  /// For a longer-lived consumer that serves many scopes, and is handed the one it works for:
  ///
  /// ```swift
  /// func canEdit(in request: Scope) throws -> Bool { try user.get(in: request).isEditor }
  /// ```
  ///
  /// - Parameters:
  ///   - scope: The scope to resolve in; it must belong to this provider's container or a
  ///     child of it.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`).
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``; ``ResolutionError/Code/shutDown`` if the scope is closed.
  public func get(
    in scope: Scope, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> Value {
    try scope.resolve(Value.self, tag: tag, isolation: isolation)
  }

  /// The scope this provider was made in, or the error for one that is gone.
  func madeInScope() throws(ResolutionError) -> Scope {
    guard let scope else {
      throw ResolutionError(
        .shutDown, requested: BindingKey(Value.self, boxed: tag),
        path: [ResolutionStep(requested: BindingKey(Value.self, boxed: tag), binding: nil)],
        detail: "The scope was closed: the Provider was made in a scope that no longer exists.",
        container: container)
    }
    return scope
  }
}

extension Provider {
  /// Resolves the binding in a new resolution that starts with `graph`'s remembered instances,
  /// or as ``get()`` does without one, or inside a factory (where it joins the running chain);
  /// also says whether the instance is one of the remembered ones (a back-reference).
  func get(
    inGraph graph: _GraphMemory?
  ) throws(ResolutionError) -> (value: Value, isBackReference: Bool) {
    guard let graph, !_ThreadState.isResolving else { return (try get(isolation: nil), false) }
    guard let container else { throw .containerReleased(BindingKey(Value.self, boxed: tag)) }
    let scope = isScoped ? try madeInScope() : nil
    if let scope { try scope.checkOpen(Value.self) }
    return try _GraphMemory.resolve(
      Value.self, tag: tag, in: container, scope: scope, memory: graph, target: privateTarget)
  }
}

extension Provider where Value: Sendable {
  /// Resolves the binding now, awaiting it: for a binding with an async factory (`bindAsync`),
  /// which ``get(arguments:isolation:)`` cannot make, or a main-actor binding from any thread.
  ///
  /// It follows the same rules as `get()`: the binding's lifetime, this provider's tag, and
  /// the scope the provider was made in (refused once that scope is closed).
  ///
  /// ```swift
  /// final class ReportScreen {
  ///   let database: Provider<Database>  // bound with bindAsync: opens a file
  ///   init(database: Provider<Database>) { self.database = database }
  ///   func export() async throws { try await database.getAsync().export() }
  /// }
  /// ```
  ///
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``, including ``ResolutionError/Code/shutDown``.
  public func getAsync() async throws(ResolutionError) -> Value {
    if let privateTarget {
      let point = try point(isolation: nil)
      let container = point.retainedContainer
      guard let async = privateTarget.asyncFactory else {
        return try point.run(Value.self, tag: tag) { container, context throws(ResolutionError) in
          try container.instance(
            of: privateTarget, as: Value.self, parent: context, fallbackTag: nil)
        }
      }
      let instance = try await container.awaitInstance(
        of: async, path: nil, scope: point.requestScope)
      do {
        return try UnexpectedValueType.cast(instance, to: Value.self)
      } catch {
        throw Container.PendingAsync.mismatch(of: async, instance, in: container, path: nil)
      }
    }
    if isScoped { return try await madeInScope().resolveAsync(Value.self, tag: tag) }
    guard let container else { throw .containerReleased(BindingKey(Value.self, boxed: tag)) }
    return try await container.resolveAsync(Value.self, tag: tag)
  }
}

extension Provider: DerivedFromContainer {
  static var wrappedType: Any.Type { Value.self }
  static var remembersGraph: Bool { false }
  static var canAwait: Bool { true }
  static func derive(
    from container: Container, tag: BindingTag?, graph: _GraphMemory?, scope: Scope?,
    privateTarget: AnyBinding?
  ) -> Provider<Value> {
    Provider(container: container, tag: tag, scope: scope, privateTarget: privateTarget)
  }
}
