/// Where a binding was declared: the file and line of the `bind` call.
///
/// Captured by default arguments of every `bind` method, so you rarely create one yourself.
///
/// ```swift
/// let here = BindingLocation()  // this file and line
/// print(here)                  // "MyApp/AppAssembly.swift:12"
/// ```
// The file's UTF-8 is immutable constant data of the binary that declared the binding.
public struct BindingLocation: Hashable, @unchecked Sendable, CustomStringConvertible, Comparable {
  /// The UTF-8 of the `#fileID`, or `nil` for a `StaticString` held as one Unicode scalar.
  private let fileStart: UnsafePointer<UInt8>?
  /// The length of the file's UTF-8, or the scalar's value when `fileStart` is `nil`.
  private let fileLength: UInt32
  private let lineNumber: UInt32

  /// The line of the declaration.
  public var line: UInt { UInt(lineNumber) }

  /// Creates a location; the defaults capture the caller's file and line.
  ///
  /// - Parameters:
  ///   - fileID: A `#fileID` value.
  ///   - line: A `#line` value.
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    // Sixteen bytes rather than the `StaticString` and `UInt` (32): every binding keeps one.
    if fileID.hasPointerRepresentation {
      fileStart = fileID.utf8Start
      fileLength = UInt32(clamping: fileID.utf8CodeUnitCount)
    } else {
      fileStart = nil
      fileLength = fileID.unicodeScalar.value
    }
    lineNumber = UInt32(clamping: line)
  }

  /// The `#fileID` of the declaration, such as `Feed/FeedAssembly.swift`.
  public var fileID: String {
    guard let fileStart else {
      return Unicode.Scalar(fileLength).map { String(Character($0)) } ?? ""
    }
    return String(
      decoding: UnsafeBufferPointer(start: fileStart, count: Int(fileLength)), as: UTF8.self)
  }

  public var description: String { "\(fileID):\(line)" }

  public static func == (lhs: BindingLocation, rhs: BindingLocation) -> Bool {
    lhs.line == rhs.line && lhs.fileID == rhs.fileID
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(fileID)
    hasher.combine(line)
  }

  public static func < (lhs: BindingLocation, rhs: BindingLocation) -> Bool {
    (lhs.fileID, lhs.line) < (rhs.fileID, rhs.line)
  }
}
