import Joinery
import Testing

// One request never sees another's data, through async factories too: an async singleton
// made during a request must not keep that request's scoped instances.
private final class SignedInUser: Sendable {}
private protocol AuditSink: Sendable { var user: SignedInUser { get } }
private final class UserAuditSink: AuditSink {
  let user: SignedInUser
  init(user: SignedInUser) { self.user = user }
}
private final class Reports: Sendable {
  let users: [SignedInUser]
  init(users: [SignedInUser]) { self.users = users }
}
private final class Session: Sendable {}

/// How the async singleton's factory reaches the request's user.
enum AsyncCaptiveReach: String, CaseIterable, CustomTestStringConvertible {
  case syncResolve, resolveAsyncOfSync, resolveAsyncOfAsync, resolveAllAsyncSync,
    resolveAllAsyncAsync
  var testDescription: String { rawValue }
  var asyncUser: Bool { self == .resolveAsyncOfAsync || self == .resolveAllAsyncAsync }

  fileprivate func users(_ resolver: AsyncResolver) async throws -> [SignedInUser] {
    switch self {
    case .syncResolve: [try resolver.resolve(SignedInUser.self)]
    case .resolveAsyncOfSync, .resolveAsyncOfAsync: [try await resolver.resolveAsync()]
    case .resolveAllAsyncSync, .resolveAllAsyncAsync:
      try await resolver.resolveAllAsync((any AuditSink).self).map(\.user)
    }
  }
}

private func server(_ reach: AsyncCaptiveReach) throws -> Container {
  try ContainerBuilder().adding { registrar in
    if reach.asyncUser {
      registrar.bindAsync(SignedInUser.self, lifetime: .scoped) { _ in SignedInUser() }
      registrar.contributeAsync((any AuditSink).self, lifetime: .scoped) { resolver in
        UserAuditSink(user: try await resolver.resolveAsync())
      }
    } else {
      registrar.bind(SignedInUser.self, lifetime: .scoped) { SignedInUser() }
      registrar.contribute((any AuditSink).self, lifetime: .scoped) { resolver in
        UserAuditSink(user: try resolver.resolve())
      }
    }
    // Declares nothing: build() cannot see the edge, so the resolve must refuse it.
    registrar.bindAsync(Reports.self, lifetime: .persistent) { resolver in
      Reports(users: try await reach.users(resolver))
    }
  }.build()
}

@Suite("Captive dependencies below async factories")
struct AsyncCaptiveTests {
  @Test(
    "An async singleton made during a request cannot keep the request's scoped instance",
    arguments: AsyncCaptiveReach.allCases, [false, true])
  func scopedUnderAsyncPersistent(reach: AsyncCaptiveReach, madeFirst: Bool) async throws {
    let container = try server(reach)
    for _ in 0..<2 {
      let scope = container.makeScope()
      // Already made in the scope or not, the singleton is refused it.
      if madeFirst { _ = try await scope.resolveAsync(SignedInUser.self) }
      let error = await #expect(throws: ResolutionError.self) {
        try await scope.resolveAsync(Reports.self)
      }
      #expect(error?.code == .captiveDependency, "\(reach), made first: \(madeFirst)")
      let report = error?.debugDescription ?? ""
      #expect(report.contains("Reports, which is persistent"), "\(report)")
      #expect(error?.path.first?.requested == BindingKey(Reports.self))
      try await scope.close()
    }
    #expect(!container.hasInstance(of: Reports.self))
  }

  @Test("An async singleton that resolves a cached instance fails; acknowledged, it works")
  func cachedUnderAsyncPersistent() async throws {
    for acknowledged in [false, true] {
      let container = try ContainerBuilder().adding { registrar in
        registrar.bindAsync(Session.self, lifetime: .cached) { _ in Session() }
        registrar.bindAsync(Reports.self, lifetime: .persistent) { resolver in
          _ = try await resolver.resolveAsync(Session.self)
          return Reports(users: [])
        }
        if acknowledged {
          registrar.allowCaptive(Reports.self, dependency: Session.self, because: "read once")
        }
      }.build()
      if acknowledged {
        await #expect(throws: Never.self) { try await container.resolveAsync(Reports.self) }
      } else {
        let error = await #expect(throws: ResolutionError.self) {
          try await container.resolveAsync(Reports.self)
        }
        #expect(error?.code == .captiveDependency)
      }
    }
  }

  @Test("A graph instance under an async singleton is build()'s to report, as under a sync one")
  func graphUnderAsyncPersistent() async throws {
    for async in [false, true] {
      let container = try ContainerBuilder().adding { registrar in
        if async {
          registrar.bindAsync(SignedInUser.self, lifetime: .graph) { _ in SignedInUser() }
          registrar.bindAsync(Reports.self, lifetime: .persistent) { resolver in
            Reports(users: [try await resolver.resolveAsync()])
          }
        } else {
          registrar.bind(SignedInUser.self, lifetime: .graph) { SignedInUser() }
          registrar.bind(Reports.self, lifetime: .persistent) { resolver in
            Reports(users: [try resolver.resolve()])
          }
        }
      }.build()
      await #expect(throws: Never.self, "async: \(async)") {
        try await container.resolveAsync(Reports.self)
      }
    }
  }

  @Test("An ephemeral async factory may use the request's scoped instances")
  func scopedUnderAsyncEphemeral() async throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(SignedInUser.self, lifetime: .scoped) { SignedInUser() }
      registrar.bindAsync(Reports.self) { resolver in
        Reports(users: [
          try resolver.resolve(SignedInUser.self),
          try await resolver.resolveAsync(SignedInUser.self),
        ])
      }
    }.build()
    let scope = container.makeScope()
    let reports = try await scope.resolveAsync(Reports.self)
    let user = try scope.resolve(SignedInUser.self)
    #expect(reports.users.allSatisfy { $0 === user })
    try await scope.close()
  }
}
