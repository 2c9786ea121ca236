internal import JoineryEngine

/// One unit of work — a server request, a job, a screen's session — in which every `scoped`
/// binding has one instance, made on first use and disposed by ``close()``.
///
/// A scope is cheap: making one builds and checks nothing (the container's `build()` already
/// checked every scoped binding), and it keeps only the scoped instances it made. Everything
/// else resolves as in its container: persistent instances are the container's, ephemeral ones
/// are new, and the dependencies of a scoped binding resolve in the same scope.
///
/// ```swift
/// registrar.bindScopeValue(Request.self)
/// registrar.bind(UnitOfWork.self, lifetime: .scoped, dispose: { try await $0.rollBackIfOpen() },
///   to: UnitOfWork.init(pool:))
/// registrar.bind(OrderHandler.self, to: OrderHandler.init(request:work:))
///
/// let scope = try container.makeScope { values in values.provide(request) }
/// let handler = try scope.resolve(OrderHandler.self)
/// try await handler.run()
/// try await scope.close()  // disposes the unit of work
/// ```
///
/// A scope is `Sendable`: the tasks of one request may resolve from it at once, and each scoped
/// instance is still made exactly once.
public final class Scope: Sendable {
  /// The container the scope was made from.
  @usableFromInline let container: Container
  /// The disposals of the instances this scope made, whether it was closed, and its
  /// instances: for each scoped binding used, an ``InstanceHome`` where the binding makes the
  /// scope's instance exactly once, as it makes a persistent one in its own.
  @usableFromInline let disposals = DisposalList()
  /// Where the container keeps this scope's list until it closes; `nil` if the container had
  /// shut down.
  private let registration: Int?

  init(container: Container, homes: [DisposalList.ScopedHome]) {
    self.container = container
    if !homes.isEmpty { disposals.addHomes(homes) }
    // The container's shutdown closes its open scopes first.
    registration = container.disposals.register(scope: disposals)
  }

  deinit {
    guard !disposals.isClosed else { return }  // closed, as every request's scope is
    // Disposed as close() would, in a task the container's shutdown() waits for: a forgotten
    // close() must not keep a connection or a transaction open for the life of the process.
    // Started before the scope leaves the container's list, so that a shutdown running now
    // either waits for that task or, having taken this scope to close, waits for it too.
    guard
      let undisposed = disposals.closeReleased(
        countingIn: container.disposals,
        context: "disposing what a Scope released without close() made")
    else { return }
    container.disposals.unregister(scope: disposals, slot: registration)
    guard !undisposed.isEmpty else { return }
    container.reportUnclosedScope(
      """
      Joinery: a Scope was released without close(); its \(undisposed.count) instance\
      \(undisposed.count == 1 ? " is" : "s are") disposed now, without awaiting: \
      \(undisposed.map { "\($0.key) (bound at \($0.location))" }.joined(separator: ", ")). \
      Call `try await scope.close()` when the unit of work ends, to await the disposal and \
      catch its errors.
      """)
  }

  /// Writes `binding`'s instance in this scope into `out`, making it on first use.
  func instance(
    of binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if disposals.isClosed {
      throw .shutDown(binding.key, scopeClosed: true, parent: parent.joined(), in: container)
    }
    let home = disposals.home(for: binding)
    if home.isReady {
      out.initialize(copying: home.storage)
    } else {
      try binding.createKept(
        into: out, in: container, parent: parent, fallbackTag: fallbackTag, home: home,
        disposals: disposals)
    }
  }

  /// Whether this scope has made (or was given) the instance of the scoped binding for `key`.
  func hasInstance(for key: BindingKey) -> Bool {
    guard let binding = container.lookup(key)?.binding else { return false }
    if binding.isAsync {
      guard case .made = disposals.asyncInstance(of: binding) else { return false }
      return true
    }
    return disposals.existingHome(for: ObjectIdentifier(binding))?.isReady ?? false
  }
}

extension Scope {

  /// Disposes the instances this scope made, newest first, each once; later resolves from the
  /// scope throw ``ResolutionError/Code/shutDown``.
  ///
  /// An instance still being made when `close()` is called is waited for and disposed first
  /// (its request fails with `shutDown`). The container's ``Container/shutdown()`` closes every
  /// scope still open before it disposes its own instances.
  ///
  /// Calling it again does nothing.
  ///
  /// Every disposer runs even when some throw; the failures are thrown together afterwards.
  /// Values provided to ``Container/makeScope(_:)`` are not disposed: the scope did not make
  /// them.
  ///
  /// ```swift
  /// let scope = container.makeScope()
  /// do {
  ///   try await handle(request, in: scope)
  ///   try await scope.close()
  /// } catch {
  ///   try? await scope.close()  // still dispose what the failed request made
  ///   throw error
  /// }
  /// ```
  ///
  /// - Throws: ``DisposalError`` listing every disposer that threw.
  public func close() async throws(DisposalError) {
    defer { container.disposals.unregister(scope: disposals, slot: registration) }
    try await disposals.closeAndDispose()
  }

  @inlinable @inline(__always)
  func checkOpen<T>(_: T.Type) throws(ResolutionError) {
    if disposals.isClosed || container.isClosedInChain { throw closedError(T.self) }
  }

  @usableFromInline @inline(never)
  func closedError<T>(_: T.Type) -> ResolutionError {
    .shutDown(
      BindingKey(T.self), scopeClosed: disposals.isClosed, parent: .topLevel, in: container)
  }
}

