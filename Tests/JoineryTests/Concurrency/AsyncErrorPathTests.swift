import Joinery
import Testing

private final class ReportArchive: Sendable {}
private final class Storage: Sendable {}
private final class ReportStore: Sendable {
  init(archive: ReportArchive) {}
}
private final class Reports: Sendable {
  let store: ReportStore
  init(store: ReportStore) { self.store = store }
}
private final class Dashboard: Sendable {
  let reports: Reports
  init(reports: Reports) { self.reports = reports }
}

@Suite("Errors from async resolutions carry the whole path")
struct AsyncErrorPathTests {
  @Test("A binding missing deep in an async chain is reported with every step and file:line")
  func missingDeepInAsyncChain() async throws {
    for syncLeaf in [false, true] {
      let container = try ContainerBuilder().adding { registrar in
        registrar.bindAsync(Dashboard.self) { resolver in
          Dashboard(reports: try await resolver.resolveAsync(Reports.self))
        }
        registrar.bindAsync(Reports.self) { resolver in
          // The store is synchronous: resolved either way, its missing archive is reported
          // under the async chain.
          let store: ReportStore =
            syncLeaf
            ? try resolver.resolve(ReportStore.self)
            : try await resolver.resolveAsync(ReportStore.self)
          return Reports(store: store)
        }
        // Declares nothing, so build() cannot see the missing archive.
        registrar.bind(ReportStore.self) { resolver in
          ReportStore(archive: try resolver.resolve(ReportArchive.self))
        }
      }.build()
      let error = await #expect(throws: ResolutionError.self) {
        try await container.resolveAsync(Dashboard.self)
      }
      #expect(error?.code == .missingBinding)
      #expect(
        error?.path.map { "\($0.requested.type)" }
          == ["Dashboard", "Reports", "ReportStore", "ReportArchive"], "sync leaf: \(syncLeaf)")
      #expect(error?.debugDescription.contains("AsyncErrorPathTests.swift:") == true)
    }
  }
}
