import Joinery
import Testing

// A persistent worker that runs each job in a scope of its own, as MS.DI's singletons do with
// IServiceScopeFactory.
private final class UnitOfWork: Sendable {
  let job: Job
  let committed = Locked(false)
  init(job: Job) { self.job = job }
}

private final class JobHandler: Sendable {
  let work: UnitOfWork
  init(work: UnitOfWork) { self.work = work }
}

private final class Worker: Sendable {
  let scopes: ScopeFactory
  init(scopes: ScopeFactory) { self.scopes = scopes }

  /// Runs `job` in a scope of its own; returns the unit of work it used.
  func run(_ job: Job) async throws -> UnitOfWork {
    let scope = try scopes.makeScope { values in values.provide(job) }
    let handler = try scope.resolve(JobHandler.self)
    // Within one job, one unit of work.
    #expect(try scope.resolve(UnitOfWork.self) === handler.work)
    try await scope.close()
    return handler.work
  }
}

private func jobRegister(disposed: Locked<[Int]>) -> ContainerBuilder {
  ContainerBuilder().adding { registrar in
    registrar.bindScopeValue(Job.self)
    registrar.bind(
      UnitOfWork.self, lifetime: .scoped,
      dispose: { work in disposed.withLock { $0.append(work.job.id) } }, to: UnitOfWork.init(job:))
    registrar.bind(JobHandler.self, to: JobHandler.init(work:))
    registrar.bind(Worker.self, lifetime: .persistent, to: Worker.init(scopes:))
  }
}

@Suite("ScopeFactory: a singleton that makes a scope per job")
struct ScopeFactoryTests {
  @Test("build() accepts it; each job gets its own unit of work, disposed when its scope closes")
  func scopePerJob() async throws {
    let disposed = Locked<[Int]>([])
    let container = try jobRegister(disposed: disposed).build()
    let worker = try container.resolve(Worker.self)
    let works = try await withThrowingTaskGroup(of: UnitOfWork.self) { group in
      for id in 1...20 { group.addTask { try await worker.run(Job(id: id)) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Set(works.map { ObjectIdentifier($0) }).count == 20)
    #expect(Set(works.map(\.job.id)) == Set(1...20))
    #expect(disposed.withLock { Set($0) } == Set(1...20))
    try await container.shutdown()
  }

  @Test("verify() passes on the worker's graph")
  func verifies() throws {
    let container = try jobRegister(disposed: Locked([])).build()
    var samples = SampleArguments()
    samples.addScopeValue(Job(id: 0))
    let report = try container.verify(arguments: samples)
    #expect(report.verified.map { "\($0.type)" }.contains("Worker"))
    #expect(report.verified.map { "\($0.type)" }.contains("UnitOfWork"))
  }

  @Test("It keeps its container weakly: once the container is gone, makeScope() says so")
  func weakContainer() throws {
    var container: Container? = try jobRegister(disposed: Locked([])).build()
    let worker = try container!.resolve(Worker.self)
    weak let released = container
    container = nil
    #expect(released == nil, "the singleton holding a ScopeFactory does not keep its container")
    let error = #expect(throws: ResolutionError.self) { try worker.scopes.makeScope() }
    #expect(error?.code == .shutDown)
  }

  @Test("Resolved in a child container, it makes scopes of the child")
  func childScopes() throws {
    final class Extra: Sendable {}
    let parent = try jobRegister(disposed: Locked([])).build()
    let child = try parent.makeChild { registrar in
      registrar.bind(Extra.self, lifetime: .scoped, to: Extra.init)
    }
    let factory = try child.resolve(ScopeFactory.self)
    let scope = try factory.makeScope()
    _ = try scope.resolve(Extra.self)
    #expect(throws: ResolutionError.self) {
      try parent.resolve(ScopeFactory.self).makeScope().resolve(Extra.self)
    }
  }
}

// ServerApps.md's worker, as the article writes it.
final class ReportWorker: Sendable {  // persistent
  let scopes: ScopeFactory
  init(scopes: ScopeFactory) { self.scopes = scopes }

  func run(_ job: Job) async throws {
    let scope = try scopes.makeScope { values in values.provide(job) }
    // Closed however the job ends: its disposers roll back what it left undone.
    try await scope.run { scope in try await scope.resolve(ReportJob.self).run() }
  }
}

struct Job: Sendable {
  let id: Int
  var fails = false
}

private struct JobFailed: Error {}

/// What one job does: reads its job, writes through the job's scoped unit of work.
final class ReportJob: Sendable {
  let job: Job
  let work: ReportWork
  init(job: Job, work: ReportWork) {
    self.job = job
    self.work = work
  }
  func run() async throws {
    if job.fails { throw JobFailed() }
    work.written.withLock { $0 = job.id }
  }
}

final class ReportWork: Sendable {
  let written = Locked<Int?>(nil)
}

@Suite("ServerApps.md: the background worker recipe, as written")
struct ReportWorkerRecipeTests {
  @Test("Each job runs in its own scope, closed whether the job succeeds or throws")
  func recipe() async throws {
    let closed = Locked<[Int?]>([])
    let container = try ContainerBuilder().adding { registrar in
      registrar.bindScopeValue(Job.self)
      registrar.bind(
        ReportWork.self, lifetime: .scoped,
        dispose: { work in closed.withLock { $0.append(work.written.withLock { $0 }) } },
        to: ReportWork.init)
      registrar.bind(ReportJob.self, to: ReportJob.init(job:work:))
      registrar.bind(ReportWorker.self, lifetime: .persistent, to: ReportWorker.init(scopes:))
    }.build()
    let worker = try container.resolve(ReportWorker.self)
    try await worker.run(Job(id: 1))
    await #expect(throws: JobFailed.self) { try await worker.run(Job(id: 2, fails: true)) }
    try await worker.run(Job(id: 3))
    // Three scopes, each closed: the failed job's unit of work wrote nothing.
    #expect(closed.withLock { $0 } == [1, nil, 3])
  }
}
