import ServiceLifecycle

/// Stands in for a client that is a ServiceLifecycle service — postgres-nio's `PostgresClient`,
/// a metrics or event exporter: it works while its `run()` runs and has no `close()`, so the
/// container makes it and the service group runs and stops it. Events recorded once it has
/// stopped are lost (kept in ``lost`` here, to show it).
public actor EventLog {
  public private(set) var events: [String] = []
  public private(set) var lost: [String] = []
  private var isRunning = false

  public init() {}

  public func record(_ event: String) {
    if isRunning { events.append(event) } else { lost.append(event) }
  }

  private func start() {
    isRunning = true
    events.append("event log running")
  }

  private func stop() {
    events.append("event log stopped")
    isRunning = false
  }
}

extension EventLog: Service {
  /// Runs until the service group shuts down gracefully (or is cancelled).
  public nonisolated func run() async throws {
    await start()
    try? await gracefulShutdown()
    await stop()
  }
}