/// The values a scope is made with: instances of bindings declared with
/// ``Registrar/bindScopeValue(_:tag:private:fileID:line:)``, such as the request being served.
///
/// ```swift
/// let scope = try container.makeScope { values in
///   values.provide(request)
///   values.provide(user, as: (any User).self)
/// }
/// ```
public struct ScopeValues {
  struct Value {
    let key: BindingKey
    let store: (InstanceHome) -> Void
  }

  var values: [Value] = []

  init() {}

  /// Provides `value` for the scope-value binding of `type` (and `tag`).
  ///
  /// - Parameters:
  ///   - value: The value, shared by everything resolved in the scope.
  ///   - type: The bound type; the value's own type when omitted.
  ///   - tag: The binding's tag, if it has one.
  public mutating func provide<T: Sendable>(
    _ value: T, as type: T.Type = T.self, tag: (any Hashable & Sendable)? = nil
  ) {
    values.append(
      Value(key: BindingKey(T.self, tag: tag)) { home in
        home.allocateStorage()
        home.storage.initialize(to: value)
        home.publishReady()
      })
  }
}

extension Container {
  /// Makes a scope: a unit of work whose `scoped` instances are its own.
  ///
  /// Nothing is built or checked again, so a scope per request costs a few allocations.
  ///
  /// ```swift
  /// let scope = container.makeScope()
  /// let work = try scope.resolve(UnitOfWork.self)
  /// try await scope.close()
  /// ```
  ///
  /// - Returns: A new, empty scope.
  public func makeScope() -> Scope {
    Scope(container: self, homes: [])
  }

  /// Makes a scope with the values each scope provides (the request, the user), declared with
  /// ``Registrar/bindScopeValue(_:tag:private:fileID:line:)`` so that `build()` checks who depends on
  /// them.
  ///
  /// ```swift
  /// let scope = try container.makeScope { values in values.provide(request) }
  /// ```
  ///
  /// - Parameter provide: Adds the scope's values.
  /// - Returns: A new scope holding the values.
  /// - Throws: ``ResolutionError`` with code ``ResolutionError/Code/missingBinding`` when a
  ///   value has no `bindScopeValue` declaration.
  public func makeScope(
    _ provide: (inout ScopeValues) throws -> Void
  ) throws -> Scope {
    var values = ScopeValues()
    try provide(&values)
    var homes: [DisposalList.ScopedHome] = []
    for value in values.values {
      // The value's binding for everyone, else those assemblies keep private (one each).
      let bindings = (lookup(value.key).map { [$0.binding] } ?? privateBindings[value.key] ?? [])
        .filter(\.isScopeValue)
      guard !bindings.isEmpty else {
        throw ResolutionError(
          .missingBinding, requested: value.key,
          path: [ResolutionStep(requested: value.key, binding: nil)],
          detail: """
            makeScope was given a \(value.key), but no binding declares it as a value each \
            scope provides: declare it with registrar.bindScopeValue(\(value.key.shortName).self).
            """,
          container: self)
      }
      for binding in bindings {
        let home = InstanceHome(layout: binding.layout)
        value.store(home)
        homes.append(DisposalList.ScopedHome(binding: ObjectIdentifier(binding), home: home))
      }
    }
    return Scope(container: self, homes: homes)
  }

  /// Reports a scope released without `close()`: to the builder's handler, else, in debug
  /// builds, to standard error.
  func reportUnclosedScope(_ message: String) {
    if let handler = unclosedScopeHandler {
      handler(message)
      return
    }
    #if DEBUG
      _writeErrorLine(message)
    #endif
  }
}

extension Scope {
  /// Runs one unit of work — a request, a job — in this scope, then closes the scope however
  /// the work ends: the framework-neutral core of a server's request middleware.
  ///
  /// ```swift
  /// let scope = try container.makeScope { values in values.provide(requestInfo) }
  /// let response = try await scope.run { scope in
  ///   let response = try await scope.resolve(OrderHandler.self).handle()
  ///   if scope.hasInstance(of: UnitOfWork.self) {
  ///     try await scope.resolve(UnitOfWork.self).commit()
  ///   }
  ///   return response
  /// }
  /// ```
  ///
  /// In a server's middleware the work is the rest of the chain (`next(request, context)`); the
  /// Server Apps article shows a whole one.
  ///
  /// When `work` returns, the scope is closed and a disposer's failure is thrown as a
  /// ``DisposalError``. When `work` throws, the scope is still closed (disposal rolls back
  /// what was not committed) and `work`'s error is thrown as it is, so a domain error keeps
  /// its meaning; a disposer's failure is then written to standard error, not dropped.
  ///
  /// - Parameters:
  ///   - isolation: The caller's actor, inherited: `work` runs there.
  ///   - work: The unit of work, given this scope.
  /// - Returns: What `work` returned.
  /// - Throws: What `work` threw, or a ``DisposalError``.
  public func run<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ work: (Scope) async throws -> Result
  ) async throws -> Result {
    let result: Result
    do {
      result = try await work(self)
    } catch {
      do {
        try await close()
      } catch let disposal {
        _writeErrorLine(
          "Joinery: closing a scope after its work threw (\(error)) failed: \(disposal)")
      }
      throw error
    }
    try await close()
    return result
  }
}
