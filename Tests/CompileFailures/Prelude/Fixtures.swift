// Types the compile-failure cases share; type-checked beside each case.
import Joinery

final class Feed: Sendable {}

@MainActor final class Model {
  init(id: Int, feed: Feed) {}
}

final class Service: Sendable {
  init(feed: Feed) {}
}
