internal import JoineryPlatform

/// Writes `text` and a newline to standard error, without Foundation: for failures that no
/// caller can catch, such as a disposer that threw in a task of its own.
@usableFromInline package func _writeErrorLine(_ text: String) {
  unsafe text.withCString { unsafe joinery_write_error_line($0) }
}
