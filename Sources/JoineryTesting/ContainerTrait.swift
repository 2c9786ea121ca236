public import Joinery
public import Testing

/// A Swift Testing trait that builds a container for each test and makes it the task's
/// ``Joinery/Container/current`` container while the test runs.
///
/// The trait owns the container: it shuts it down when the test ends, so the test's disposers
/// run after each test, and a disposer that throws fails the test.
///
/// Tests run in parallel; each gets its own container, so each can override the same binding
/// with its own double and sees only its own. `@Injected` properties read inside the test
/// resolve from it.
///
/// ```swift
/// import JoineryTesting
///
/// @Test(.container { try ContainerBuilder(AppAssembly()).overriding(with: MockNetwork()).build() })
/// func feedShowsHeadlines() throws {
///   let screen = FeedScreen()            // @Injected properties use the test's container
///   #expect(try screen.headlines().count == 3)
/// }
/// ```
///
/// It lives in the `JoineryTesting` product so that apps never link Swift Testing.
public struct ContainerTrait: TestTrait, SuiteTrait, TestScoping {
  let make: @Sendable () throws -> Container

  /// Applies to every test of a suite it is attached to.
  public var isRecursive: Bool { true }

  /// Runs the test with the trait's container as `Container.current`.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite's own scope needs no container; each of its tests builds one.
    if test.isSuite {
      try await function()
      return
    }
    let container = try make()
    do {
      try await container.withCurrent { try await function() }
    } catch {
      try? await container.shutdown()
      throw error
    }
    try await container.shutdown()
  }
}

extension Trait where Self == ContainerTrait {
  /// Builds a container for each test with `make`, makes it current while the test runs, and
  /// shuts it down after.
  ///
  /// ```swift
  /// @Test(.container { try ContainerBuilder(AppAssembly()).build() })
  /// func startsUp() throws { … }
  /// ```
  ///
  /// - Parameter make: Builds the test's container, typically production assemblies plus a
  ///   test override assembly.
  /// - Returns: The trait.
  public static func container(_ make: @escaping @Sendable () throws -> Container) -> Self {
    ContainerTrait(make: make)
  }
}

extension Trait where Self == ContainerTrait {
  /// Builds a container for each test from `builder` with the bindings `overrides` declares
  /// replacing production ones, and makes it current while the test runs.
  ///
  /// ```swift
  /// @Test(.container(ContainerBuilder(AppAssembly())) { registrar in
  ///   registrar.bind(HTTPClient.self, lifetime: .persistent, to: StubClient.init)
  /// })
  /// func feedShowsHeadlines() throws { … }
  /// ```
  ///
  /// - Parameters:
  ///   - builder: The production builder.
  ///   - overrides: Declares the test's replacement bindings.
  /// - Returns: The trait.
  public static func container(
    _ builder: ContainerBuilder,
    overriding overrides: @escaping @Sendable (inout Registrar) -> Void
  ) -> Self {
    ContainerTrait { try builder.overriding(overrides).build() }
  }
}
