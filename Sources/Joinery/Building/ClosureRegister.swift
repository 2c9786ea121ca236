/// The register a closure form makes (the builder's `adding { … }` and `overriding { … }`,
/// `makeChild { … }`): each closure is a register of its own, even when two closures are alike
/// (registers of one named type register once).
struct ClosureRegister: DependencyRegister, Hashable {
  /// The closure, in an object whose identity is the register's: equality and hashing are
  /// synthesized from it.
  private let body: Body

  private final class Body: Hashable, Sendable {
    let declare: @Sendable (inout Registrar) -> Void
    init(_ declare: @escaping @Sendable (inout Registrar) -> Void) { self.declare = declare }
    static func == (lhs: Body, rhs: Body) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
  }

  init(_ body: @escaping @Sendable (inout Registrar) -> Void) { self.body = Body(body) }

  func register(in registrar: inout Registrar) { body.declare(&registrar) }
}

extension ContainerBuilder {
  /// Returns a copy of this builder with the bindings `body` declares as overrides: a one-off
  /// test override in one expression.
  ///
  /// ```swift
  /// let container = try ContainerBuilder(AppAssembly())
  ///   .overriding { registrar in
  ///     registrar.bind(HTTPClient.self, lifetime: .persistent, to: StubClient.init)
  ///   }
  ///   .build()
  /// ```
  ///
  /// The closure is a register of its own: two closures both register, even when they are
  /// alike. Diagnostics name the file and line each binding was declared at, as for any
  /// register. To reuse a set of overrides in several tests, give it a type: an ``Assembly``
  /// passed to ``overriding(with:)``.
  ///
  /// - Parameter body: Declares the replacement bindings.
  /// - Returns: The new builder.
  public func overriding(
    _ body: @escaping @Sendable (inout Registrar) -> Void
  ) -> ContainerBuilder {
    overriding(with: ClosureRegister(body))
  }

  /// Returns a copy of this builder with the bindings `body` declares added: bindings that
  /// need no named register, such as a test's, a sample's or a quick experiment's.
  ///
  /// ```swift
  /// let container = try ContainerBuilder()
  ///   .adding { registrar in registrar.bind(Clock.self, lifetime: .persistent) { SystemClock() } }
  ///   .build()
  /// ```
  ///
  /// The closure is a register of its own, as with ``overriding(_:)``.
  ///
  /// - Parameter body: Declares the bindings.
  /// - Returns: The new builder.
  public func adding(_ body: @escaping @Sendable (inout Registrar) -> Void) -> ContainerBuilder {
    adding(ClosureRegister(body))
  }
}

extension Container {
  /// Derives a child container from the bindings `body` declares, as `makeChild(_:)` does from
  /// registers.
  ///
  /// ```swift
  /// let session = try app.makeChild { registrar in
  ///   registrar.bind(User.self, instance: user)
  ///   registrar.bind(Inbox.self, lifetime: .persistent, to: Inbox.init(user:client:))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`).
  ///   - body: Declares the child's bindings; they may shadow the parent's.
  /// - Returns: The child container.
  /// - Throws: ``BuildError`` with every problem in the child's bindings.
  public func makeChild(
    isolation: isolated (any Actor)? = #isolation,
    _ body: @escaping @Sendable (inout Registrar) -> Void
  ) throws(BuildError) -> Container {
    try makeChild([ClosureRegister(body)], isolation: isolation)
  }
}
