/// A register written as a closure, for bindings that need no named type: a one-off test
/// override, a sample, a quick experiment.
///
/// ```swift
/// let container = try ContainerBuilder(AppAssembly())
///   .overriding { registrar in
///     registrar.bind(HTTPClient.self, lifetime: .persistent, to: StubClient.init)
///   }
///   .build()
/// ```
///
/// Each inline register is its own register: two of them both register, even when their
/// closures are alike (registers of one named type register once). Diagnostics name the file
/// and line each binding was declared at, as for any register.
public struct InlineRegister: DependencyRegister, Hashable {
  /// The closure, in an object whose identity is the register's: equality and hashing are
  /// synthesized from it.
  private let body: Body

  private final class Body: Hashable, Sendable {
    let declare: @Sendable (inout Registrar) -> Void
    init(_ declare: @escaping @Sendable (inout Registrar) -> Void) { self.declare = declare }
    static func == (lhs: Body, rhs: Body) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
  }

  /// Wraps `body` as a register.
  ///
  /// ```swift
  /// let stubs = InlineRegister { registrar in
  ///   registrar.bind(Clock.self, lifetime: .persistent) { FixedClock() }
  /// }
  /// ```
  ///
  /// - Parameter body: Declares the bindings, as ``DependencyRegister/register(in:)`` does.
  public init(_ body: @escaping @Sendable (inout Registrar) -> Void) {
    self.body = Body(body)
  }

  /// Adds the bindings of the closure this register was made with.
  public func register(in registrar: inout Registrar) { body.declare(&registrar) }
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
  /// - Parameter body: Declares the replacement bindings.
  /// - Returns: The new builder.
  public func overriding(
    _ body: @escaping @Sendable (inout Registrar) -> Void
  ) -> ContainerBuilder {
    overriding(with: InlineRegister(body))
  }

  /// Returns a copy of this builder with the bindings `body` declares added.
  ///
  /// ```swift
  /// let container = try ContainerBuilder(AppAssembly())
  ///   .adding { registrar in registrar.bind(Clock.self, lifetime: .persistent) { SystemClock() } }
  ///   .build()
  /// ```
  ///
  /// - Parameter body: Declares the bindings.
  /// - Returns: The new builder.
  public func adding(_ body: @escaping @Sendable (inout Registrar) -> Void) -> ContainerBuilder {
    adding(InlineRegister(body))
  }
}
