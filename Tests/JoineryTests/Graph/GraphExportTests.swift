import Joinery
import Testing

private protocol HTTPClient: Sendable {}
private final class URLClient: HTTPClient { init() {} }
private final class Cache: Sendable { init() {} }
private final class FeedService: Sendable {
  init(client: any HTTPClient, cache: Cache) {}
}
private final class App: Sendable { init(feed: FeedService, cache: Cache) {} }

private struct ExportAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(URLClient.self, lifetime: .persistent, to: URLClient.init)
    registrar.bind((any HTTPClient).self, forwardingTo: URLClient.self)
    registrar.bind(Cache.self, lifetime: .cached, to: Cache.init)
    registrar.bind(
      FeedService.self, lifetime: .cached, to: FeedService.init(client:cache:),
      dependencies: .untagged, .tagged("feed"))
    registrar.bind(App.self) { resolver in
      App(feed: try resolver.resolve(), cache: try resolver.resolve())
    }
  }
}

@Suite("Graph export")
struct GraphExportTests {
  let container: Container

  init() throws {
    container = try ContainerBuilder(ExportAssembly()).build()
  }

  @Test("Mermaid export")
  func mermaid() {
    let expected = """
      graph LR
        n0["App<br/>ephemeral · ExportAssembly · unchecked"]:::unchecked
        n1["Cache<br/>cached · ExportAssembly"]
        n2["FeedService<br/>cached · ExportAssembly"]
        n3["HTTPClient<br/>persistent · ExportAssembly"]
        n4["URLClient<br/>persistent · ExportAssembly"]
        n2 -->|fallback| n1
        n2 --> n3
        n3 --> n4
        classDef unchecked stroke-dasharray: 5 3
      """
    #expect(container.graph.mermaid == expected)
    // Every edge build() knows is declared; only verify() adds observed ones.
    #expect(container.graph.edges.count == 3)
    #expect(container.graph.edges.allSatisfy { !$0.isObserved })
    #expect(container.graph.edges.map(\.isFallback) == [true, false, false])
  }

  @Test("Graphviz DOT export")
  func dot() {
    let expected = """
      digraph Joinery {
        rankdir=LR;
        node [shape=box, style=rounded, fontname="Helvetica"];
        edge [fontname="Helvetica", fontsize=10];
        n0 [label="App\\nephemeral · ExportAssembly · unchecked", style="rounded,dashed"];
        n1 [label="Cache\\ncached · ExportAssembly"];
        n2 [label="FeedService\\ncached · ExportAssembly"];
        n3 [label="HTTPClient\\npersistent · ExportAssembly"];
        n4 [label="URLClient\\npersistent · ExportAssembly"];
        n2 -> n1 [label="fallback"];
        n2 -> n3;
        n3 -> n4;
      }
      """
    #expect(container.graph.dot == expected)
  }

  @Test("Tree export, with the edges verify() observed")
  func tree() throws {
    let report = try container.verify()
    let expected = """
      App [ephemeral] (unchecked)
      ├─ Cache [cached] (observed)
      └─ FeedService [cached] (observed)
         ├─ Cache [cached] (fallback) (see above)
         └─ HTTPClient [persistent]
            └─ URLClient [persistent]
      """
    #expect(report.graph.tree(from: BindingKey(App.self)) == expected)
    #expect(container.graph.tree(from: BindingKey(Int.self)) == "Int (not bound)")
  }

  @Test("Provider and Lazy dependencies are edges to what they wrap, marked deferred")
  func deferredEdges() throws {
    final class Refresher: Sendable {
      init(feed: Provider<FeedService>, cache: Lazy<Cache>, client: any HTTPClient) {}
    }
    let graph = try ContainerBuilder(ExportAssembly()).adding { registrar in
      registrar.bind(Refresher.self, to: Refresher.init(feed:cache:client:))
    }.build().graph
    let fromRefresher = graph.edges.filter { $0.from == BindingKey(Refresher.self) }
    #expect(
      fromRefresher.map { "\($0.to)" } == ["Cache", "FeedService", "HTTPClient"],
      "\(fromRefresher)")
    #expect(fromRefresher.map(\.isDeferred) == [true, true, false])
    #expect(graph.mermaid.contains("-.->|deferred|"))
    #expect(graph.dot.contains("[style=dotted, label=\"deferred\"]"))
    let tree = graph.tree(from: BindingKey(Refresher.self))
    #expect(tree.contains("├─ Cache [cached] (deferred)"), "\(tree)")
    #expect(tree.contains("FeedService [cached] (deferred)"), "\(tree)")
  }

  @Test("A verification report prints a summary; the graph only when asked")
  func reportSummary() throws {
    let report = try container.verify()
    let text = "\(report)"
    #expect(text.hasPrefix("Verified 5 bindings; skipped 0."), "\(text)")
    #expect(text.contains("Graph: 5 bindings, 5 edges (2 observed)"), "\(text)")
    #expect(!text.contains("URLClient"))
    #expect(text.split(separator: "\n").count == 2)
  }
}
