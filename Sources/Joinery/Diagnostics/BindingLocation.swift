/// Where a binding was declared: the file and line of the `bind` call.
///
/// Captured by the `fileID:` and `line:` default arguments of every `bind` method; a helper that
/// binds for its callers passes its own `fileID` and `line` on.
///
/// ```swift
/// for binding in container.bindings {
///   print(binding.location)  // "MyApp/AppAssembly.swift:12"
/// }
/// ```
public struct BindingLocation: Hashable, Sendable, CustomStringConvertible {
  private let file: File
  private let lineNumber: UInt32

  /// A `#fileID`, equal to another of the same text: equality and hashing are synthesized.
  private struct File: Hashable, Sendable {
    let id: StaticString
    static func == (lhs: File, rhs: File) -> Bool { lhs.id.description == rhs.id.description }
    func hash(into hasher: inout Hasher) { hasher.combine(id.description) }
  }

  /// The line of the declaration.
  public var line: UInt { UInt(lineNumber) }

  /// The location of a declaration at `line` of `fileID`.
  @usableFromInline
  init(file fileID: StaticString, line: UInt) {
    file = File(id: fileID)
    lineNumber = UInt32(clamping: line)
  }

  /// The `#fileID` of the declaration, such as `Feed/FeedAssembly.swift`.
  public var fileID: String { file.id.description }

  /// A one-line, human-readable description.
  public var description: String { "\(fileID):\(line)" }

  /// Whether this location sorts before `other`: by file, then line.
  func isBefore(_ other: BindingLocation) -> Bool {
    (fileID, line) < (other.fileID, other.line)
  }
}
