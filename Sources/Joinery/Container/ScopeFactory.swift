/// Makes scopes of the container that resolved it: how a long-lived service — a persistent
/// worker, a queue consumer — runs each job in a scope of its own.
///
/// Every container serves it without a binding, and `build()` accepts it as a dependency of
/// any lifetime: it holds no request's data, only its container (weakly, so a singleton that
/// keeps it does not keep the container alive).
///
/// ```swift
/// final class ReportWorker: Sendable {
///   let scopes: ScopeFactory
///   init(scopes: ScopeFactory) { self.scopes = scopes }
///
///   func run(_ job: Job) async throws {
///     let scope = try scopes.makeScope { values in values.provide(job) }
///     try await scope.run { scope in try await scope.resolve(ReportJob.self).run() }
///   }
/// }
///
/// registrar.bind(ReportWorker.self, lifetime: .persistent, to: ReportWorker.init(scopes:))
/// ```
///
/// A request's own scope is not reachable from a singleton on purpose: the singleton outlives
/// the request, and would keep (or hand to the next request) what belongs to the first.
public struct ScopeFactory: Sendable {
  weak var container: Container?

  init(container: Container) { self.container = container }

  /// Makes a scope of the container, with the values each scope provides, if any, as
  /// ``Container/makeScope(_:)`` does.
  ///
  /// ```swift
  /// let scope = try scopes.makeScope()
  /// let job = try scopes.makeScope { values in values.provide(job) }
  /// ```
  ///
  /// - Parameter provide: Adds the scope's values; none when omitted.
  /// - Returns: A new scope; close it with ``Scope/close()`` when the job ends.
  /// - Throws: ``ResolutionError`` with code ``ResolutionError/Code/shutDown`` when the
  ///   container is gone, or when a value has no `bindScopeValue` declaration; or what `provide`
  ///   throws.
  public func makeScope(
    _ provide: (inout ScopeValues) throws -> Void = { _ in }
  ) throws -> Scope {
    try liveContainer().makeScope(provide)
  }

  private func liveContainer() throws(ResolutionError) -> Container {
    guard let container else { throw .containerReleased(BindingKey(ScopeFactory.self)) }
    return container
  }
}
