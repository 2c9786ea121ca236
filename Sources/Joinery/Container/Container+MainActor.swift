extension Container {
  /// Runs `body` in a resolution marked as running on the main actor.
  @MainActor
  func onMainActor<T>(
    _ body: (borrowing ResolutionContext) throws(ResolutionError) -> T
  ) throws(ResolutionError) -> T {
    try ResolutionContext.onMainActor(in: self, body)
  }
}
