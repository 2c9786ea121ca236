/// Anything that contributes bindings to a ``ContainerBuilder``.
///
/// A register gets a ``Registrar`` — never a resolver, so nothing can be resolved from a
/// half-built graph — and may include further registers. Most apps write ``Assembly`` types,
/// which are modules with a boundary; a plain `DependencyRegister` is a transparent group, for
/// registers that are not a feature module (a bundle of other assemblies, a platform adapter,
/// a test fixture, one feature's declarations split across files): its bindings join the module
/// of the assembly that includes it, private bindings and requirements included.
///
/// ```swift
/// struct AppRegisters: DependencyRegister {
///   func register(in registrar: inout Registrar) {
///     registrar.include(NetworkAssembly())
///     registrar.include(FeedAssembly())
///   }
/// }
/// ```
///
/// A register reached more than once — two feature modules both including `NetworkAssembly` —
/// registers once. Registers are identified by their type and value, so two differently
/// configured instances both register: the value is compared with `==` when the type is
/// `Hashable`, else by what the register holds (as `dump` prints it).
///
/// Registers are `Sendable` (a struct of `Sendable` configuration is, with nothing to write),
/// so a ``ContainerBuilder`` can be kept in a `static let` and captured by test traits.
public protocol DependencyRegister: Sendable {
  /// Declares this register's bindings and includes.
  ///
  /// ```swift
  /// func register(in registrar: inout Registrar) {
  ///   registrar.bind(HTTPClient.self, lifetime: .persistent) { URLSessionClient() }
  /// }
  /// ```
  ///
  /// - Parameter registrar: Where bindings go. It cannot be kept beyond this call.
  func register(in registrar: inout Registrar)

  /// The lifetime of this register's bindings that name none, and of those of the registers it
  /// includes that set none; `nil` (the default) keeps the includer's, or the builder's.
  ///
  /// ```swift
  /// struct LegacyAssembly: Assembly {
  ///   var defaultLifetime: Lifetime.For<Any>? { .graph }
  ///   func register(in registrar: inout Registrar) {
  ///     registrar.bind(Parent.self, to: Parent.init)  // graph
  ///     registrar.bind(Child.self, to: Child.init)  // graph
  ///   }
  /// }
  /// ```
  ///
  /// A register reached twice registers once. If it sets no default and is reached with two
  /// different ones, `build()` fails with ``Diagnostic/Code/conflictingDefaultLifetime``
  /// (its lifetimes would depend on the order registers were added): give it its own.
  var defaultLifetime: Lifetime.For<Any>? { get }
}

extension DependencyRegister {
  /// No default of its own: the includer's, or the builder's, applies.
  public var defaultLifetime: Lifetime.For<Any>? { nil }
}

/// An array of registers is a register: the registers it holds, in order, as if each were
/// added (or included) itself.
///
/// ```swift
/// let features: [any DependencyRegister] = [InboxAssembly(), SettingsAssembly()]
/// let builder = ContainerBuilder(NetworkAssembly(), features)
/// let session = try app.makeChild(features)
/// ```
extension Array: DependencyRegister where Element == any DependencyRegister {
  /// Includes each register, in order.
  ///
  /// ```swift
  /// registrar.include([InboxAssembly(), SettingsAssembly()] as [any DependencyRegister])
  /// ```
  ///
  /// - Parameter registrar: Where the registers' bindings go.
  public func register(in registrar: inout Registrar) {
    for register in self { registrar.include(register) }
  }
}

/// The unit of registration for one feature module: its bindings, in one place.
///
/// ```swift
/// struct FeedAssembly: Assembly {
///   func register(in registrar: inout Registrar) {
///     registrar.include(NetworkAssembly())
///     registrar.bind(FeedService.self, lifetime: .persistent) { resolver in
///       FeedService(client: try resolver.resolve())
///     }
///   }
/// }
///
/// let container = try ContainerBuilder(FeedAssembly()).build()
/// ```
///
/// Diagnostics name the assembly that declared each binding, so a duplicate or a missing
/// dependency points at the module to change.
///
/// An assembly is a module: it has a boundary. What it binds `private: true` only its own
/// bindings (and those of the plain registers it includes) may depend on; what it requires
/// (``Registrar/require(_:tag:fileID:line:)``) another module must bind; and its own test target
/// checks it alone with ``validate()``:
///
/// ```swift
/// struct FeedAssembly: Assembly {
///   func register(in registrar: inout Registrar) {
///     registrar.require((any HTTPClient).self)
///     registrar.bind(FeedService.self, private: true, to: FeedService.init(client:))
///     registrar.bind((any FeedServicing).self, forwardingTo: FeedService.self)
///   }
/// }
/// ```
public protocol Assembly: DependencyRegister {}
