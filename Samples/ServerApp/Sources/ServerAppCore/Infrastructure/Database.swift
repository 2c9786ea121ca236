/// Stands in for a database connection pool (a `PostgresClient`, say): opened asynchronously
/// once per process, shared by every request, closed once at shutdown.
public actor Database {
  public struct Order: Sendable, Equatable, Codable {
    public let id: Int
    public let item: String
  }

  public private(set) var isOpen = true
  public private(set) var orders: [Order] = []
  /// Transactions begun and not yet committed or rolled back.
  public private(set) var openTransactions = 0
  public private(set) var commits = 0
  public private(set) var rollbacks = 0
  /// What happened, in order: "open", "commit", "rollback", "close".
  public private(set) var journal: [String] = []
  private var nextID = 1

  /// Connects to the database, as a real pool's `connect` would; `events` hears of its close.
  public static func connect(url: String, events: EventLog? = nil) async throws -> Database {
    try await Task.sleep(for: .milliseconds(5))
    return Database(url: url, events: events)
  }

  public nonisolated let url: String
  private let events: EventLog?
  private init(url: String, events: EventLog?) {
    self.url = url
    self.events = events
    journal.append("open")
  }

  func begin() throws -> Int {
    guard isOpen else { throw DatabaseClosed() }
    openTransactions += 1
    return openTransactions
  }

  func commit(_ pending: [String]) throws {
    guard isOpen else { throw DatabaseClosed() }
    for item in pending {
      orders.append(Order(id: nextID, item: item))
      nextID += 1
    }
    openTransactions -= 1
    commits += 1
    journal.append("commit")
  }

  func rollBack() {
    openTransactions -= 1
    rollbacks += 1
    journal.append("rollback")
  }

  /// Closes the pool: every later query fails.
  public func close() async {
    isOpen = false
    journal.append("close")
    await events?.record("database closed")
  }
}

public struct DatabaseClosed: Error, CustomStringConvertible {
  public var description: String { "the database pool is closed" }
}
