/// Where a binding was declared: the file and line of the `bind` call.
///
/// Captured by default arguments of every `bind` method, so you rarely create one yourself.
///
/// ```swift
/// let here = BindingLocation()  // this file and line
/// print(here)                  // "MyApp/AppAssembly.swift:12"
/// ```
public struct BindingLocation: Hashable, Sendable, CustomStringConvertible, Comparable {
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

  /// Creates a location; the defaults capture the caller's file and line.
  ///
  /// - Parameters:
  ///   - fileID: A `#fileID` value.
  ///   - line: A `#line` value.
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    file = File(id: fileID)
    lineNumber = UInt32(clamping: line)
  }

  /// The `#fileID` of the declaration, such as `Feed/FeedAssembly.swift`.
  public var fileID: String { file.id.description }

  /// A one-line, human-readable description.
  public var description: String { "\(fileID):\(line)" }

  /// Whether the left value sorts before the right one.
  public static func < (lhs: BindingLocation, rhs: BindingLocation) -> Bool {
    (lhs.fileID, lhs.line) < (rhs.fileID, rhs.line)
  }
}
