extension Container {
  /// The container of the current task, set for a scope with ``withCurrent(_:)``; `nil` outside
  /// one.
  ///
  /// ``Injected`` properties without an explicit container read it.
  ///
  /// It is a task-local value, not a global: each task (and each test) sees the container its
  /// own scope set, and child tasks inherit it.
  ///
  /// ```swift
  /// try container.withCurrent {
  ///   let screen = FeedScreen()  // its @Injected properties resolve from `container`
  ///   try screen.load()
  /// }
  /// ```
  public static var current: Container? { currentInTask }

  /// The task-local behind ``current``: set only by `withCurrent`, one way to set it.
  @TaskLocal static var currentInTask: Container?

  /// Runs `body` with this container as ``current``.
  ///
  /// ```swift
  /// try container.withCurrent { try FeedScreen().load() }
  /// ```
  ///
  /// - Parameter body: The code to run.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withCurrent<R>(_ body: () throws -> R) rethrows -> R {
    try Container.$currentInTask.withValue(self, operation: body)
  }

  /// Runs the asynchronous `body` with this container as ``current``, for it and its child
  /// tasks.
  ///
  /// ```swift
  /// await container.withCurrent { await FeedScreen().refresh() }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: The caller's isolation, inherited by `body`.
  ///   - body: The code to run.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withCurrent<R>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
  ) async rethrows -> R {
    try await Container.$currentInTask.withValue(self, operation: body, isolation: isolation)
  }
}
