/// Substring search and character escaping written on the standard library's `Collection`
/// API alone.
///
/// `String.contains(_: some StringProtocol)`, `firstRange(of:)` and `replacing(_:with:)` come
/// from `_StringProcessing`, which needs macOS 13, iOS 16, tvOS 16 and watchOS 9: far above
/// the package's floor. The library never calls them; `Scripts/check-apple-floor.sh` fails if
/// it does. Messages and graph exports are short, so a plain scan is all they need.
extension StringProtocol {
  /// The range of the first occurrence of `needle`, compared by `Character`, or `nil`.
  func firstOccurrence(of needle: some StringProtocol) -> Range<Index>? {
    guard let head = needle.first else { return startIndex..<startIndex }
    var start = startIndex
    while let candidate = self[start...].firstIndex(of: head) {
      var mine = candidate
      var theirs = needle.startIndex
      while mine != endIndex, theirs != needle.endIndex, self[mine] == needle[theirs] {
        formIndex(after: &mine)
        needle.formIndex(after: &theirs)
      }
      if theirs == needle.endIndex { return candidate..<mine }
      start = index(after: candidate)
    }
    return nil
  }

  /// Whether `needle` occurs in this text.
  func includes(_ needle: some StringProtocol) -> Bool {
    firstOccurrence(of: needle) != nil
  }

  /// This text with every Unicode scalar that `replacement` maps replaced by what it returns.
  ///
  /// A `"\r\n"` pair is one line break: it is replaced as a single `"\n"`.
  func escapingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
    var result = ""
    result.reserveCapacity(utf8.count)
    let scalars = Array(unicodeScalars)
    var position = 0
    while position < scalars.count {
      var scalar = scalars[position]
      position += 1
      if scalar == "\r", position < scalars.count, scalars[position] == "\n" {
        scalar = "\n"
        position += 1
      }
      if let mapped = replacement(scalar) {
        result += mapped
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
