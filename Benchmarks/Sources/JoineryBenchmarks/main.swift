import Foundation

// Joinery against Swinject 2.10.0 and hand-written code, in one process, cases interleaved.
// Run with Benchmarks/run.sh (release build); see Benchmarks/README.md.
let quick = CommandLine.arguments.contains("--quick")
var rows = resolutionRows()
if !quick { rows += scalingRows() + buildRows() + failureRows() }
let results = Harness.measure(rows)
print(Harness.machineLine)
print("")
print(Harness.table(rows, results))
if !quick {
  print("")
  print(concurrencyTable())
  print("")
  print(memoryTable())
}
