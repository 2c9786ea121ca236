/// One rule checked by `build()`.
///
/// Each validator looks at the whole declared graph and appends a
/// finding per violation; `build()` runs them all and reports every finding at once.
protocol BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic])
}
