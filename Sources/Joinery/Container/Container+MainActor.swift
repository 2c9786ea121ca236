extension Container {
  /// Resolves on the main actor: synchronously when called there, with `await` from anywhere
  /// else, so main-actor factories (``Registrar/bindMainActor(_:tag:lifetime:override:dependsOn:metadata:fileID:line:_:)``)
  /// run where they must.
  ///
  /// ```swift
  /// @MainActor func show() throws {
  ///   let model = try container.resolveOnMainActor(FeedViewModel.self)
  /// }
  /// func prepare() async throws {
  ///   let model = try await container.resolveOnMainActor(FeedViewModel.self)
  /// }
  /// ```
  ///
  /// - Parameter type: The type to resolve.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``.
  @MainActor
  public func resolveOnMainActor<T>(_ type: T.Type = T.self) throws(ResolutionError) -> T {
    try checkOpen(T.self)
    return try onMainActor { parent throws(ResolutionError) in try resolve(T.self, parent: parent) }
  }

  /// Resolves a tagged binding on the main actor.
  ///
  /// ```swift
  /// let model = try await container.resolveOnMainActor(FeedViewModel.self, tag: "compact")
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``.
  @MainActor
  public func resolveOnMainActor<T>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable
  ) throws(ResolutionError) -> T {
    try checkOpen(T.self)
    return try onMainActor { parent throws(ResolutionError) in
      try resolve(T.self, tag: tag, matching: .allowingFallback, parent: parent)
    }
  }

  /// Runs `body` in a resolution marked as running on the main actor.
  @MainActor
  private func onMainActor<T>(
    _ body: (borrowing ResolutionContext) throws(ResolutionError) -> T
  ) throws(ResolutionError) -> T {
    try ResolutionContext.onMainActor(marker: mainActorMarker, body)
  }
}
