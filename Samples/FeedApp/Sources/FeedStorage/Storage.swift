import Foundation
import Joinery

/// The storage module: saves lists of lines under a name. The production binding writes real
/// files into a folder of its own under the system's temporary directory.
public protocol FeedStore: Sendable {
  /// Saves `lines` and returns where they went.
  @discardableResult func save(_ lines: [String], as name: String) throws -> String
  /// The lines saved under `name`, or `nil`.
  func load(_ name: String) throws -> [String]?
}

/// The folder the store writes to: one per container, created when first needed.
public struct StorageDirectory: Sendable {
  public let url: URL

  public init(url: URL) { self.url = url }

  /// A new, empty folder under the temporary directory.
  public static func temporary() throws -> StorageDirectory {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("joinery-feedapp-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return StorageDirectory(url: url)
  }

  /// Deletes the folder and everything in it.
  public func remove() throws {
    try FileManager.default.removeItem(at: url)
  }
}

public final class FileFeedStore: FeedStore {
  let directory: StorageDirectory

  public init(directory: StorageDirectory) { self.directory = directory }

  public func save(_ lines: [String], as name: String) throws -> String {
    let file = directory.url.appendingPathComponent("\(name).txt")
    try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  public func load(_ name: String) throws -> [String]? {
    let file = directory.url.appendingPathComponent("\(name).txt")
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
  }
}

public struct StorageAssembly: Assembly {
  public init() {}

  public func register(in registrar: inout Registrar) {
    // A throwing factory: a failure becomes a ResolutionError naming this line.
    registrar.bind(StorageDirectory.self, lifetime: .persistent, to: StorageDirectory.temporary)
    registrar.bind(
      (any FeedStore).self, lifetime: .persistent, to: FileFeedStore.init(directory:))
  }
}
