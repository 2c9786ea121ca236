/// Counts the objects made and still alive, so a test sees every stored copy destroyed.
final class Census: @unchecked Sendable {
  var alive = 0
  var made = 0
}

/// An object that reports its life to a ``Census``.
final class Tracked {
  let number: Int
  let census: Census
  init(_ number: Int, _ census: Census) {
    self.number = number
    self.census = census
    census.alive += 1
    census.made += 1
  }
  deinit { census.alive -= 1 }
}
