/// One request's transaction: begun when the request first needs it, committed by the scope
/// middleware only if the request made it, rolled back by its disposer otherwise (a thrown
/// error, a request that never committed).
public actor UnitOfWork {
  let database: Database
  private var pending: [String] = []
  private var state = State.idle

  enum State { case idle, open, finished }

  public init(database: Database) {
    self.database = database
  }

  /// Stages an order to be written when the unit of work commits.
  func insertOrder(item: String) async throws {
    if state == .idle {
      _ = try await database.begin()
      state = .open
    }
    pending.append(item)
  }

  /// Writes what was staged, if anything.
  public func commit() async throws {
    guard state == .open else { return }
    try await database.commit(pending)
    pending = []
    state = .finished
  }

  /// The disposer: what was not committed is rolled back.
  public func rollBackIfOpen() async {
    guard state == .open else { return }
    await database.rollBack()
    pending = []
    state = .finished
  }
}
